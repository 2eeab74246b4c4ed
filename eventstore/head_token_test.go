package eventstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// headToken is the token streams holds for stream (0 for NULL).
func headToken(t *testing.T, s *eventstore.Store, stream string) int64 {
	t.Helper()
	var token *int64
	if err := s.Pool().QueryRow(context.Background(), `SELECT token FROM streams WHERE stream_id = $1`, stream).Scan(&token); err != nil {
		t.Fatal(err)
	}
	if token == nil {
		return 0
	}
	return *token
}

// seeing is a decider that appends one event, with a state unless noState,
// and notes the snapshot it was given.
func seeing(seen *eventstore.Snapshot, noState bool) eventstore.DecideFunc {
	return func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		*seen = snap
		d, err := decideAppend("E")(ctx, tx, snap)
		if noState {
			d.State = nil
		}
		return d, err
	}
}

// Every write of a head draws a fresh non-zero token, which the command's
// Result reports (Update, UpdateMany, Append alike); a command naming the
// head as Known is given it Current, without its state or tail, and any
// other head (another token, another version, no token) is given whole.
func TestHeadTokenNamesTheWriteOfTheHead(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	res, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{}, decideAppend("A"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Token == 0 || res.Token != headToken(t, s, "s-1") {
		t.Fatalf("created head: result token %d, streams holds %d", res.Token, headToken(t, s, "s-1"))
	}
	tokens := map[int64]bool{res.Token: true}
	known := eventstore.Head{Version: res.StreamVersion, Token: res.Token}

	// Known is the head: Current, no state, no tail, even with a tail there.
	var seen eventstore.Snapshot
	if res, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{}, seeing(&seen, true)); err != nil {
		t.Fatal(err)
	}
	if seen.Current || seen.State == nil {
		t.Fatalf("no Known: %+v", seen)
	}
	known = eventstore.Head{Version: res.StreamVersion, Token: res.Token}
	tokens[res.Token] = true
	if res, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{Known: known}, seeing(&seen, true)); err != nil {
		t.Fatal(err)
	}
	if !seen.Current || seen.State != nil || seen.Tail != nil || seen.Version != 2 || seen.Token != known.Token || seen.StateVersion != 1 {
		t.Fatalf("Known head: %+v, state %q", seen, seen.State)
	}
	tokens[res.Token] = true
	// The stale head, another token at the version, a head without token:
	// given whole, with the tail after the state left behind.
	for _, k := range []eventstore.Head{known, {Version: 3, Token: known.Token}, {Version: 3, Token: res.Token + 1}} {
		if _, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{Known: k}, func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
			seen = snap
			return eventstore.Decision{}, nil
		}); err != nil {
			t.Fatal(err)
		}
		if seen.Current || string(seen.State) != `{"count":1}` || seen.StateVersion != 1 || len(seen.Tail) != 2 || seen.Token != res.Token {
			t.Fatalf("Known %+v of head %d/%d: %+v", k, 3, res.Token, seen)
		}
	}
	if _, err := s.Pool().Exec(ctx, `UPDATE streams SET token = NULL WHERE stream_id = 's-1'`); err != nil {
		t.Fatal(err)
	}
	for _, k := range []eventstore.Head{{Version: 3}, {Version: 3, Token: res.Token}} {
		if _, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{Known: k}, func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
			seen = snap
			return eventstore.Decision{}, nil
		}); err != nil {
			t.Fatal(err)
		}
		if seen.Current || seen.State == nil || seen.Token != 0 {
			t.Fatalf("Known %+v of a head without a token: %+v", k, seen)
		}
	}

	// Append and a group commit draw tokens too; a head rewritten at its
	// version (a state, no event) also.
	if _, err := appendTx(t, s, "s-1", 3, ev("B", 4)); err != nil {
		t.Fatal(err)
	}
	if tok := headToken(t, s, "s-1"); tok == 0 || tokens[tok] {
		t.Fatalf("Append left token %d", tok)
	}
	tokens[headToken(t, s, "s-1")] = true
	out := s.UpdateMany(ctx, []eventstore.Command{
		{Stream: "s-1", Decide: seeing(&seen, true)},
		{Stream: "s-2", Decide: decideAppend("A")},
	})
	for i, o := range out {
		stream := fmt.Sprintf("s-%d", i+1)
		if o.Err != nil || o.Result.Token == 0 || tokens[o.Result.Token] || o.Result.Token != headToken(t, s, stream) {
			t.Fatalf("group commit's %s: %+v, streams holds %d", stream, o, headToken(t, s, stream))
		}
		tokens[o.Result.Token] = true
	}
	res, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{}, func(_ context.Context, _ pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		return eventstore.Decision{State: []byte(`{"count":5}`)}, nil
	})
	if err != nil || res.StreamVersion != 5 || res.Token == 0 || tokens[res.Token] || res.Token != headToken(t, s, "s-1") {
		t.Fatalf("a state without events: %+v (%v), streams holds %d", res, err, headToken(t, s, "s-1"))
	}
	// A command that writes no head reports the head's token.
	before := res.Token
	if res, err = s.Update(ctx, "s-1", eventstore.UpdateOptions{}, func(context.Context, pgx.Tx, eventstore.Snapshot) (eventstore.Decision, error) {
		return eventstore.Decision{}, nil
	}); err != nil || res.Token != before || headToken(t, s, "s-1") != before {
		t.Fatalf("no write: %+v (%v)", res, err)
	}
}

