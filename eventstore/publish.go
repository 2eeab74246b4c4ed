package eventstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// queueOutbox queues on batch the outbox rows of records: watermill-sql's
// own insert into its table for Topic (its schema adapter writes the
// statement), in the append's transaction, so publication is never a dual
// write.
func queueOutbox(ctx context.Context, batch *pgx.Batch, records []Record) error {
	msgs := make(message.Messages, len(records))
	for i, r := range records {
		payload, err := json.Marshal(Notification{StreamID: r.StreamID, StreamVersion: r.StreamVersion, GlobalPosition: r.GlobalPosition, EventType: r.Type})
		if err != nil {
			return fmt.Errorf("encode notification: %w", err)
		}
		m := message.NewMessage(r.EventID.String(), payload)
		m.SetContext(ctx)
		m.Metadata.Set("correlation_id", r.Metadata.CorrelationID)
		m.Metadata.Set("request_id", r.Metadata.RequestID)
		msgs[i] = m
	}
	q, err := wsql.DefaultPostgreSQLSchema{}.InsertQuery(wsql.InsertQueryParams{Topic: Topic, Msgs: msgs})
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
