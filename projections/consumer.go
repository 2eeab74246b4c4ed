package projections

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/a2e-automation/app/eventstore"
)

// ConsumerGroup is the watermill consumer group of projection name. Names
// never change: a renamed handler would be a new subscriber replaying all.
func ConsumerGroup(name string) string { return "projection_" + name }

// Metrics are the projector's Prometheus series.
type Metrics struct {
	lagEvents  *prometheus.GaugeVec
	lagSeconds *prometheus.GaugeVec
	applied    *prometheus.CounterVec
}

// NewMetrics registers the projector's series on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		lagEvents: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "projection_lag_events", Help: "Events appended but not yet applied by the projection.",
		}, []string{"projection"}),
		lagSeconds: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "projection_lag_seconds", Help: "Age of the oldest event the projection has not applied yet.",
		}, []string{"projection"}),
		applied: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "projection_events_applied_total", Help: "Events applied by the projection.",
		}, []string{"projection"}),
	}
	reg.MustRegister(m.lagEvents, m.lagSeconds, m.applied)
	return m
}

// RunOptions tune the projector.
type RunOptions struct {
	PollInterval time.Duration // how often an idle subscriber looks for messages
	LagInterval  time.Duration // how often lag is measured
	Metrics      *Metrics      // optional
	Logger       watermill.LoggerAdapter

	// Subscriber returns the subscriber of a projection's consumer group on
	// eventstore.Topic; nil: a watermill-sql subscriber on the runner's pool.
	Subscriber func(consumerGroup string) (message.Subscriber, error)
}

// Run consumes the event topic until ctx ends: one watermill handler (and
// consumer group) per projection, a sweep at start-up, and lag measurement.
func (r *Runner) Run(ctx context.Context, opts RunOptions) error {
	if opts.PollInterval == 0 {
		opts.PollInterval = 100 * time.Millisecond
	}
	if opts.LagInterval == 0 {
		opts.LagInterval = 5 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = watermill.NopLogger{}
	}
	// Lag is measured from the first second, the start-up sweep included.
	lagCtx, stopLag := context.WithCancel(ctx)
	defer stopLag()
	go r.measureLag(lagCtx, opts)
	if err := r.sweepUntilDone(ctx); err != nil {
		return err
	}
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: 10 * time.Second}, opts.Logger)
	if err != nil {
		return fmt.Errorf("router: %w", err)
	}
	router.AddMiddleware(middleware.Retry{
		MaxRetries: 5, InitialInterval: 50 * time.Millisecond, MaxInterval: 2 * time.Second, Multiplier: 2,
		Logger: opts.Logger,
	}.Middleware)
	subscribe := opts.Subscriber
	if subscribe == nil {
		subscribe = func(group string) (message.Subscriber, error) {
			return eventstore.NewSubscriber(r.pool, group, opts.PollInterval, opts.Logger)
		}
	}
	for _, name := range r.order {
		sub, err := subscribe(ConsumerGroup(name))
		if err != nil {
			return fmt.Errorf("subscriber %s: %w", name, err)
		}
		router.AddConsumerHandler("ProjectionOn"+name, eventstore.Topic, sub, r.handler(name, opts.Metrics))
	}
	if err := router.Run(ctx); err != nil {
		return fmt.Errorf("projector: %w", err)
	}
	return nil
}

// sweepUntilDone runs the start-up sweep, retrying a failure (the database
// away or restarting) after a back-off of 1 s doubling to 30 s, until it
// succeeds or ctx ends.
func (r *Runner) sweepUntilDone(ctx context.Context) error {
	wait := time.Second
	for {
		err := r.Sweep(ctx)
		if err == nil || ctx.Err() != nil {
			return ctx.Err()
		}
		r.log.WarnContext(ctx, "start-up sweep failed; retrying", "err", err, "retryIn", wait.String())
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

func (r *Runner) handler(name string, m *Metrics) message.NoPublishHandlerFunc {
	return func(msg *message.Message) error {
		var n eventstore.Notification
		if err := json.Unmarshal(msg.Payload, &n); err != nil {
			// A payload we cannot read will never become readable: log and drop it.
			r.log.Error("undecodable projector message", "uuid", msg.UUID, "err", err)
			return nil
		}
		applied, err := r.CatchUp(msg.Context(), name, n.StreamID)
		if err != nil {
			return err
		}
		if m != nil {
			m.applied.WithLabelValues(name).Add(float64(applied))
		}
		return nil
	}
}

func (r *Runner) measureLag(ctx context.Context, opts RunOptions) {
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
