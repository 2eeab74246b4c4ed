package downloads

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// LinkTTL is how long a download link works after it is issued.
const LinkTTL = 5 * time.Minute

// errLinkInvalid is a link token that is malformed, forged, another
// account's or past its expiry; callers see only ErrLinkExpired.
var errLinkInvalid = errors.New("download link invalid or expired")

// links signs download link tokens: "<expiry unix seconds>.<HMAC>", the
// HMAC-SHA256 of the account id and the expiry under a key derived from
// APP_SECRET for this purpose alone. Nothing is stored; a token works for
// its account until it expires.
type links struct{ key []byte }

func newLinks(secret string) links {
	k := sha256.Sum256([]byte("a2e download link\x00" + secret))
	return links{key: k[:]}
}

// issue returns a token for accountID valid until the returned expiry
// (now plus LinkTTL, in whole seconds, as the token carries it).
func (l links) issue(accountID string, now time.Time) (string, time.Time) {
	expires := now.Add(LinkTTL).Truncate(time.Second).UTC()
	exp := strconv.FormatInt(expires.Unix(), 10)
	return exp + "." + l.sign(accountID, exp), expires
}

// check accepts a token issued for accountID that has not expired at now.
func (l links) check(token, accountID string, now time.Time) error {
	exp, mac, ok := strings.Cut(token, ".")
	if !ok {
		return errLinkInvalid
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || !hmac.Equal([]byte(mac), []byte(l.sign(accountID, exp))) || !now.Before(time.Unix(unix, 0)) {
		return errLinkInvalid
	}
	return nil
}

func (l links) sign(accountID, exp string) string {
	m := hmac.New(sha256.New, l.key)
	m.Write([]byte(accountID + "\x00" + exp))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
