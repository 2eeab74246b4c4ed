-- +goose Up
-- The group commit's check that its statement moved every stream head it
-- meant to (issue 36): the server raises it, so the COMMIT can go out in the
-- same round trip as the writes instead of waiting for the client to count
-- the rows. Its SQLSTATE (ES409) and constraint name (heads, created) tell
-- eventstore which statement found a stream moved or created meanwhile.
-- +goose StatementBegin
CREATE FUNCTION eventstore_expect_rows(got bigint, want bigint, statement text) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    IF got <> want THEN
        RAISE EXCEPTION 'eventstore: % wrote % of % stream heads: a stream moved or was created meanwhile', statement, got, want
            USING ERRCODE = 'ES409', CONSTRAINT = statement;
    END IF;
    RETURN got;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION eventstore_expect_rows(bigint, bigint, text);
