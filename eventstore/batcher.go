package eventstore

import (
	"context"
	"errors"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"time"
)

// BatcherOptions size a Batcher.
type BatcherOptions struct {
	// Lanes is how many queues of commands there are, each forming its own
	// batches; a stream always goes through the same lane. Default 1: one
	// queue whose batches grow with the load.
	Lanes int
	// InFlight is how many group commits a lane may have running at once
	// (each on its own connection): while one waits for its COMMIT to be
	// flushed, the next batch is already formed and sent, and PostgreSQL
	// flushes their commits together. A stream is in at most one running
	// batch; its later commands wait for that batch, so they keep their
	// order. Default 1: one at a time.
	InFlight int
	// PipelineMin is the fewest commands a batch needs to start while
	// another of its lane is running; smaller ones wait for that batch, or
	// for company. Each batch costs its round trips and commit whatever its
	// size, so on a machine short of CPU, many small batches in flight cost
	// more than they save (bench-load: 16 clients, 4 in flight without a
	// minimum, batches of 2.8 and 1.5 times the CPU per spend). Default
	// MaxBatch/8.
	PipelineMin int
	// MaxBatch bounds the commands of one transaction. Default 64.
	MaxBatch int
	// Linger is how long a lane that found a single command waits for
	// company before committing it alone; zero commits at once (commands
	// that arrive meanwhile form the next batch). Default 0.
	Linger time.Duration
	// Timeout bounds one group commit. It also ends at the latest
	// Timeout/4 after the earliest deadline among its callers: a caller
	// whose batch started waits for its outcome past its own deadline (an
	// answer is never lost to a disconnect), but not for long, so a stalled
	// database answers every caller soon after its deadline, not a whole
	// Timeout later. Default 10 s.
	Timeout time.Duration
}

// Batcher coalesces concurrent commands on different streams into group
// commits (UpdateMany): a lane takes what is queued, up to MaxBatch, runs
// it as one transaction and answers each caller; what arrives meanwhile is
// the next batch. Two commands on one stream never share a batch and run in
// the order they were queued.
type Batcher struct {
	store  *Store
	opts   BatcherOptions
	lanes  []chan *queued
	wg     sync.WaitGroup
	stop   chan struct{}
	exited chan struct{} // closed once every lane has stopped
	once   sync.Once

	batches, commands atomic.Int64
	nanos             atomic.Int64 // time spent in group commits, summed
}

// queued is one caller's command waiting in a lane.
type queued struct {
	cmd   Command      // cmd.Context is the caller's
	state atomic.Int32 // queuedWaiting, queuedTaken or queuedAbandoned
	done  chan Outcome
}

const (
	queuedWaiting int32 = iota
	queuedTaken
	queuedAbandoned
)

// ErrBatcherClosed is returned for a command submitted after Close.
var ErrBatcherClosed = errors.New("event store batcher closed")

