package eventstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

var errRefused = errors.New("refused by the decider")

func refuse(context.Context, pgx.Tx, eventstore.Snapshot) (eventstore.Decision, error) {
	return eventstore.Decision{}, errRefused
}

// TestUpdateManyKeepsEachCommandsOutcome: one transaction carries an
// append, a refusal, a replay, a reused key and a new stream; each gets its
// own answer, only the successes write, and positions follow the batch.
func TestUpdateManyKeepsEachCommandsOutcome(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	for _, stream := range []string{"a", "b", "c", "d"} {
		if _, err := s.Update(ctx, stream, eventstore.UpdateOptions{}, decideAppend("Init")); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.Update(ctx, "c", eventstore.UpdateOptions{IdempotencyKey: "k1", RequestHash: "h1"}, decideAppend("Keyed"))
	if err != nil {
		t.Fatal(err)
	}

	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "a", Opts: eventstore.UpdateOptions{IdempotencyKey: "k2", RequestHash: "h2"}, Decide: decideAppend("E")},
		{Stream: "b", Decide: refuse},
		{Stream: "c", Opts: eventstore.UpdateOptions{IdempotencyKey: "k1", RequestHash: "h1"}, Decide: decideAppend("Keyed")},
		{Stream: "d", Opts: eventstore.UpdateOptions{IdempotencyKey: "k1", RequestHash: "other"}, Decide: decideAppend("E")},
		{Stream: "new", Decide: decideAppend("E")},
	})
	if outs[0].Err != nil || outs[0].Result.StreamVersion != 2 || outs[0].Result.FirstPosition == 0 || string(outs[0].Result.Result) != `{"appended":2}` {
		t.Errorf("append = %+v", outs[0])
	}
	if !errors.Is(outs[1].Err, errRefused) {
		t.Errorf("refusal = %+v", outs[1])
	}
	if outs[2].Err != nil || !outs[2].Result.Replayed || outs[2].Result.LastPosition != first.LastPosition || string(outs[2].Result.Result) != string(first.Result) {
		t.Errorf("replay = %+v, first %+v", outs[2], first)
	}
	if outs[3].Err != nil {
		t.Errorf("d has never seen key k1 (keys are per stream): %+v", outs[3])
	}
	if outs[4].Err != nil || outs[4].Result.StreamVersion != 1 {
		t.Errorf("new stream = %+v", outs[4])
	}
	for stream, want := range map[string]int64{"a": 2, "b": 1, "c": 2, "d": 2, "new": 1} {
		if v, err := s.StreamVersion(ctx, stream); err != nil || v != want {
			t.Errorf("%s at version %d (%v), want %d", stream, v, err, want)
		}
	}
	// A replay of the batch's own key answers what the batch answered.
	again, err := s.Update(ctx, "a", eventstore.UpdateOptions{IdempotencyKey: "k2", RequestHash: "h2"}, decideAppend("E"))
	if err != nil || !again.Replayed || again.FirstPosition != outs[0].Result.FirstPosition {
		t.Errorf("replay of the batch's key = %+v, %v", again, err)
	}
	reused := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "a", Opts: eventstore.UpdateOptions{IdempotencyKey: "k2", RequestHash: "not h2"}, Decide: decideAppend("E")},
		{Stream: "b", Decide: decideAppend("E")},
	})
	if !errors.Is(reused[0].Err, eventstore.ErrIdempotencyKeyReused) || reused[1].Err != nil {
		t.Errorf("reused key beside an append = %+v", reused)
	}
}

// TestUpdateManyFailureNeverFailsBatchMates: a command whose decider breaks
// the transaction (a failing query) takes the batch down; every other
// command is then run on its own and succeeds, exactly once.
func TestUpdateManyFailureNeverFailsBatchMates(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	broken := func(ctx context.Context, tx pgx.Tx, _ eventstore.Snapshot) (eventstore.Decision, error) {
		_, err := tx.Exec(ctx, `SELECT * FROM no_such_table`)
		return eventstore.Decision{}, err
	}
	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "x", Decide: decideAppend("E")},
		{Stream: "y", Decide: broken},
		{Stream: "z", Opts: eventstore.UpdateOptions{IdempotencyKey: "k", RequestHash: "h"}, Decide: decideAppend("E")},
	})
	if outs[0].Err != nil || outs[2].Err != nil || outs[1].Err == nil {
		t.Fatalf("outcomes = %+v", outs)
	}
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d events (%v), want 2: one per successful command", n, err)
	}
}

