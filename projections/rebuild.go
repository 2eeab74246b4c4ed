package projections

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

const rebuildSuffix = "__rebuild"

// Rebuild replays projection name from position 0 into fresh tables while the
// live tables keep serving, then swaps the fresh tables in: the swap waits for
// in-flight appliers, catches up what arrived meanwhile and renames, all in
// one short transaction.
func (r *Runner) Rebuild(ctx context.Context, name string, batch int) error {
	p, err := r.Projection(name)
	if err != nil {
		return err
	}
	if batch <= 0 {
		batch = 1000
	}
	cp := name + rebuildSuffix
	fresh := Tables{}
	for _, tbl := range p.Tables() {
		fresh[tbl] = tbl + rebuildSuffix
	}
	if err := r.prepareFresh(ctx, p, cp, fresh); err != nil {
		return err
	}

	after := int64(0)
	for {
		recs, err := r.store.ReadAll(ctx, after, batch)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			break
		}
		streams := map[string]bool{}
		for _, rec := range recs {
			streams[rec.StreamID] = true
		}
		tx, err := r.pool.Begin(ctx)
		if err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		for s := range streams {
			if _, err := r.catchUpTx(ctx, tx, p, cp, fresh, s); err != nil {
				_ = tx.Rollback(ctx)
				return err
			}
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("commit rebuild batch: %w", err)
		}
		after = recs[len(recs)-1].GlobalPosition
	}
	r.log.Info("rebuild replayed, swapping", "projection", name, "position", after)
	return r.swap(ctx, p, cp, fresh)
}

func (r *Runner) prepareFresh(ctx context.Context, p Projection, cp string, fresh Tables) error {
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	for _, tbl := range p.Tables() {
		q := fresh.Q(tbl)
		if _, err := tx.Exec(ctx, `DROP TABLE IF EXISTS `+q); err != nil {
			return fmt.Errorf("drop %s: %w", q, err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE `+q+` (LIKE `+pgx.Identifier{tbl}.Sanitize()+` INCLUDING ALL)`); err != nil {
			return fmt.Errorf("create %s: %w", q, err)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM projection_checkpoints WHERE projection = $1`, cp); err != nil {
		return fmt.Errorf("reset checkpoints %s: %w", cp, err)
	}
	return tx.Commit(ctx)
}

func (r *Runner) swap(ctx context.Context, p Projection, cp string, fresh Tables) error {
	name := p.Name()
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(name)); err != nil {
		return fmt.Errorf("lock projection %s: %w", name, err)
	}
	streams, err := r.behindStreams(ctx, tx, cp)
	if err != nil {
		return err
	}
	for _, s := range streams {
		if _, err := r.catchUpTx(ctx, tx, p, cp, fresh, s); err != nil {
			return err
		}
	}
	for _, tbl := range p.Tables() {
		live := pgx.Identifier{tbl}.Sanitize()
		old := pgx.Identifier{tbl + "__old"}.Sanitize()
		stmts := []string{
			`LOCK TABLE ` + live + ` IN ACCESS EXCLUSIVE MODE`,
			`ALTER TABLE ` + live + ` RENAME TO ` + old,
			`ALTER TABLE ` + fresh.Q(tbl) + ` RENAME TO ` + live,
			`DROP TABLE ` + old,
		}
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("swap %s: %s: %w", tbl, s, err)
			}
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM projection_checkpoints WHERE projection = $1`, name); err != nil {
		return fmt.Errorf("drop old checkpoints: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE projection_checkpoints SET projection = $1 WHERE projection = $2`, name, cp); err != nil {
		return fmt.Errorf("promote checkpoints: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit swap of %s: %w", name, err)
	}
	return nil
}
