-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION eventstore_lock_group(streams text[], known_versions bigint[], known_tokens bigint[],
        key_streams text[], keys text[], draw int, appending bigint)
RETURNS TABLE (stream_id text, version bigint, token bigint, state_version bigint, current boolean, state bytea,
        idempotency_key text, request_hash text, result bytea, first_position bigint, last_position bigint,
        positions bigint[])
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_seqscan', 'off', true);
    RETURN QUERY SELECT s.stream_id, s.version, coalesce(s.token, 0), s.state_version,
            coalesce(s.version = k.version AND s.token = k.token, false),
            CASE WHEN s.version = k.version AND s.token = k.token THEN NULL
                ELSE coalesce(convert_to(s.state::text, 'UTF8'), s.snapshot, s.saved) END,
            NULL::text, NULL::text, NULL::bytea, NULL::bigint, NULL::bigint, NULL::bigint[]
        FROM streams s JOIN unnest(streams, known_versions, known_tokens) AS k(stream_id, version, token) ON k.stream_id = s.stream_id
        WHERE s.stream_id = ANY(streams) ORDER BY s.stream_id FOR UPDATE OF s;
    IF cardinality(keys) > 0 THEN
        RETURN QUERY SELECT q.stream_id, k.stream_version, NULL::bigint, NULL::bigint, NULL::boolean, NULL::bytea,
                q.idempotency_key, k.request_hash, k.result, k.first_position, k.last_position, NULL::bigint[]
            FROM unnest(key_streams, keys) AS q(stream_id, idempotency_key)
            CROSS JOIN LATERAL (SELECT i.request_hash, i.result, i.first_position, i.last_position, i.stream_version
                FROM idempotency_keys i
                WHERE i.stream_id = q.stream_id AND i.idempotency_key = q.idempotency_key LIMIT 1) k;
    END IF;
    IF draw > 0 THEN
        PERFORM pg_advisory_xact_lock_shared(appending);
        RETURN QUERY SELECT NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::boolean, NULL::bytea,
                NULL::text, NULL::text, NULL::bytea, NULL::bigint, NULL::bigint,
                array(SELECT nextval('events_position_seq') FROM generate_series(1, draw));
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION eventstore_write_group(
        h_stream text[], h_expected bigint[], h_version bigint[], h_state bytea[], h_state_version bigint[], h_wake_at timestamptz[], h_token bigint[],
        c_stream text[], c_version bigint[], c_state bytea[], c_state_version bigint[], c_wake_at timestamptz[], c_token bigint[],
        e_position bigint[], e_id uuid[], e_stream text[], e_version bigint[], e_type text[], e_schema int[], e_data text[], e_metadata text[], e_at timestamptz[],
        k_stream text[], k_key text[], k_hash text[], k_result bytea[], k_first bigint[], k_last bigint[], k_stream_version bigint[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    IF cardinality(h_stream) > 0 THEN
        WITH moved AS (UPDATE streams s SET version = u.version, token = u.token,
                saved = CASE WHEN u.state IS NULL THEN s.saved ELSE u.state END,
                snapshot = CASE WHEN u.state IS NULL THEN s.snapshot END,
                state = CASE WHEN u.state IS NULL THEN s.state END,
                state_version = CASE WHEN u.state IS NULL THEN s.state_version ELSE u.state_version END,
                wake_at = u.wake_at, updated_at = now()
            FROM unnest(h_stream, h_expected, h_version, h_state, h_state_version, h_wake_at, h_token)
                AS u(stream_id, expected, version, state, state_version, wake_at, token)
            WHERE s.stream_id = ANY(h_stream) AND s.stream_id = u.stream_id AND s.version = u.expected
            RETURNING 1)
        SELECT count(*) INTO n FROM moved;
        PERFORM eventstore_expect_rows(n, cardinality(h_stream), 'heads');
    END IF;
    IF cardinality(c_stream) > 0 THEN
        WITH created AS (INSERT INTO streams (stream_id, version, saved, state_version, wake_at, token)
            SELECT u.stream_id, u.version, u.state, u.state_version, u.wake_at, u.token
            FROM unnest(c_stream, c_version, c_state, c_state_version, c_wake_at, c_token)
                AS u(stream_id, version, state, state_version, wake_at, token)
            ON CONFLICT (stream_id) DO NOTHING
            RETURNING 1)
        SELECT count(*) INTO n FROM created;
        PERFORM eventstore_expect_rows(n, cardinality(c_stream), 'created');
    END IF;
    IF cardinality(e_position) > 0 THEN
        INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at)
            SELECT p, id, s, v, t, sv, d::jsonb, m::jsonb, at
            FROM unnest(e_position, e_id, e_stream, e_version, e_type, e_schema, e_data, e_metadata, e_at)
                AS u(p, id, s, v, t, sv, d, m, at);
    END IF;
    IF cardinality(k_stream) > 0 THEN
        INSERT INTO idempotency_keys
                (stream_id, idempotency_key, request_hash, result, first_position, last_position, stream_version)
            SELECT * FROM unnest(k_stream, k_key, k_hash, k_result, k_first, k_last, k_stream_version);
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION eventstore_write_group(text[], bigint[], bigint[], bytea[], bigint[], timestamptz[], bigint[], text[], bigint[], bytea[], bigint[], timestamptz[], bigint[], bigint[], uuid[], text[], bigint[], text[], int[], text[], text[], timestamptz[], text[], text[], text[], bytea[], bigint[], bigint[], bigint[]);
DROP FUNCTION eventstore_lock_group(text[], bigint[], bigint[], text[], text[], int, bigint);
