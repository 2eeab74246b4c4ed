package eventstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// queueWakeUp queues on batch the one outbox message of a commit that
// appended the events moved, the first of them firstID: watermill-sql's own insert into its table for Topic
// (its schema adapter writes the statement), in the append's transaction,
// so publication is never a dual write. The message only says how far the
// log has moved (LogMoved); projections read the events themselves, so one
// message per transaction, not per event, is all they need.
func queueWakeUp(ctx context.Context, batch *pgx.Batch, moved LogMoved, firstID uuid.UUID) error {
	payload, err := json.Marshal(moved)
	if err != nil {
		return fmt.Errorf("encode wake-up: %w", err)
	}
	// The first event's id names the message: unique, and the same on a
	// forwarder's retry (JetStream's duplicate window keys on it).
	m := message.NewMessage(firstID.String(), payload)
	m.SetContext(ctx)
	q, err := wsql.DefaultPostgreSQLSchema{}.InsertQuery(wsql.InsertQueryParams{Topic: Topic, Msgs: message.Messages{m}})
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	batch.Queue(q.Query, q.Args...)
	return nil
}

// NewSubscriber reads the outbox of appended events (topic Topic) as
// consumerGroup, polling every pollInterval when idle. Each consumer group
// gets every event, in commit order, at least once.
func NewSubscriber(pool *pgxpool.Pool, consumerGroup string, pollInterval time.Duration, logger watermill.LoggerAdapter) (message.Subscriber, error) {
	return wsql.NewSubscriber(wsql.BeginnerFromPgx(pool), wsql.SubscriberConfig{
		ConsumerGroup:  consumerGroup,
		PollInterval:   pollInterval,
		SchemaAdapter:  wsql.DefaultPostgreSQLSchema{},
		OffsetsAdapter: wsql.DefaultPostgreSQLOffsetsAdapter{},
	}, logger)
}
