package projections

import (
	"context"
	"sync"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// aheadParts is how many connections a read ahead reads its events on at
// once, each a consecutive range of positions. Reading the log is where a
// catch-up spends most of its time, and most of that is PostgreSQL writing
// each event's jsonb out as text; under load a part waits for a core as
// much as it runs, so parts read at once take less time than one after the
// other.
const aheadParts = 2

// aheadReader is the live loop's read of the log ahead of its batches:
// while a batch that found more events than its limit (a backlog) is
// applied, the events after it are read and decoded on other connections
// of the pool, and the next batch takes them instead of reading them itself
// when it starts where that read did (its lowest watermark is the last
// batch's last position: no other worker applied a batch in between) with
// the same limit. Far behind, reading and decoding the log then overlaps
// applying the batch before, rather than following it.
//
// The records are the log's, read below a horizon as the batch's own read
// would be (eventstore.Horizon, ReadRangeDataIn), a contiguous run of the
// log after the position the batch starts from, and immutable: the batch
// still reads the checkpoints in its transaction, under the applier locks,
// and applies only what they have not passed; a read ahead that ends before
// the batch's own read would (a lower horizon) only makes the batch shorter.
// So ordering, exactly-once application and the checkpoints are as with the
// batch's own read.
type aheadReader struct {
	size    *batchSizer // the loop's: a full batch doubles the next limit
	pending *aheadRead
	took    bool // the last batch's events came from a read ahead that found more after them
	used    int  // batches that took their events from a read ahead (tests)
	wg      sync.WaitGroup
}

// aheadRead is one read ahead: up to limit events after position after.
type aheadRead struct {
	after int64
	limit int
	done  chan struct{}
	recs  []eventstore.Record
	evs   []domain.Event // decoded; nil where decoding failed (the batch decodes it again and reports)
	more  bool           // the limit cut the read: the log holds more events below the horizon
	err   error
}

func newAheadReader(size *batchSizer) *aheadReader { return &aheadReader{size: size} }

// start reads, in the background, the events of the batch after one that
// ended at position after and found more events than it took.
func (a *aheadReader) start(ctx context.Context, r *Projector, after int64) {
	if a == nil {
		return
	}
	p := &aheadRead{after: after, limit: a.size.afterFull(), done: make(chan struct{})}
	a.pending = p
	a.wg.Go(func() {
		defer close(p.done)
		p.recs, p.evs, p.more, p.err = r.readAhead(ctx, p.after, p.limit)
	})
}

// readAhead reads up to limit events after position after, below the
// horizon, in aheadParts consecutive ranges of positions at once (the last
// range cut by what the others leave of limit), and decodes them. more says
// whether the limit cut the read.
func (r *Projector) readAhead(ctx context.Context, after int64, limit int) ([]eventstore.Record, []domain.Event, bool, error) {
	horizon, err := r.store.Horizon(ctx, r.pool)
	if err != nil || horizon <= after {
		return nil, nil, false, err
	}
	per := max(limit/aheadParts, 1)
	type part struct {
		recs  []eventstore.Record
		evs   []domain.Event
		limit int
		err   error
	}
	parts := make([]part, aheadParts)
	var wg sync.WaitGroup
	for i := range parts {
		from, through, n := after+int64(i*per), min(after+int64((i+1)*per), horizon), per
		if i == len(parts)-1 {
			through, n = horizon, limit-i*per
		}
		parts[i].limit = n
		if through <= from || n <= 0 {
			continue
		}
		wg.Go(func() {
			p := &parts[i]
			if p.recs, p.err = r.store.ReadRangeDataIn(ctx, r.pool, from, through, n); p.err != nil {
				return
			}
			p.evs = make([]domain.Event, len(p.recs))
			for j, rec := range p.recs {
				if ev, err := domain.DecodeEvent(rec.Type, rec.SchemaVersion, rec.Data); err == nil {
					p.evs[j] = ev
				}
			}
		})
	}
	wg.Wait()
	var recs []eventstore.Record
	var evs []domain.Event
	for _, p := range parts {
		if p.err != nil {
			return nil, nil, false, p.err
		}
		recs, evs = append(recs, p.recs...), append(evs, p.evs...)
	}
	last := parts[len(parts)-1]
	return recs, evs, len(last.recs) == last.limit, nil
}

// take returns the events read ahead for a batch of limit events after
// position after, waiting for the read, and whether the log holds more
// after them; nil when there is no such read (or it failed, or found
// nothing): the batch reads the log itself.
func (a *aheadReader) take(after int64, limit int) ([]eventstore.Record, []domain.Event, bool) {
	if a == nil {
		return nil, nil, false
	}
	a.took = false
	p := a.pending
	a.pending = nil
	if p == nil || p.after != after || p.limit != limit {
		return nil, nil, false // none, or another worker applied a batch in between: a read left to finish
	}
	<-p.done
	if p.err != nil || len(p.recs) == 0 {
		return nil, nil, false
	}
	a.took, a.used = p.more, a.used+1
	return p.recs, p.evs, p.more
}

// more reports whether the last batch took its events from a read ahead
// that found more after them (a batch cut short of its limit by a gap in
// the positions is still a backlog's).
func (a *aheadReader) more() bool { return a != nil && a.took }

// wait waits for the reads still running.
func (a *aheadReader) wait() {
	if a != nil {
		a.wg.Wait()
	}
}
