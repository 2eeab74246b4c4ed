-- +goose Up
-- Issue 31, item 11: the staff audit trail hardened.
--
-- outcome: 'done', or 'refused' for a staff action the API refused (403,
-- 402, 404, 409…; the detail says why). client_request_id: an X-Request-ID
-- the client sent, kept apart from request_id, which the server makes.
ALTER TABLE staff_audit
    ADD COLUMN outcome           text NOT NULL DEFAULT 'done',
    ADD COLUMN client_request_id text NOT NULL DEFAULT '';

-- The append-only trigger holds only against a role that does not own the
-- table: an owner can ALTER TABLE staff_audit DISABLE TRIGGER. So the
-- table (and its trigger function) is given to a role nobody logs in as,
-- staff_audit_owner, and the role that owned it (the application's, which
-- ran the migrations so far) keeps SELECT and INSERT only. Giving a table
-- away needs a superuser here; run by any other role this step only warns,
-- and the operator does it once as docs/auth.md says ("The audit's
-- database role"). The API warns at start-up while it can still disable
-- the trigger (staffaudit.Protection).
-- +goose StatementBegin
DO $$
DECLARE
    app name := (SELECT tableowner FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'staff_audit');
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE WARNING 'staff_audit stays owned by %, which can disable its append-only trigger: see docs/auth.md, "The audit''s database role"', app;
        RETURN;
    END IF;
    BEGIN
        CREATE ROLE staff_audit_owner NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL; -- made by another database of this server, or at the same time
    END;
    ALTER TABLE staff_audit OWNER TO staff_audit_owner;
    ALTER FUNCTION staff_audit_append_only() OWNER TO staff_audit_owner;
    REVOKE ALL ON staff_audit FROM PUBLIC;
    EXECUTE format('GRANT SELECT, INSERT ON staff_audit TO %I', app);
    EXECUTE format('GRANT USAGE ON SEQUENCE staff_audit_id_seq TO %I', app);
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
DO $$
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        ALTER TABLE staff_audit OWNER TO CURRENT_USER;
        ALTER FUNCTION staff_audit_append_only() OWNER TO CURRENT_USER;
    END IF;
END
$$;
-- +goose StatementEnd
ALTER TABLE staff_audit DROP COLUMN client_request_id, DROP COLUMN outcome;
