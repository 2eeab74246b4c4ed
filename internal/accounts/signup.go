package accounts

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
)

// ErrEmailTaken is the answer to a registration with a known email
// (auth, which owns the users table, says so).
var ErrEmailTaken = auth.ErrEmailTaken

// Signup is a new account.
type Signup struct {
	AccountID string
	Email     string
	APIKey    string // shown to the seller; stored only hashed and encrypted
	Result    eventstore.Result
}

// Register opens an account: its credentials and API key lookup rows
// (Work.CreateCredentials) and its first events, in one transaction. passwordHash is already hashed.
func (r *Repository) Register(ctx context.Context, keys *apikeys.Keys, email, passwordHash string, md eventstore.Metadata) (Signup, error) {
	s := Signup{AccountID: uuid.NewString(), Email: domain.NormalizeEmail(email)}
	res, err := r.Create(ctx, s.AccountID, eventstore.UpdateOptions{Metadata: md}, func(ctx context.Context, w Work, now time.Time) (*domain.Account, error) {
		plain, material, err := keys.Generate()
		if err != nil {
			return nil, err
		}
		a, err := domain.Register(s.AccountID, s.Email, material, now)
		if err != nil {
			return nil, err
		}
		if err := w.CreateCredentials(ctx, s.AccountID, a.Email(), passwordHash, material, now); err != nil {
			return nil, err
		}
		s.APIKey = plain
		s.Email = a.Email()
		return a, nil
	})
	if err != nil {
		return Signup{}, err
	}
	s.Result = res
	return s, nil
}
