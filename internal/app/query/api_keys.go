package query

import (
	"context"

	"github.com/a2e-automation/app/internal/auth"
)

// KeyLister lists an account's working API keys (auth.Store, its api_keys
// table: written in the transaction of each key's event, so a seller reads
// back a key the moment it is made).
type KeyLister interface {
	APIKeys(ctx context.Context, accountID string) ([]auth.KeyRow, error)
}

// APIKey is one key as GET /api/api-keys answers it; Key is the key itself,
// shown again as the API Keys page has always shown the Default key.
type APIKey struct {
	auth.KeyRow
	Key string
}

// APIKeysHandler answers the API Keys page's list.
type APIKeysHandler struct {
	keys    KeyLister
	decrypt KeyDecrypter
}

// Handle returns accountID's working keys, the Default key first.
func (h APIKeysHandler) Handle(ctx context.Context, accountID string) ([]APIKey, error) {
	rows, err := h.keys.APIKeys(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := make([]APIKey, 0, len(rows))
	for _, r := range rows {
		k := APIKey{KeyRow: r}
		if r.Encrypted != "" {
			if k.Key, err = h.decrypt.Decrypt(r.Encrypted); err != nil {
				return nil, err
			}
		}
		k.Encrypted = ""
		out = append(out, k)
	}
	return out, nil
}