// TestUpdateManyDeciderWrites: a decider's own writes commit with its
// command and never with a refusal, as in Update; a panicking decider
// fails its command, not the process.
func TestUpdateManyDeciderWrites(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	if _, err := s.Pool().Exec(ctx, `CREATE TABLE side_effects (what text)`); err != nil {
		t.Fatal(err)
	}
	write := func(what string, refuse bool) eventstore.DecideFunc {
		return func(ctx context.Context, tx pgx.Tx, _ eventstore.Snapshot) (eventstore.Decision, error) {
			if _, err := tx.Exec(ctx, `INSERT INTO side_effects VALUES ($1)`, what); err != nil {
				return eventstore.Decision{}, err
			}
			if refuse {
				return eventstore.Decision{}, errRefused
			}
			return eventstore.Decision{}, nil // nothing to append: only the write
		}
	}
	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "a", Decide: write("kept", false)},
		{Stream: "b", Decide: write("refused", true)},
		{Stream: "c", Decide: func(context.Context, pgx.Tx, eventstore.Snapshot) (eventstore.Decision, error) { panic("a bug") }},
		{Stream: "d", Decide: decideAppend("E")},
	})
	if outs[0].Err != nil || !errors.Is(outs[1].Err, errRefused) || outs[2].Err == nil || outs[3].Err != nil {
		t.Fatalf("outcomes = %+v", outs)
	}
	rows, err := s.Pool().Query(ctx, `SELECT what FROM side_effects ORDER BY what`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(got) != 1 || got[0] != "kept" {
		t.Fatalf("side effects = %v (%v), want only the successful decider's", got, err)
	}
}

// TestBatcherAfterClose: a command submitted after Close is answered
// ErrBatcherClosed at once, never left waiting.
func TestBatcherAfterClose(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	for range 50 {
		b := s.NewBatcher(eventstore.BatcherOptions{})
		b.Close()
		done := make(chan error, 1)
		go func() {
			_, err := b.Update(context.Background(), "s", eventstore.UpdateOptions{}, decideAppend("E"))
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, eventstore.ErrBatcherClosed) {
				t.Fatalf("after Close: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a command submitted after Close never got an answer")
		}
	}
}

// TestPositionSequenceCachesNothing: the horizon reads the sequence's last
// value as the highest position drawn, which holds only with CACHE 1.
func TestPositionSequenceCachesNothing(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	var cache int64
	if err := s.Pool().QueryRow(context.Background(), `SELECT cache_size FROM pg_sequences WHERE sequencename = 'events_position_seq'`).Scan(&cache); err != nil || cache != 1 {
		t.Fatalf("events_position_seq cache = %d (%v), want 1", cache, err)
	}
}

type requestKey struct{}

