// Package dbmetrics exports what the database says about its own survival
// (issue 32): synchronous standbys, replication lag, the timeline (it moves
// at each promotion), WAL archiving and the age of the last good backup. Read
// on each scrape of /metrics, with a short timeout, from the primary the
// pool is connected to; the alert rules are deploy/prometheus/alerts.yml.
//
// pg_stat_replication's lag columns need a superuser or pg_monitor (the
// product's role in production: GRANT pg_monitor TO ...); without them the
// standbys are still counted.
package dbmetrics

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// Timeout bounds one scrape's queries.
const Timeout = 2 * time.Second

var (
	descSync = prometheus.NewDesc("db_synchronous_standbys",
		"Standbys the primary waits for at commit (pg_stat_replication sync_state sync or quorum).", nil, nil)
	descStandbys = prometheus.NewDesc("db_standbys",
		"Standbys streaming from the primary.", nil, nil)
	descLagBytes = prometheus.NewDesc("db_replication_lag_bytes",
		"WAL the slowest standby has not replayed yet, in bytes.", nil, nil)
	descLagSeconds = prometheus.NewDesc("db_replication_lag_seconds",
		"The slowest standby's replay lag (0 when the primary is idle).", nil, nil)
	descTimeline = prometheus.NewDesc("db_timeline_id",
		"The server's timeline: it grows by one at each promotion (a failover or switchover).", nil, nil)
	descArchiveFailed = prometheus.NewDesc("db_wal_archive_failed_total",
		"WAL segments whose archiving failed (pg_stat_archiver).", nil, nil)
	descArchiveLast = prometheus.NewDesc("db_wal_archive_last_success_timestamp_seconds",
		"When a WAL segment was last archived (0: never since the statistics were reset).", nil, nil)
	descBackupLast = prometheus.NewDesc("db_backup_last_success_timestamp_seconds",
		"When scripts/ha-backup.sh last recorded a good pgBackRest backup (0: never).", nil, nil)
	descUp = prometheus.NewDesc("db_metrics_up",
		"1 when the database answered this scrape's queries.", nil, nil)
)

// Collector reads the metrics from pool at each scrape.
type Collector struct {
	pool *pgxpool.Pool
	log  *slog.Logger
}

// New returns a Collector on pool.
func New(pool *pgxpool.Pool, log *slog.Logger) *Collector { return &Collector{pool: pool, log: log} }

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descSync, descStandbys, descLagBytes, descLagSeconds, descTimeline,
		descArchiveFailed, descArchiveLast, descBackupLast, descUp} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	var sync, standbys, lagBytes, lagSeconds, timeline, failed, lastArchived, lastBackup float64
	err := c.pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FILTER (WHERE sync_state IN ('sync', 'quorum')) FROM pg_stat_replication),
			(SELECT count(*) FROM pg_stat_replication),
			(SELECT coalesce(max(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)), 0) FROM pg_stat_replication),
			(SELECT coalesce(extract(epoch FROM max(replay_lag)), 0) FROM pg_stat_replication),
			(SELECT timeline_id FROM pg_control_checkpoint()),
			(SELECT failed_count FROM pg_stat_archiver),
			(SELECT coalesce(extract(epoch FROM last_archived_time), 0) FROM pg_stat_archiver),
			(SELECT coalesce(extract(epoch FROM max(finished_at)), 0) FROM backup_runs)`).
		Scan(&sync, &standbys, &lagBytes, &lagSeconds, &timeline, &failed, &lastArchived, &lastBackup)
	if err != nil {
		c.log.Warn("database metrics", "err", err)
		ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(descSync, prometheus.GaugeValue, sync)
	ch <- prometheus.MustNewConstMetric(descStandbys, prometheus.GaugeValue, standbys)
	ch <- prometheus.MustNewConstMetric(descLagBytes, prometheus.GaugeValue, lagBytes)
	ch <- prometheus.MustNewConstMetric(descLagSeconds, prometheus.GaugeValue, lagSeconds)
	ch <- prometheus.MustNewConstMetric(descTimeline, prometheus.GaugeValue, timeline)
	ch <- prometheus.MustNewConstMetric(descArchiveFailed, prometheus.CounterValue, failed)
	ch <- prometheus.MustNewConstMetric(descArchiveLast, prometheus.GaugeValue, lastArchived)
	ch <- prometheus.MustNewConstMetric(descBackupLast, prometheus.GaugeValue, lastBackup)
}