// A decision without a state moves the head and its token but leaves the
// saved state and its version as they are, bytes or a jsonb state an older
// binary wrote; the next command gets that state and the events since as
// its tail, and a decision with a state writes it again.
func TestDecisionWithoutStateKeepsTheSavedState(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	for _, group := range []bool{false, true} {
		stream := fmt.Sprintf("g-%v", group)
		update := func(d eventstore.DecideFunc) {
			t.Helper()
			if !group {
				if _, err := s.Update(ctx, stream, eventstore.UpdateOptions{}, d); err != nil {
					t.Fatal(err)
				}
				return
			}
			// two commands, so that the group path (transactGroup) runs
			out := s.UpdateMany(ctx, []eventstore.Command{{Stream: stream, Decide: d}, {Stream: stream + "-mate", Decide: decideAppend("M")}})
			if out[0].Err != nil || out[1].Err != nil {
				t.Fatal(out[0].Err, out[1].Err)
			}
		}
		var seen eventstore.Snapshot
		update(decideAppend("A"))   // version 1, state 1
		update(seeing(&seen, true)) // version 2, state 1
		update(seeing(&seen, true)) // version 3, state 1
		if string(seen.State) != `{"count":1}` || seen.StateVersion != 1 || len(seen.Tail) != 1 || seen.Tail[0].StreamVersion != 2 {
			t.Fatalf("group %v: after a decision without state: %+v", group, seen)
		}
		snap, err := s.Snapshot(ctx, stream)
		if err != nil || snap.Version != 3 || snap.StateVersion != 1 || string(snap.State) != `{"count":1}` || len(snap.Tail) != 2 {
			t.Fatalf("group %v: Snapshot %+v (%v)", group, snap, err)
		}
		// An older binary's jsonb state stays too.
		if _, err := s.Pool().Exec(ctx, `UPDATE streams SET state = '{"count": 3}', state_version = 3 WHERE stream_id = $1`, stream); err != nil {
			t.Fatal(err)
		}
		update(seeing(&seen, true)) // version 4, state 3 (jsonb)
		update(seeing(&seen, false))
		if string(seen.State) != `{"count": 3}` || seen.StateVersion != 3 || len(seen.Tail) != 1 {
			t.Fatalf("group %v: the jsonb state: %+v, %s", group, seen, seen.State)
		}
		snap, err = s.Snapshot(ctx, stream)
		if err != nil || snap.Version != 5 || snap.StateVersion != 5 || string(snap.State) != `{"count":5}` || len(snap.Tail) != 0 {
			t.Fatalf("group %v: after a state: %+v (%v)", group, snap, err)
		}
	}
}

// A group commit whose commands name their heads (Known) and leave their
// states behind reads no tail: it is two round trips (the locks, the
// writes and COMMIT), as when the states are current; commands that name
// no head are given their states and read their tails (a statement each).
func TestCurrentHeadsReadNoTail(t *testing.T) {
	ctx := context.Background()
	s, trips := tracedStore(t)
	var heads [3]eventstore.Head
	var seen [3]eventstore.Snapshot
	for round := range 4 {
		trips.batches.Store(0)
		trips.queries.Store(0)
		cmds := make([]eventstore.Command, 3)
		for i := range cmds {
			known := heads[i]
			if round == 3 {
				known = eventstore.Head{}
			}
			cmds[i] = eventstore.Command{Stream: fmt.Sprintf("c-%d", i), Opts: eventstore.UpdateOptions{Known: known}, Decide: seeing(&seen[i], round > 0)}
		}
		for i, o := range s.UpdateMany(ctx, cmds) {
			if o.Err != nil {
				t.Fatal(o.Err)
			}
			switch {
			case round == 0 && (seen[i].Current || seen[i].Version != 0):
				t.Fatalf("round 0, command %d: %+v", i, seen[i])
			case round > 0 && round < 3 && (!seen[i].Current || seen[i].Tail != nil || seen[i].State != nil || seen[i].StateVersion != 1):
				t.Fatalf("round %d, command %d: %+v", round, i, seen[i])
			case round == 3 && (seen[i].Current || string(seen[i].State) != `{"count":1}` || len(seen[i].Tail) != 2):
				t.Fatalf("round 3 (no Known), command %d: %+v", i, seen[i])
			}
			heads[i] = eventstore.Head{Version: o.Result.StreamVersion, Token: o.Result.Token}
		}
		b, q := trips.batches.Load(), trips.queries.Load()
		if round == 1 || round == 2 {
			if b != 2 || q != 0 {
				t.Errorf("round %d (Current heads): %d batches and %d statements, want 2 and 0", round, b, q)
			}
		}
		if round == 3 && q != 3 {
			t.Errorf("round 3 (no Known): %d statements, want a tail read for each of 3 commands", q)
		}
	}
}
