package eventbus_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/eventbus"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/natstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/projections"
)

func TestNewRefusesUnknownKind(t *testing.T) {
	if _, err := eventbus.New(eventbus.Config{Kind: "kafka"}, nil, nil); err == nil {
		t.Fatal("kind kafka accepted")
	}
	if _, err := eventbus.New(eventbus.Config{Kind: eventbus.KindNATS}, nil, nil); err == nil {
		t.Fatal("nats without a URL accepted")
	}
}

// TestProjectorsOverNATS runs two projector workers on the nats transport
// against a real JetStream server. Events appended after the workers have
// subscribed (so the start-up sweep cannot have applied them) reach the read
// tables, and every projection's durable consumer has acknowledged the whole
// stream: the notifications travelled SQL table -> forwarder -> JetStream ->
// projector.
func TestProjectorsOverNATS(t *testing.T) {
	natsURL := natstest.URL(t)
	pool := testdb.New(t)
	store := eventstore.New(pool)
	repo := accounts.NewRepository(store, nil)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tr, err := eventbus.New(eventbus.Config{Kind: eventbus.KindNATS, NATSURL: natsURL}, pool, nil)
	if err != nil {
		t.Fatal(err)
	}

	ctx, stop := context.WithCancel(context.Background())
	var projectors []*projections.Projector
	var dones []chan error
	for range 2 {
		r := projections.NewProjector(pool, store, log, projections.All()...)
		done := make(chan error, 1)
		go func() { done <- tr.RunProjector(ctx, r, projections.RunOptions{}) }()
		projectors = append(projectors, r)
		dones = append(dones, done)
	}
	defer func() {
		stop()
		for _, done := range dones {
			if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("projector: %v", err)
			}
		}
	}()

	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := nc.JetStream()
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the projectors' durable consumer exists", func() bool {
		_, err := js.ConsumerInfo(eventstore.Topic, projections.WakeUpGroup)
		return err == nil
	})

	ids := []string{accountstest.Register(t, repo), accountstest.Register(t, repo), accountstest.Register(t, repo)}
	var last int64
	for i, id := range ids {
		for range i + 1 {
			last = accountstest.Do(t, repo, id, accountstest.Grant(100, domain.SourcePromo, nil)).LastPosition
		}
	}
	for _, r := range projectors {
		if err := r.WaitFor(ctx, last, 20*time.Second); err != nil {
			t.Fatalf("projections did not reach position %d: %v", last, err)
		}
	}

	for _, id := range ids {
		a, err := repo.Replay(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var credits int64
		if err := pool.QueryRow(ctx, `SELECT credits_available FROM profiles WHERE account_id = $1`, id).Scan(&credits); err != nil {
			t.Fatal(err)
		}
		if want := a.Balance(time.Now()); credits != want {
			t.Errorf("account %s: profiles.credits_available = %d, want %d", id, credits, want)
		}
	}

	waitUntil(t, "the durable consumer acknowledged the whole stream", func() bool {
		si, err := js.StreamInfo(eventstore.Topic)
		if err != nil || si.State.LastSeq == 0 {
			return false
		}
		ci, err := js.ConsumerInfo(eventstore.Topic, projections.WakeUpGroup)
		return err == nil && ci.AckFloor.Stream >= si.State.LastSeq
	})
	// One message per committed transaction, not one per event: the grants
	// above were six transactions of one event each, the registrations three.
	var events int64
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&events); err != nil {
		t.Fatal(err)
	}
	if si, err := js.StreamInfo(eventstore.Topic); err != nil || si.State.Msgs > uint64(events) {
		t.Fatalf("stream holds %v messages for %d events (%v)", si.State.Msgs, events, err)
	}
}

// waitUntil polls cond for up to 20 seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The JetStream stream gets the configured limits, created or updated.
func TestStreamLimits(t *testing.T) {
	natsURL := natstest.URL(t)
	for _, limits := range []struct {
		age   time.Duration
		bytes int64
	}{{time.Hour, 1 << 20}, {48 * time.Hour, 1 << 30}} { // the second updates the stream the first made
		tr, err := eventbus.New(eventbus.Config{Kind: eventbus.KindNATS, NATSURL: natsURL, StreamMaxAge: limits.age, StreamMaxBytes: limits.bytes}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.EnsureStreamLimits(); err != nil {
			t.Fatal(err)
		}
		nc, err := nats.Connect(natsURL)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := nc.JetStream()
		info, err := js.StreamInfo(eventstore.Topic)
		nc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if info.Config.MaxAge != limits.age || info.Config.MaxBytes != limits.bytes {
			t.Fatalf("stream limits = %v, %d; want %v, %d", info.Config.MaxAge, info.Config.MaxBytes, limits.age, limits.bytes)
		}
	}
	if got := eventbus.OutboxGroups(eventbus.KindNATS); len(got) != 1 || got[0] != eventbus.ForwarderConsumerGroup {
		t.Fatalf("nats outbox groups = %v", got)
	}
	if got := eventbus.OutboxGroups(eventbus.KindSQL); len(got) != 1 || got[0] != projections.WakeUpGroup {
		t.Fatalf("sql outbox groups = %v", got)
	}
}