// TestBatchDecidersSeeTheirOwnRequest: commands coalesced into one group
// commit each decide with their own request's values (request id, logger),
// not the first caller's, and a caller that goes away while its batch runs
// does not cancel its batch-mates' transaction.
func TestBatchDecidersSeeTheirOwnRequest(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	b := s.NewBatcher(eventstore.BatcherOptions{MaxBatch: 2, Linger: 300 * time.Millisecond})
	defer b.Close()
	release := make(chan struct{})
	seen := make(chan [2]string, 2)
	decide := func(stream string) eventstore.DecideFunc {
		return func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
			id, _ := ctx.Value(requestKey{}).(string)
			seen <- [2]string{stream, id}
			if stream == "s-1" {
				<-release // the first caller is gone by now
			}
			return decideAppend("E")(ctx, tx, snap)
		}
	}
	type answer struct {
		stream string
		err    error
	}
	answers := make(chan answer, 2)
	first, cancelFirst := context.WithCancel(context.WithValue(context.Background(), requestKey{}, "req-s-1"))
	for i, stream := range []string{"s-1", "s-2"} {
		ctx := context.WithValue(context.Background(), requestKey{}, "req-"+stream)
		if i == 0 {
			ctx = first
		}
		go func() {
			_, err := b.Update(ctx, stream, eventstore.UpdateOptions{}, decide(stream))
			answers <- answer{stream, err}
		}()
		time.Sleep(20 * time.Millisecond) // queue order s-1, s-2; the linger joins them
	}
	got := <-seen
	cancelFirst()
	close(release)
	if got2 := <-seen; got2[1] != "req-"+got2[0] {
		t.Errorf("decider of %s saw request %q", got2[0], got2[1])
	}
	if got[1] != "req-"+got[0] {
		t.Errorf("decider of %s saw request %q", got[0], got[1])
	}
	for range 2 {
		a := <-answers
		if a.stream != "s-1" && a.err != nil {
			t.Errorf("%s failed beside a caller that went away: %v", a.stream, a.err)
		}
	}
	if batches, commands := b.Stats(); batches != 1 || commands != 2 {
		t.Fatalf("%d batches of %d commands; the test needs one of two", batches, commands)
	}
	for _, stream := range []string{"s-1", "s-2"} { // the gone caller's command committed too
		if v, err := s.StreamVersion(context.Background(), stream); err != nil || v != 1 {
			t.Errorf("%s at version %d (%v)", stream, v, err)
		}
	}
}

// TestBatcherPipelinesBatchesOfOtherStreams: with InFlight 2, a batch
// whose decider is slow does not hold back the next batch of other streams,
// but a later command of a stream in the slow batch waits for it and runs
// after it, in order.
func TestBatcherPipelinesBatchesOfOtherStreams(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	b := s.NewBatcher(eventstore.BatcherOptions{InFlight: 2, PipelineMin: 1})
	defer b.Close()
	ctx := context.Background()
	release := make(chan struct{})
	slowStarted := make(chan struct{})
	slow := func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		close(slowStarted)
		<-release
		return decideAppend("Slow")(ctx, tx, snap)
	}
	type answer struct {
		res eventstore.Result
		err error
	}
	first := make(chan answer, 1)
	go func() {
		res, err := b.Update(ctx, "s-1", eventstore.UpdateOptions{}, slow)
		first <- answer{res, err}
	}()
	<-slowStarted
	// The same stream: queued behind the slow batch, not run beside it.
	second := make(chan answer, 1)
	go func() {
		res, err := b.Update(ctx, "s-1", eventstore.UpdateOptions{}, decideAppend("After"))
		second <- answer{res, err}
	}()
	// Another stream commits while the slow batch is still deciding.
	if res, err := b.Update(ctx, "s-2", eventstore.UpdateOptions{}, decideAppend("Other")); err != nil || res.StreamVersion != 1 {
		t.Fatalf("the other stream's command = %+v, %v", res, err)
	}
	select {
	case a := <-second:
		t.Fatalf("a command ran beside its stream's running batch: %+v", a)
	default:
	}
	close(release)
	if a := <-first; a.err != nil || a.res.StreamVersion != 1 {
		t.Fatalf("slow command = %+v", a)
	}
	if a := <-second; a.err != nil || a.res.StreamVersion != 2 {
		t.Fatalf("the stream's next command = %+v, want version 2 after the slow one", a)
	}
	recs, err := s.ReadStream(ctx, "s-1", 0, 0)
	if err != nil || len(recs) != 2 || recs[0].Type != "Slow" || recs[1].Type != "After" {
		t.Fatalf("s-1 = %+v, %v", recs, err)
	}
}

