// Package eventbus chooses how "the log moved" wake-ups (one per committed
// transaction that appended events) reach the projectors. Nothing outside
// this package knows which transport is in use.
//
//   - sql (default): projectors read watermill-sql's table for the topic
//     eventstore.Topic directly, on the same PostgreSQL.
//   - nats: a forwarder moves the rows of that table to a NATS JetStream
//     stream (subject eventstore.Topic), and projectors consume the stream
//     through durable queue consumers, so projector workers on several
//     machines share the work.
//
// The append path never changes: each transaction that appends publishes one
// message into the SQL table in its own transaction (no dual write). With
// nats, the forwarder only carries those rows on, at least once; a duplicate
// is harmless because a message only wakes the projections, which read the
// events table themselves.
package eventbus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/projections"
)

// Transport kinds.
const (
	KindSQL  = "sql"
	KindNATS = "nats"
)

// ForwarderConsumerGroup is the watermill-sql consumer group of the
// SQL-to-NATS forwarder. Never renamed: a new name would forward the whole
// table again.
const ForwarderConsumerGroup = "forwarder_nats"

// pollInterval is how often an idle watermill-sql subscriber looks for rows.
const pollInterval = 100 * time.Millisecond

// Config selects the transport.
type Config struct {
	Kind    string // KindSQL (default when empty) or KindNATS
	NATSURL string // the NATS server(s) when Kind is KindNATS
	// StreamMaxAge and StreamMaxBytes bound the JetStream stream (nats):
	// older or excess messages are dropped. Projectors lose nothing by it:
	// a message only says a stream moved, and the start-up sweep catches
	// up from the event store. Zero: no limit.
	StreamMaxAge   time.Duration
	StreamMaxBytes int64
}

// OutboxGroups are the consumer groups that read the outbox table with
// transport kind: the projectors' (sql), or the forwarder (nats). Its rows
// may go once the group has passed them.
func OutboxGroups(kind string) []string {
	if kind == KindNATS {
		return []string{ForwarderConsumerGroup}
	}
	return []string{projections.WakeUpGroup}
}

// EnsureStreamLimits creates the JetStream stream of eventstore.Topic with
// the configured limits, or sets them on the existing stream.
func (t *Transport) EnsureStreamLimits() error {
	nc, err := nats.Connect(t.cfg.NATSURL, natsOptions()...)
	if err != nil {
		return fmt.Errorf("connect to NATS: %w", err)
	}
	defer nc.Close()
	js, err := nc.JetStream()
	if err != nil {
		return fmt.Errorf("JetStream: %w", err)
	}
	info, err := js.StreamInfo(eventstore.Topic)
	switch {
	case errors.Is(err, nats.ErrStreamNotFound):
		_, err = js.AddStream(&nats.StreamConfig{Name: eventstore.Topic, Subjects: []string{eventstore.Topic},
			MaxAge: t.cfg.StreamMaxAge, MaxBytes: bytesLimit(t.cfg.StreamMaxBytes)})
	case err == nil:
		cfg := info.Config
		cfg.MaxAge, cfg.MaxBytes = t.cfg.StreamMaxAge, bytesLimit(t.cfg.StreamMaxBytes)
		_, err = js.UpdateStream(&cfg)
	}
	if err != nil {
		return fmt.Errorf("JetStream stream %s limits: %w", eventstore.Topic, err)
	}
	return nil
}

// bytesLimit is JetStream's "no limit" (-1) for 0.
func bytesLimit(n int64) int64 {
	if n <= 0 {
		return -1
	}
	return n
}

// Transport builds the projectors' subscribers and runs what the chosen
// transport needs beside them.
type Transport struct {
	cfg    Config
	pool   *pgxpool.Pool
	logger watermill.LoggerAdapter
}

// New checks cfg and returns its transport over pool. logger may be nil.
func New(cfg Config, pool *pgxpool.Pool, logger watermill.LoggerAdapter) (*Transport, error) {
	if cfg.Kind == "" {
		cfg.Kind = KindSQL
	}
	switch cfg.Kind {
	case KindSQL:
	case KindNATS:
		if cfg.NATSURL == "" {
			return nil, errors.New("transport nats: no NATS URL")
		}
	default:
		return nil, fmt.Errorf("transport: unknown kind %q (want %q or %q)", cfg.Kind, KindSQL, KindNATS)
	}
	if logger == nil {
		logger = watermill.NopLogger{}
	}
	return &Transport{cfg: cfg, pool: pool, logger: logger}, nil
}

