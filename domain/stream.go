package domain

import "strings"

// StreamPrefix starts every seller account's stream id.
const StreamPrefix = "account-"

// StreamID is the event stream of account id.
func StreamID(accountID string) string { return StreamPrefix + accountID }

// AccountIDFromStream returns the account id of an account stream.
func AccountIDFromStream(stream string) (string, bool) {
	return strings.CutPrefix(stream, StreamPrefix)
}