// NewBatcher starts a Batcher on s; Close stops it.
func (s *Store) NewBatcher(opts BatcherOptions) *Batcher {
	if opts.Lanes <= 0 {
		opts.Lanes = 1
	}
	if opts.InFlight <= 0 {
		opts.InFlight = 1
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 64
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.PipelineMin <= 0 {
		opts.PipelineMin = max(1, opts.MaxBatch/8)
	}
	b := &Batcher{store: s, opts: opts, stop: make(chan struct{}), exited: make(chan struct{})}
	for range opts.Lanes {
		lane := make(chan *queued, 4*opts.MaxBatch)
		b.lanes = append(b.lanes, lane)
		b.wg.Add(1)
		go b.run(lane)
	}
	return b
}

// Update is Store.Update through a group commit. A caller whose context
// ends while its command waits gets the context's error and the command is
// dropped; once its batch has started, the caller waits for the outcome
// (bounded by Timeout, and by Timeout/4 past the earliest deadline of its
// batch's callers), so an answer is never lost to a disconnect.
func (b *Batcher) Update(ctx context.Context, stream string, opts UpdateOptions, decide DecideFunc) (Result, error) {
	q := &queued{cmd: Command{Stream: stream, Opts: opts, Decide: decide, Context: ctx}, done: make(chan Outcome, 1)}
	select {
	case <-b.stop:
		return Result{}, ErrBatcherClosed
	default:
	}
	select {
	case b.lanes[b.laneOf(stream)] <- q:
	case <-ctx.Done():
		return Result{}, ctx.Err()
	case <-b.stop:
		return Result{}, ErrBatcherClosed
	}
	select {
	case o := <-q.done:
		return o.Result, o.Err
	case <-ctx.Done():
		if q.state.CompareAndSwap(queuedWaiting, queuedAbandoned) {
			return Result{}, ctx.Err()
		}
	case <-b.exited:
		// Queued as the lanes stopped, after their last drain.
		if q.state.CompareAndSwap(queuedWaiting, queuedAbandoned) {
			return Result{}, ErrBatcherClosed
		}
	}
	o := <-q.done // already in a running batch
	return o.Result, o.Err
}

// Stats are the group commits run and the commands they carried.
func (b *Batcher) Stats() (batches, commands int64) { return b.batches.Load(), b.commands.Load() }

// Busy is the time the group commits took, summed (each from its first
// statement to its answer; with a synchronous standby, that includes the
// standby's acknowledgement): divided by the batches, the mean latency.
func (b *Batcher) Busy() time.Duration { return time.Duration(b.nanos.Load()) }

// Close stops taking commands and waits for the running batches; commands
// still queued are answered ErrBatcherClosed.
func (b *Batcher) Close() {
	b.once.Do(func() {
		close(b.stop)
		b.wg.Wait()
		close(b.exited)
	})
	<-b.exited
}

func (b *Batcher) laneOf(stream string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(stream))
	return int(h.Sum32() % uint32(len(b.lanes)))
}

// run is one lane: it takes a batch of commands on distinct streams that
// no running batch holds, in queue order (a command whose stream is
// already taken waits, with the ones after it on that stream, for a later
// batch), and commits it, with up to InFlight batches running at once.
func (b *Batcher) run(lane chan *queued) {
	defer b.wg.Done()
	var held []*queued          // taken from the lane, waiting for a later batch
	busy := map[string]bool{}   // streams of the running batches
	done := make(chan []string) // a running batch's streams, once it has answered
	running := 0
	// The lane's committers, one per batch in flight, live as long as the
	// lane: a goroutine per batch grew its stack from the minimum through
	// pgx's calls on every batch (runtime.copystack, 2.5 % of bin/api's CPU
	// at 16 clients in bench-load); these keep theirs between batches. work
	// never holds more than InFlight batches, so a send never blocks.
	work := make(chan []*queued, b.opts.InFlight)
	defer close(work)
	for range b.opts.InFlight {
		b.wg.Go(func() { // the lane's own Add is not yet Done: Close waits for these too
			for batch := range work {
				streams := make([]string, len(batch))
				for i, q := range batch {
					streams[i] = q.cmd.Stream
				}
				b.commit(batch)
				done <- streams
			}
		})
	}
	finished := func(streams []string) {
		running--
		for _, st := range streams {
			delete(busy, st)
		}
	}
	for {
		// Beside a running batch, fewer commands waiting than PipelineMin
		// cannot make a batch worth starting: wait without forming one (take
		// makes a map and a slice each time).
		if running < b.opts.InFlight && (running == 0 || len(held)+len(lane) >= b.opts.PipelineMin) {
			batch, rest := b.take(held, lane, busy)
			held = rest
			if running > 0 && len(batch) < b.opts.PipelineMin {
				// Too small to run beside another: wait for it or for more.
				// Each stream's commands stay in queue order: a batch's
				// command came before any of its stream's in rest.
				held = append(batch, rest...)
				batch = nil
			}
			if len(batch) > 0 {
				for _, q := range batch {
					busy[q.cmd.Stream] = true
				}
				running++
				work <- batch
				continue
			}
		}
		// Nothing to start: wait for a batch to end or a command to come.
		var arrivals chan *queued
		if running < b.opts.InFlight {
			arrivals = lane
		}
		select {
		case streams := <-done:
			finished(streams)
		case q := <-arrivals:
			held = append(held, q)
		case <-b.stop:
			for running > 0 {
				finished(<-done)
			}
			b.drain(lane, held)
			return
		}
	}
}