// Subscriber returns the subscriber of consumerGroup on the topic
// eventstore.Topic: a watermill-sql subscriber (sql), or a JetStream durable
// queue consumer named consumerGroup (nats), which every worker of the group
// shares so each message goes to one of them.
func (t *Transport) Subscriber(consumerGroup string) (message.Subscriber, error) {
	if t.cfg.Kind == KindSQL {
		return t.sqlSubscriber(consumerGroup)
	}
	return wnats.NewSubscriber(wnats.SubscriberConfig{
		URL:              t.cfg.NATSURL,
		QueueGroupPrefix: consumerGroup,
		AckWaitTimeout:   30 * time.Second,
		CloseTimeout:     10 * time.Second,
		NatsOptions:      natsOptions(),
		JetStream: wnats.JetStreamConfig{
			AutoProvision:    true,
			DurablePrefix:    consumerGroup,
			SubscribeOptions: []nats.SubOpt{nats.DeliverAll(), nats.AckExplicit(), nats.ManualAck()},
		},
	}, t.logger)
}

func (t *Transport) sqlSubscriber(consumerGroup string) (message.Subscriber, error) {
	return eventstore.NewSubscriber(t.pool, consumerGroup, pollInterval, t.logger)
}

// RunProjector runs r with this transport's subscribers until ctx ends, and,
// for nats, the forwarder beside it; either failing stops both.
func (t *Transport) RunProjector(ctx context.Context, r *projections.Projector, opts projections.RunOptions) error {
	opts.Subscriber = t.Subscriber
	if t.cfg.Kind == KindSQL {
		return r.Run(ctx, opts)
	}
	if err := t.EnsureStreamLimits(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fwd := make(chan error, 1)
	go func() {
		err := t.RunForwarder(ctx)
		cancel()
		fwd <- err
	}()
	runErr := r.Run(ctx, opts)
	cancel()
	return errors.Join(runErr, <-fwd)
}

// Supervise runs the projector with RunProjector until ctx ends. A run that
// fails (the database restarting, the broker away) is logged and started
// again after a back-off of 1 s doubling to 30 s, so the projector, alone or
// inside the API process, outlives its neighbours' outages.
func (t *Transport) Supervise(ctx context.Context, r *projections.Projector, opts projections.RunOptions, log *slog.Logger) {
	if opts.Logger == nil {
		opts.Logger = watermill.NewSlogLogger(log)
	}
	wait := time.Second
	for {
		start := time.Now()
		err := t.RunProjector(ctx, r, opts)
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > time.Minute {
			wait = time.Second // it ran a while: a new outage starts the back-off afresh
		}
		log.ErrorContext(ctx, "projector stopped; restarting", "err", err, "retryIn", wait.String())
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, 30*time.Second)
	}
}

// RunForwarder moves the SQL table of eventstore.Topic to the JetStream
// stream of the same name until ctx ends (consumer group
// ForwarderConsumerGroup). The message's UUID is its JetStream message id,
// so a row forwarded twice within the stream's duplicate window is stored
// once. It is an error for the sql transport.
func (t *Transport) RunForwarder(ctx context.Context) error {
	if t.cfg.Kind != KindNATS {
		return fmt.Errorf("transport %s has no forwarder", t.cfg.Kind)
	}
	sub, err := t.sqlSubscriber(ForwarderConsumerGroup)
	if err != nil {
		return fmt.Errorf("forwarder subscriber: %w", err)
	}
	pub, err := wnats.NewPublisher(wnats.PublisherConfig{
		URL:         t.cfg.NATSURL,
		NatsOptions: natsOptions(),
		JetStream:   wnats.JetStreamConfig{AutoProvision: true, TrackMsgId: true},
	}, t.logger)
	if err != nil {
		_ = sub.Close()
		return fmt.Errorf("forwarder publisher: %w", err)
	}
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: 10 * time.Second}, t.logger)
	if err != nil {
		_ = sub.Close()
		_ = pub.Close()
		return fmt.Errorf("forwarder router: %w", err)
	}
	router.AddMiddleware(middleware.Retry{
		MaxRetries: 5, InitialInterval: 50 * time.Millisecond, MaxInterval: 2 * time.Second, Multiplier: 2,
		Logger: t.logger,
	}.Middleware)
	router.AddHandler("ForwardToNATS", eventstore.Topic, sub, eventstore.Topic, pub,
		func(msg *message.Message) ([]*message.Message, error) {
			out := message.NewMessage(msg.UUID, msg.Payload)
			for k, v := range msg.Metadata {
				out.Metadata.Set(k, v)
			}
			return []*message.Message{out}, nil
		})
	if err := router.Run(ctx); err != nil {
		return fmt.Errorf("forwarder: %w", err)
	}
	return nil
}

// natsOptions keep a connection trying through a server restart.
func natsOptions() []nats.Option {
	return []nats.Option{nats.Name("a2e-projector"), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second)}
}
