package query

import (
	"context"
	"errors"

	"github.com/a2e-automation/app/projections"
)

// VerifiedHandler tells whether an account's email is verified, for the
// signed-in user's answer.
type VerifiedHandler struct{ profiles ProfileReader }

// Handle is whether accountID is verified. A profile the projector has not
// written yet belongs to an account just registered, hence not verified.
func (h VerifiedHandler) Handle(ctx context.Context, accountID string) (bool, error) {
	p, err := h.profiles.Profile(ctx, accountID)
	if err != nil && !errors.Is(err, projections.ErrNoProfile) {
		return false, err
	}
	return p.IsVerified, nil
}