// TestBatcherPipelinesOnlyWorthwhileBatches: beside a running batch, a
// batch starts only once it has PipelineMin commands; a smaller one waits.
func TestBatcherPipelinesOnlyWorthwhileBatches(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	b := s.NewBatcher(eventstore.BatcherOptions{InFlight: 2, PipelineMin: 2})
	defer b.Close()
	ctx := context.Background()
	release, started := make(chan struct{}), make(chan struct{})
	slowDone := make(chan error, 1)
	go func() {
		_, err := b.Update(ctx, "slow", eventstore.UpdateOptions{}, func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
			close(started)
			<-release
			return decideAppend("Slow")(ctx, tx, snap)
		})
		slowDone <- err
	}()
	<-started
	done := make(chan string, 2)
	update := func(stream string) {
		if _, err := b.Update(ctx, stream, eventstore.UpdateOptions{}, decideAppend("E")); err != nil {
			t.Error(err)
		}
		done <- stream
	}
	go update("a")
	select {
	case st := <-done:
		t.Fatalf("a lone command (%s) ran beside the running batch", st)
	case <-time.After(300 * time.Millisecond):
	}
	go update("b")
	for range 2 { // the two make a batch worth running beside the slow one
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("a batch of PipelineMin commands waited for the running one")
		}
	}
	close(release)
	if err := <-slowDone; err != nil {
		t.Fatal(err)
	}
}

// TestBatchEndsSoonAfterItsCallersDeadline: a group commit that stalls
// (a frozen database, here a decider that waits) ends Timeout/4 after the
// earliest deadline of its callers, not a whole Timeout after it started.
func TestBatchEndsSoonAfterItsCallersDeadline(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	b := s.NewBatcher(eventstore.BatcherOptions{Timeout: 4 * time.Second})
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := b.Update(ctx, "stalled", eventstore.UpdateOptions{}, func(ctx context.Context, _ pgx.Tx, _ eventstore.Snapshot) (eventstore.Decision, error) {
		<-ctx.Done() // the batch's deadline, not the caller's cancellation
		return eventstore.Decision{}, ctx.Err()
	})
	took := time.Since(start)
	if err == nil {
		t.Fatal("a stalled batch answered success")
	}
	if took < time.Second || took > 2500*time.Millisecond {
		t.Fatalf("the stalled batch answered after %v; want about 200 ms + Timeout/4 (1 s)", took)
	}
}

// TestUpdateManyDrawsPositionsBeyondOnePerCommand: a group commit draws one
// position per command with its locks; commands that append more events
// than that get the rest drawn after deciding, and a refusal's position is
// left unused. Every event gets its own position, in order, and the log
// reads back whole, gaps and all.
func TestUpdateManyDrawsPositionsBeyondOnePerCommand(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	three := func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		return eventstore.Decision{Events: []eventstore.NewEvent{ev("X", 1), ev("X", 2), ev("X", 3)}}, nil
	}
	outs := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "refused", Decide: refuse},
		{Stream: "three", Decide: three},
		{Stream: "one", Decide: decideAppend("E")},
		{Stream: "three-more", Decide: three},
	})
	if !errors.Is(outs[0].Err, errRefused) {
		t.Fatalf("refusal = %+v", outs[0])
	}
	var last int64
	for i, o := range outs[1:] {
		r := o.Result
		want := int64(3)
		if i == 1 {
			want = 1
		}
		if o.Err != nil || r.StreamVersion != want || r.LastPosition-r.FirstPosition != want-1 || r.FirstPosition <= last {
			t.Fatalf("command %d = %+v (after position %d)", i+1, o, last)
		}
		last = r.LastPosition
	}
	all, err := s.ReadAll(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 7 || all[0].GlobalPosition != outs[1].Result.FirstPosition || all[6].GlobalPosition != outs[3].Result.LastPosition {
		t.Fatalf("the log = %d events %+v, want 7 from %d to %d", len(all), all, outs[1].Result.FirstPosition, outs[3].Result.LastPosition)
	}
	for i := 1; i < len(all); i++ {
		if all[i].GlobalPosition <= all[i-1].GlobalPosition {
			t.Fatalf("positions out of order: %d then %d", all[i-1].GlobalPosition, all[i].GlobalPosition)
		}
	}
}
