package eventstore

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"
)

// MetadataAt is the metadata of the event at position: for example the
// request that a replayed idempotent answer was first given to. A position
// that holds no event has empty metadata.
func (s *Store) MetadataAt(ctx context.Context, position int64) (Metadata, error) {
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT metadata FROM events WHERE global_position = $1`, position).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return Metadata{}, nil
	}
	if err != nil {
		return Metadata{}, err
	}
	var md Metadata
	err = json.Unmarshal(raw, &md)
	return md, err
}
