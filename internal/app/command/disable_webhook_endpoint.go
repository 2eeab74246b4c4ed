package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/webhooks"
)

// DisableWebhookEndpointHandler disables an endpoint that failed for too
// long; the webhook worker calls it (webhooks.DisableFunc).
type DisableWebhookEndpointHandler struct {
	accounts *accounts.Repository
	store    *webhooks.Store
	compose  func(to, url, reason string) mail.Message
	queued   func()
}

// Handle records WebhookEndpointDisabled, marks the endpoint's row and its
// waiting deliveries, and queues the seller's mail, in one transaction: the
// mail goes once however many workers see the failure. An endpoint
// removed or disabled already changes nothing.
func (h DisableWebhookEndpointHandler) Handle(ctx context.Context, accountID, id, reason string) error {
	mailed := false
	_, err := h.accounts.Change(ctx, accountID, eventstore.UpdateOptions{},
		func(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) (any, error) {
			mailed = false
			before := len(a.Changes())
			if err := a.DisableWebhookEndpoint(id, reason, now); err != nil || len(a.Changes()) == before {
				return nil, err
			}
			url, err := w.DisableWebhookEndpoint(ctx, h.store, accountID, id)
			if err != nil {
				return nil, err
			}
			if h.compose != nil {
				if err := w.Mail(ctx, mail.KindWebhook, h.compose(a.Email(), url, reason), now); err != nil {
					return nil, err
				}
				mailed = true
			}
			return nil, nil
		})
	if err == nil && mailed && h.queued != nil {
		h.queued()
	}
	return err
}
