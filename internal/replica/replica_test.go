package replica_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/replica"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// The choice on one server: a "standby" that is not in recovery is current
// (a standby promoted by a failover, or prefer-standby finding no standby),
// so reads go to it. Test/ha's TestReadsFollowTheStandby runs the lagging
// case on a real standby.
func TestReadsPickThePool(t *testing.T) {
	ctx := context.Background()
	dbURL := testdb.NewURL(t)
	primary := pool(t, dbURL)
	if got := replica.New(primary, nil, 0, nil).For(ctx); got != primary {
		t.Fatal("without a standby a read did not go to the primary")
	}
	standby := pool(t, dbURL)
	if got := replica.New(primary, standby, 0, nil).For(ctx); got != standby {
		t.Fatal("a current standby was not used")
	}

	// A standby that does not answer: the primary, within the bound.
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	away := pool(t, u.String())
	proxy.Set(faultproxy.Frozen)
	start := time.Now()
	if got := replica.New(primary, away, 100*time.Millisecond, nil).For(ctx); got != primary {
		t.Fatal("a frozen standby was used")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("a frozen standby held the read %s", d)
	}
	proxy.Set(faultproxy.Down)
	if got := replica.New(primary, away, 100*time.Millisecond, nil).For(ctx); got != primary {
		t.Fatal("a standby that is down was used")
	}
}

func pool(t *testing.T, u string) *pgxpool.Pool {
	t.Helper()
	p, err := pgxpool.New(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}
