package projections

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/a2e-automation/app/eventstore"
)

// WakeUpGroup is the watermill consumer group through which projector
// processes receive the log's wake-up messages (one per committed
// transaction); each message wakes every projection of the process that
// receives it. Never renamed: a new name reads the whole outbox again.
//
// Releases before it had one group per projection ("projection_" + name)
// reading one message per event; their offsets rows are left behind and
// ignored (see docs/event-store.md, "Upgrading to one wake-up per commit").
const WakeUpGroup = "projector_wakeup"

// RunOptions tune the projector.
type RunOptions struct {
	// PollInterval is how often an idle projection looks at the log without
	// a message, and how often an idle subscriber looks for messages.
	PollInterval time.Duration
	LagInterval  time.Duration // how often lag is measured
	BatchSize    int           // events a batch transaction reads near the head; default BatchSize
	MaxBatchSize int           // events a batch transaction reads at most, far behind; default MaxBatchSize
	Metrics      *Metrics      // optional
	Logger       watermill.LoggerAdapter

	// Subscriber returns the subscriber of a projection's consumer group on
	// eventstore.Topic; nil: a watermill-sql subscriber on the runner's pool.
	Subscriber func(consumerGroup string) (message.Subscriber, error)
}

// Run projects the event log until ctx ends. One applier applies the log to
// every projection from their watermarks, in log order, in batches that read
// the log once for all of them (ApplyBatch), from BatchSize events a
// transaction growing to MaxBatchSize while behind: a backlog is worked off
// oldest first, whatever account it belongs to, and a restart continues from
// the watermarks. The watermill messages (one consumer group per projection,
// on either transport) only wake the applier early; without them it still looks at
// the log every PollInterval. So neither a long transaction elsewhere on
// the server (which holds watermill-sql's delivery back) nor a restored
// dump (whose stored watermill offsets are another cluster's transaction
// ids) stops the projection: both only cost the wake-up, never progress.
// Lag is measured from the first second.
func (r *Projector) Run(ctx context.Context, opts RunOptions) error {
	if opts.PollInterval == 0 {
		opts.PollInterval = 100 * time.Millisecond
	}
	if opts.LagInterval == 0 {
		opts.LagInterval = 5 * time.Second
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = BatchSize
	}
	if opts.MaxBatchSize <= 0 {
		opts.MaxBatchSize = max(MaxBatchSize, opts.BatchSize)
	}
	if opts.Logger == nil {
		opts.Logger = watermill.NopLogger{}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { r.measureLag(ctx, opts) })
	// One applier for every projection: a batch reads the log once for all
	// of them (ApplyBatch), so the wake-up message wakes it.
	applier := make(chan struct{}, 1)
	wg.Go(func() { r.applyLoop(ctx, applier, opts) })

	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: 10 * time.Second}, opts.Logger)
	if err != nil {
		return fmt.Errorf("router: %w", err)
	}
	subscribe := opts.Subscriber
	if subscribe == nil {
		subscribe = func(group string) (message.Subscriber, error) {
			return eventstore.NewSubscriber(r.pool, group, opts.PollInterval, opts.Logger)
		}
	}
	sub, err := subscribe(WakeUpGroup)
	if err != nil {
		return fmt.Errorf("subscriber: %w", err)
	}
	router.AddConsumerHandler("WakeProjections", eventstore.Topic, sub, nudge(applier))
	if err := router.Run(ctx); err != nil {
		return fmt.Errorf("projector: %w", err)
	}
	return nil
}

// nudge is the wake-up message's handler: it wakes the applier and
// acknowledges; the applier reads the log itself, so the payload is not
// even decoded.
func nudge(wake chan struct{}) message.NoPublishHandlerFunc {
	return func(*message.Message) error {
		select {
		case wake <- struct{}{}:
		default:
		}
		return nil
	}
}

// applyLoop applies the projections' batches until ctx ends: at once while
// batches come full, growing from BatchSize to MaxBatchSize (batchSizer),
// then on a wake-up or every PollInterval. A failure (the database away) is
// logged and retried after a back-off of 1 s doubling to 30 s.
func (r *Projector) applyLoop(ctx context.Context, wake <-chan struct{}, opts RunOptions) {
	backoff := time.Second
	size := newBatchSizer(opts.BatchSize, opts.MaxBatchSize)
	ahead := newAheadReader(size)
	defer ahead.wait()
	for ctx.Err() == nil {
		n, applied, err := r.applyLive(ctx, size.size(), nil, ahead)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			r.log.ErrorContext(ctx, "projection batch failed; retrying", "projections", r.order, "err", err, "retryIn", backoff.String())
			if opts.Metrics != nil {
				for _, name := range r.order {
					opts.Metrics.failures.WithLabelValues(name).Inc()
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 30*time.Second)
			continue
		}
		backoff = time.Second
		if opts.Metrics != nil && n > 0 {
			for _, name := range applied {
				opts.Metrics.applied.WithLabelValues(name).Add(float64(n))
			}
		}
		if size.grow(n > 0 && (n >= size.size() || ahead.more())) {
			continue
		}
		select {
		case <-ctx.Done():
		case <-wake:
		case <-time.After(opts.PollInterval):
		}
	}
}

func (r *Projector) measureLag(ctx context.Context, opts RunOptions) {
	if opts.Metrics == nil {
		return
	}
	t := time.NewTicker(opts.LagInterval)
	defer t.Stop()
	for {
		for _, name := range r.order {
			l, err := r.Lag(ctx, name)
			if err != nil {
				if ctx.Err() == nil {
					r.log.Warn("measure lag", "projection", name, "err", err)
				}
				continue
			}
			opts.Metrics.lagEvents.WithLabelValues(name).Set(float64(l.Events))
			opts.Metrics.lagSeconds.WithLabelValues(name).Set(l.Seconds)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
