package staffaudit

import (
	"context"
	"fmt"
)

// Protection says whether the role this pool connects as could switch
// the trail's append-only trigger off or rewrite the trail: "" when it
// cannot, else why it can (a superuser; a member of the table's owner,
// the owner included; a role that may create roles and so join the
// owner's). docs/auth.md ("The audit's database role") says how to set
// the roles up so it cannot.
func (l *Log) Protection(ctx context.Context) (string, error) {
	var user, owner string
	var super, createRole, member bool
	err := l.pool.QueryRow(ctx, `SELECT current_user, t.tableowner, r.rolsuper, r.rolcreaterole, pg_has_role(current_user, t.tableowner, 'MEMBER')
		FROM pg_tables t, pg_roles r WHERE t.schemaname = current_schema() AND t.tablename = 'staff_audit' AND r.rolname = current_user`).
		Scan(&user, &owner, &super, &createRole, &member)
	if err != nil {
		return "", fmt.Errorf("staff audit protection: %w", err)
	}
	switch {
	case super:
		return fmt.Sprintf("the database role %s is a superuser", user), nil
	case member:
		return fmt.Sprintf("the database role %s owns staff_audit (as %s)", user, owner), nil
	case createRole:
		return fmt.Sprintf("the database role %s may create roles (CREATEROLE) and so join staff_audit's owner %s", user, owner), nil
	}
	return "", nil
}
