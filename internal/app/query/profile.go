package query

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/projections"
)

// ProfileReader reads an account's profile row (projections.Reader).
type ProfileReader interface {
	Profile(ctx context.Context, accountID string) (projections.Profile, error)
}

// StreamWaiter waits until the projector has applied a stream's first
// event (projections.Projector).
type StreamWaiter interface {
	WaitForStreamStart(ctx context.Context, stream string, timeout time.Duration, projections ...string) error
}

// KeyDecrypter shows a stored API key (apikeys.Keys).
type KeyDecrypter interface {
	Decrypt(enc string) (string, error)
}

// ErrProfilePending is a profile the projector has not written yet.
var ErrProfilePending = errors.New("profile not projected yet")

// Profile is the dashboard's profile: the read table's row, the status at
// the time of reading and the API key decrypted for display ("" when it no
// longer decrypts).
type Profile struct {
	projections.Profile
	Status string `json:"-"`
	APIKey string `json:"-"`
}

// ProfileHandler reads the signed-in seller's profile.
type ProfileHandler struct {
	profiles  ProfileReader
	projector StreamWaiter
	keys      KeyDecrypter
	now       func() time.Time
	log       *slog.Logger
}

// Handle reads accountID's profile. A missing row means the projector has
// not applied the registration yet: it waits for that event, bounded, then
// answers ErrProfilePending.
func (h ProfileHandler) Handle(ctx context.Context, accountID string) (Profile, error) {
	p, err := h.profiles.Profile(ctx, accountID)
	if errors.Is(err, projections.ErrNoProfile) {
		err = ErrProfilePending
		if h.projector.WaitForStreamStart(ctx, domain.StreamID(accountID), ReadYourWrites, projections.Profiles{}.Name()) == nil {
			if p, err = h.profiles.Profile(ctx, accountID); errors.Is(err, projections.ErrNoProfile) {
				err = ErrProfilePending
			}
		}
	}
	if err != nil {
		return Profile{}, err
	}
	out := Profile{Profile: p, Status: p.StatusAt(h.now())}
	if p.APIKeyEncrypted != "" {
		// A key that no longer decrypts (APP_SECRET changed) shows as
		// empty; regenerating it gives a working one.
		if out.APIKey, err = h.keys.Decrypt(p.APIKeyEncrypted); err != nil {
			h.log.ErrorContext(ctx, "API key does not decrypt", "account", accountID, "err", err)
		}
	}
	return out, nil
}
