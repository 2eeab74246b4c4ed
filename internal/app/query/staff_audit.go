package query

import (
	"context"

	"github.com/a2e-automation/app/internal/staffaudit"
)

// AuditReader lists the staff audit trail (staffaudit.Log).
type AuditReader interface {
	List(ctx context.Context, f staffaudit.Filter) (staffaudit.Page, error)
}

// StaffAuditHandler reads the audit trail, newest first.
type StaffAuditHandler struct{ audit AuditReader }

// Handle is the page f selects. Recording that it was read is the
// caller's (an audit line, written before the page is shown).
func (h StaffAuditHandler) Handle(ctx context.Context, f staffaudit.Filter) (staffaudit.Page, error) {
	return h.audit.List(ctx, f)
}