// take forms a batch from held, then from the lane, leaving out streams
// that busy (the running batches) or the batch already hold; it returns
// the batch and what must wait for a later one.
//
// The lane calls it after every arrival and every batch's end, so it is
// sized by what is waiting, not by MaxBatch: a map for 64 streams per
// arriving spend was 2 % of bin/api's CPU in bench-load at 16 clients.
func (b *Batcher) take(held []*queued, lane chan *queued, busy map[string]bool) ([]*queued, []*queued) {
	waiting := len(held) + len(lane)
	if waiting == 0 {
		return nil, nil
	}
	batch := make([]*queued, 0, min(waiting, b.opts.MaxBatch))
	streams := make(map[string]bool, min(waiting, b.opts.MaxBatch))
	var rest []*queued
	add := func(q *queued) {
		if q.state.Load() == queuedAbandoned {
			return
		}
		if len(batch) >= b.opts.MaxBatch || streams[q.cmd.Stream] || busy[q.cmd.Stream] {
			rest = append(rest, q)
			streams[q.cmd.Stream] = true // its later commands wait behind it
			return
		}
		streams[q.cmd.Stream] = true
		batch = append(batch, q)
	}
	for _, q := range held {
		add(q)
	}
	var linger <-chan time.Time
	for len(batch) < b.opts.MaxBatch {
		select {
		case q := <-lane:
			add(q)
			continue
		default:
		}
		if len(batch) != 1 || b.opts.Linger <= 0 || linger != nil {
			break
		}
		linger = time.After(b.opts.Linger)
		select {
		case q := <-lane:
			add(q)
			continue
		case <-linger:
		}
		break
	}
	return batch, rest
}

// commit runs batch as one group commit and answers each caller.
func (b *Batcher) commit(batch []*queued) {
	cmds := make([]Command, 0, len(batch))
	taken := make([]*queued, 0, len(batch))
	for _, q := range batch {
		if q.state.CompareAndSwap(queuedWaiting, queuedTaken) {
			cmds = append(cmds, q.cmd)
			taken = append(taken, q)
		}
	}
	if len(cmds) == 0 {
		return
	}
	// Not any one caller's cancellation or values: the batch is
	// everybody's. Each decider sees its own caller's values
	// (Command.Context).
	ctx, cancel := context.WithDeadline(context.Background(), b.deadline(taken))
	defer cancel()
	start := time.Now()
	outs := b.store.UpdateMany(ctx, cmds)
	b.nanos.Add(int64(time.Since(start)))
	b.batches.Add(1)
	b.commands.Add(int64(len(cmds)))
	for i, q := range taken {
		q.done <- outs[i]
	}
}

// deadline is when the group commit of taken must end: Timeout from now,
// or Timeout/4 past the earliest of its callers' deadlines if that is
// sooner.
func (b *Batcher) deadline(taken []*queued) time.Time {
	end := time.Now().Add(b.opts.Timeout)
	for _, q := range taken {
		if q.cmd.Context == nil {
			continue
		}
		if d, ok := q.cmd.Context.Deadline(); ok && d.Add(b.opts.Timeout/4).Before(end) {
			end = d.Add(b.opts.Timeout / 4)
		}
	}
	return end
}

// drain answers every command still queued after Close.
func (b *Batcher) drain(lane chan *queued, held []*queued) {
	for _, q := range held {
		if q.state.CompareAndSwap(queuedWaiting, queuedTaken) {
			q.done <- Outcome{Err: ErrBatcherClosed}
		}
	}
	for {
		select {
		case q := <-lane:
			if q.state.CompareAndSwap(queuedWaiting, queuedTaken) {
				q.done <- Outcome{Err: ErrBatcherClosed}
			}
		default:
			return
		}
	}
}
