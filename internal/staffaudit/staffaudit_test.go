package staffaudit

import (
	"context"
	"strings"
	"testing"
)

// An entry names a staff account as its actor, as an id or as the events'
// "staff:<id>", and an action; anything else is refused before the
// database is asked (q is never used).
func TestRecordTxRefusesAnEntryWithoutActorOrAction(t *testing.T) {
	for _, e := range []Entry{
		{Actor: "", Action: ActionView},
		{Actor: "apikey:x", Action: ActionView},
		{Actor: "staff:0b6f4c1e-7a51-4c5e-9d0b-1f2a3b4c5d6e", Action: ""},
	} {
		if err := RecordTx(context.Background(), nil, e); err == nil || !strings.HasPrefix(err.Error(), "staff audit") {
			t.Errorf("%+v: %v", e, err)
		}
	}
}
