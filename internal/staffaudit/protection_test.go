package staffaudit_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// Issue 31, item 11: the migrations give staff_audit to a role nobody logs
// in as, so a role with the application's rights (SELECT and INSERT, as
// docs/auth.md sets it up) can append and read the trail but not switch
// its trigger off, rewrite it or take the owner's role; Protection tells
// such a role from the superuser the tests migrate as.
func TestTheApplicationRoleCannotRewriteTheTrail(t *testing.T) {
	ctx := context.Background()
	dbURL := testdb.NewURL(t)
	admin := testdb.Pool(t, dbURL)
	var owner, fnOwner string
	if err := admin.QueryRow(ctx, `SELECT tableowner, (SELECT proowner::regrole::text FROM pg_proc WHERE proname = 'staff_audit_append_only')
		FROM pg_tables WHERE tablename = 'staff_audit'`).Scan(&owner, &fnOwner); err != nil {
		t.Fatal(err)
	}
	if owner != "staff_audit_owner" || fnOwner != "staff_audit_owner" {
		t.Fatalf("staff_audit owned by %s, its trigger function by %s", owner, fnOwner)
	}
	if why, err := staffaudit.New(admin).Protection(ctx); err != nil || !strings.Contains(why, "superuser") {
		t.Fatalf("protection as the superuser: %q, %v", why, err)
	}

	b := make([]byte, 6)
	_, _ = rand.Read(b)
	role := "audit_app_" + hex.EncodeToString(b)
	for _, q := range []string{
		`CREATE ROLE ` + role + ` LOGIN`,
		`GRANT SELECT, INSERT ON staff_audit TO ` + role,
		`GRANT USAGE ON SEQUENCE staff_audit_id_seq TO ` + role,
		`GRANT SELECT ON users TO ` + role, // List joins it
	} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	t.Cleanup(func() {
		for _, q := range []string{`DROP OWNED BY ` + role, `DROP ROLE ` + role} {
			if _, err := admin.Exec(context.Background(), q); err != nil {
				t.Log(q, err)
			}
		}
	})
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(role)
	app := testdb.Pool(t, u.String())
	log := staffaudit.New(app)
	if why, err := log.Protection(ctx); err != nil || why != "" {
		t.Fatalf("protection as the application's role: %q, %v", why, err)
	}
	actor := "0b6f4c1e-7a51-4c5e-9d0b-1f2a3b4c5d6e"
	if err := log.Record(ctx, staffaudit.Entry{Actor: actor, Action: staffaudit.ActionSearch, Detail: "q=x", RequestID: "r1"}); err != nil {
		t.Fatalf("append as the application's role: %v", err)
	}
	if p, err := log.List(ctx, staffaudit.Filter{Limit: 10}); err != nil || len(p.Entries) != 1 || p.Entries[0].Outcome != staffaudit.OutcomeDone {
		t.Fatalf("read as the application's role: %+v, %v", p, err)
	}
	for _, q := range []string{
		`ALTER TABLE staff_audit DISABLE TRIGGER staff_audit_no_update`,
		`ALTER TABLE staff_audit DISABLE TRIGGER ALL`,
		`DROP TRIGGER staff_audit_no_update ON staff_audit`,
		`CREATE OR REPLACE FUNCTION staff_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN OLD; END $$`,
		`UPDATE staff_audit SET detail = 'rewritten'`,
		`DELETE FROM staff_audit`,
		`TRUNCATE staff_audit`,
		`ALTER TABLE staff_audit OWNER TO ` + role,
		`SET ROLE staff_audit_owner`,
		`DROP TABLE staff_audit`,
	} {
		if _, err := app.Exec(ctx, q); err == nil {
			t.Errorf("the application's role could: %s", q)
		}
	}
	var detail string
	if err := admin.QueryRow(ctx, `SELECT detail FROM staff_audit`).Scan(&detail); err != nil || detail != "q=x" {
		t.Fatalf("the line after the attempts: %q, %v", detail, err)
	}
}
