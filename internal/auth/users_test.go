package auth

import (
	"context"
	"testing"
)

// Staff find an address typed with its Unicode domain (issue 25, item 5).
func TestFindUsersByEitherDomainSpelling(t *testing.T) {
	f := newFixture(t)
	id := f.addUser(t, "v@xn--bcher-kva.example", "s3cret-password")
	for _, q := range []string{"v@bücher.example", "v@xn--bcher-kva.example", "bcher"} {
		hits, err := f.store.FindUsers(context.Background(), q, 10)
		if err != nil || len(hits) != 1 || hits[0].AccountID != id {
			t.Errorf("FindUsers(%q) = %+v, %v", q, hits, err)
		}
	}
}
