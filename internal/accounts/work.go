package accounts

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/webhooks"
)

// Change decides on one account, in the shape of wild-workouts'
// repo.Update(ctx, id, func(agg) error): it sees the account and the
// moment, and records what must commit with the account's events (an
// audit line, a credential) through w's typed methods. It never sees the
// transaction. result, if not nil, is kept with the idempotency key and
// returned to a retry, as Command's.
type Change func(ctx context.Context, w Work, a *domain.Account, now time.Time) (result any, err error)

// Work is the unit of work of an account change: the rows that commit or
// roll back with its events, each written by a typed method.
type Work struct{ tx pgx.Tx }

// Change runs change on the existing account id, in the account's
// transaction (Update).
func (r *Repository) Change(ctx context.Context, id string, opts eventstore.UpdateOptions, change Change) (eventstore.Result, error) {
	return r.Update(ctx, id, opts, func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		return change(ctx, Work{tx: tx}, a, now)
	})
}

// Audit records a staff audit line with the change (staffaudit.RecordTx).
func (w Work) Audit(ctx context.Context, e staffaudit.Entry) error {
	return staffaudit.RecordTx(ctx, w.tx, e)
}

// UseVerificationCode uses up the account's verification code with the
// verification's event (auth.Store.UseVerificationCode).
func (w Work) UseVerificationCode(ctx context.Context, s *auth.Store, accountID, code string, now time.Time) error {
	return s.UseVerificationCode(ctx, w.tx, accountID, code, now)
}

// CompleteReset uses up the reset token and stores the new password hash
// with the password change's event (auth.Store.CompleteReset).
func (w Work) CompleteReset(ctx context.Context, s *auth.Store, accountID, token, passwordHash string, now time.Time) error {
	return s.CompleteReset(ctx, w.tx, accountID, token, passwordHash, now)
}

// Mail queues a message in the mail outbox with the change (mail.Enqueue):
// it goes once the change commits, and never when it rolls back.
func (w Work) Mail(ctx context.Context, kind string, m mail.Message, now time.Time) error {
	return mail.Enqueue(ctx, w.tx, kind, m, now)
}

// AddWebhookEndpoint stores a new endpoint's row, its secret sealed, with
// WebhookEndpointAdded (webhooks.Store.Insert).
func (w Work) AddWebhookEndpoint(ctx context.Context, s *webhooks.Store, accountID string, e webhooks.Endpoint, now time.Time) error {
	return s.Insert(ctx, w.tx, accountID, e, now)
}

// RollWebhookSecret stores an endpoint's new secret, the old one kept for
// a day, with WebhookSecretRolled (webhooks.Store.Roll).
func (w Work) RollWebhookSecret(ctx context.Context, s *webhooks.Store, accountID, id, secret string, now time.Time) error {
	return s.Roll(ctx, w.tx, accountID, id, secret, now)
}

// RemoveWebhookEndpoint deletes an endpoint's row with
// WebhookEndpointRemoved (webhooks.Store.Delete).
func (w Work) RemoveWebhookEndpoint(ctx context.Context, s *webhooks.Store, accountID, id string) error {
	return s.Delete(ctx, w.tx, accountID, id)
}

// DisableWebhookEndpoint marks an endpoint and its waiting deliveries with
// WebhookEndpointDisabled and returns its URL (webhooks.Store.Disable).
func (w Work) DisableWebhookEndpoint(ctx context.Context, s *webhooks.Store, accountID, id string) (string, error) {
	return s.Disable(ctx, w.tx, accountID, id)
}

// ApplyKeyEvents writes the api_keys rows the change's key events make
// (created, rotated, revoked, expired: auth.ApplyKeyEvents) with them.
func (w Work) ApplyKeyEvents(ctx context.Context, accountID string, events []domain.Event, now time.Time) error {
	return auth.ApplyKeyEvents(ctx, w.tx, accountID, events, now)
}

// CreateCredentials stores a new account's credentials and API key lookup
// row with its first events (auth.CreateCredentials).
func (w Work) CreateCredentials(ctx context.Context, accountID, email, passwordHash string, key domain.APIKeyMaterial, now time.Time) error {
	return auth.CreateCredentials(ctx, w.tx, accountID, email, passwordHash, key, now)
}

// Row is an operational row another package's storage writes with an
// account change (a settled checkout, a saved card, a staff request marked
// applied): a typed value whose method receives the transaction, so no
// caller's closure does.
type Row interface {
	SaveIn(ctx context.Context, tx pgx.Tx) error
}

// Save writes rows with the change, in order; a nil row is skipped.
func (w Work) Save(ctx context.Context, rows ...Row) error {
	for _, row := range rows {
		if row == nil {
			continue
		}
		if err := row.SaveIn(ctx, w.tx); err != nil {
			return err
		}
	}
	return nil
}
