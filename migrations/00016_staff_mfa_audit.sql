-- +goose Up
-- A second factor for staff and the staff audit trail (issue 26, part A).
--
-- staff_mfa: one staff member's TOTP secret, sealed with a key derived from
-- APP_SECRET (AES-256-GCM, never stored or logged in clear). enrolled_at is
-- null while enrolment is under way (a new enrol replaces the secret then);
-- it is set by the first code that verifies. last_step is the last TOTP
-- time step accepted, so a code is never accepted twice.
CREATE TABLE staff_mfa (
    account_id  uuid        PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    secret_enc  text        NOT NULL,
    created_at  timestamptz NOT NULL,
    enrolled_at timestamptz,
    last_step   bigint      NOT NULL DEFAULT 0
);

-- Recovery codes: an HMAC of each (keyed from APP_SECRET), used once.
CREATE TABLE staff_recovery_codes (
    account_id uuid        NOT NULL REFERENCES staff_mfa ON DELETE CASCADE,
    code_hash  text        NOT NULL,
    used_at    timestamptz,
    PRIMARY KEY (account_id, code_hash)
);

-- A session that has passed the second factor, and when.
ALTER TABLE sessions ADD COLUMN mfa_passed_at timestamptz;

-- The staff audit trail: every staff read of an account and every staff
-- action, append-only (the trigger below refuses UPDATE, DELETE and
-- TRUNCATE to everyone, the application included).
CREATE TABLE staff_audit (
    id         bigserial   PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT now(),
    actor_id   uuid        NOT NULL,
    account_id uuid,
    action     text        NOT NULL,
    detail     text        NOT NULL DEFAULT '',
    request_id text        NOT NULL DEFAULT ''
);
CREATE INDEX staff_audit_account ON staff_audit (account_id, id DESC) WHERE account_id IS NOT NULL;
CREATE INDEX staff_audit_actor ON staff_audit (actor_id, id DESC);

-- +goose StatementBegin
CREATE FUNCTION staff_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'staff_audit is append-only: % refused', TG_OP;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER staff_audit_no_update BEFORE UPDATE OR DELETE ON staff_audit
    FOR EACH ROW EXECUTE FUNCTION staff_audit_append_only();
CREATE TRIGGER staff_audit_no_truncate BEFORE TRUNCATE ON staff_audit
    FOR EACH STATEMENT EXECUTE FUNCTION staff_audit_append_only();

-- +goose Down
DROP TABLE staff_audit;
DROP FUNCTION staff_audit_append_only();
ALTER TABLE sessions DROP COLUMN mfa_passed_at;
DROP TABLE staff_recovery_codes;
DROP TABLE staff_mfa;
