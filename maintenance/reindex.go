package maintenance

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	zsql "github.com/zaxy/zaxy/sql"
)

// Defaults of Config.
const (
	// DefaultMinBytes: an index smaller than 1 MiB is left alone, whatever its waste (what
	// it would give back is less than a rebuild's waits are worth).
	DefaultMinBytes = 1 << 20
	// DefaultMinWastePercent: an index is rebuilt when at least 25 % of it is estimated to be
	// waste (a fresh build's leaves are 90 % full; 25 % waste is about 67 % leaf density).
	DefaultMinWastePercent = 25
)

// Config says which indexes Reindex rebuilds.
type Config struct {
	// MinBytes is the least size of an index worth rebuilding. Zero means DefaultMinBytes.
	MinBytes int64
	// MinWastePercent is the least share of an index's size, in percent, estimated to be
	// waste (its size less the size a fresh build would have) for it to be rebuilt. Zero means
	// DefaultMinWastePercent.
	MinWastePercent int
	// Logger receives what was rebuilt and dropped. Defaults to discarding.
	Logger *slog.Logger
}

// WithDefaults returns a copy with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.MinBytes == 0 {
		c.MinBytes = DefaultMinBytes
	}
	if c.MinWastePercent == 0 {
		c.MinWastePercent = DefaultMinWastePercent
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Validate refuses thresholds that mean nothing: a negative size, or a waste share outside
// 1-99 %.
func (c Config) Validate() error {
	if c.MinBytes < 0 {
		return fmt.Errorf("reindex config: MinBytes must not be negative, got %d", c.MinBytes)
	}
	if c.MinWastePercent < 1 || c.MinWastePercent > 99 {
		return fmt.Errorf("reindex config: MinWastePercent must be between 1 and 99, got %d", c.MinWastePercent)
	}
	return nil
}

// Index is one btree index Reindex considered.
type Index struct {
	// Name and Table are the index's and its table's names (schema public).
	Name, Table string
	// Bytes is the index's size.
	Bytes int64
	// Estimated says whether IdealBytes and WasteBytes are known: false before the table's
	// first ANALYZE, or for a column whose statistics the role cannot read.
	Estimated bool
	// IdealBytes is the estimated size of a fresh build; WasteBytes is Bytes less that, at
	// least zero.
	IdealBytes, WasteBytes int64
	// Rebuild says whether the index meets the thresholds (large enough, wasteful enough).
	Rebuild bool
	// NeedsAnalyze says the index is large enough but its table has no statistics to
	// estimate it from: Reindex analyzes the table first.
	NeedsAnalyze bool
}

// WastePercent is WasteBytes as a share of Bytes, in percent.
func (i Index) WastePercent() float64 {
	if i.Bytes == 0 {
		return 0
	}
	return 100 * float64(i.WasteBytes) / float64(i.Bytes)
}

// Rebuilt is one index Reindex rebuilt.
type Rebuilt struct {
	Index
	// After is the index's size once rebuilt.
	After int64
	// Took is how long the rebuild took.
	Took time.Duration
}

// Dropped is one invalid index a failed concurrent rebuild had left, which Reindex dropped.
type Dropped struct {
	Name  string
	Bytes int64
}

// Report is what one Reindex did.
type Report struct {
	// Indexes are every index considered, largest first; with a dry run, the whole answer.
	Indexes []Index
	// Rebuilt are the indexes rebuilt, in order.
	Rebuilt []Rebuilt
	// Dropped are the leftovers of failed rebuilds dropped.
	Dropped []Dropped
	// Busy says another Reindex held the lock, so this one did nothing.
	Busy bool
}

// GivenBack is the bytes the rebuilt indexes and the dropped leftovers gave back.
func (r Report) GivenBack() int64 {
	var n int64
	for _, b := range r.Rebuilt {
		n += b.Bytes - b.After
	}
	for _, d := range r.Dropped {
		n += d.Bytes
	}
	return n
}

// lockKey is the session advisory lock one Reindex at a time holds, across processes.
const lockKey = "zaxy.reindex"

// Survey lists the btree indexes of the public tables the role may MAINTAIN (River's tables
// excluded), largest first, with their estimated waste and whether cfg's thresholds select
// them. It reads only the catalogs and pg_stats.
func Survey(ctx context.Context, db *pgxpool.Pool, cfg Config) ([]Index, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	rows, err := db.Query(ctx, zsql.Query("maintenance/indexes"))
	if err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	defer rows.Close()
	var out []Index
	for rows.Next() {
		var (
			oid, tablePages, tableBytes int64
			ix                          Index
			tableTuples                 float64
			partial                     bool
			fillfactor                  int
			typlens                     []int32
			typaligns                   []string
			widths                      []*int32
		)
		if err := rows.Scan(&oid, &ix.Name, &ix.Table, &ix.Bytes, &tableTuples, &tablePages, &tableBytes, &partial,
			&ix.NeedsAnalyze, &fillfactor, &typlens, &typaligns, &widths); err != nil {
			return nil, fmt.Errorf("list indexes: %w", err)
		}
		cols := make([]keyColumn, len(typlens))
		for i := range cols {
			cols[i] = keyColumn{typlen: int(typlens[i]), typalign: typaligns[i], width: widths[i]}
		}
		// The table's rows now, as the planner reckons them: the estimate's rows per page
		// times the pages the table has now. A partial index's share of them is unknown.
		tuples := -1.0
		if !partial && tableTuples >= 0 && tablePages > 0 {
			tuples = tableTuples / float64(tablePages) * float64(tableBytes/pageBytes)
		}
		if ideal, ok := idealBytes(tuples, fillfactor, cols); ok {
			ix.Estimated, ix.IdealBytes = true, ideal
			ix.WasteBytes = max(0, ix.Bytes-ideal)
			ix.Rebuild = ix.Bytes >= cfg.MinBytes && ix.WastePercent() >= float64(cfg.MinWastePercent)
		}
		ix.NeedsAnalyze = ix.NeedsAnalyze && !partial && ix.Bytes >= cfg.MinBytes
		out = append(out, ix)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list indexes: %w", err)
	}
	return out, nil
}

// Reindex drops what failed concurrent rebuilds left behind, then rebuilds every index Survey
// selects, one at a time, with REINDEX INDEX CONCURRENTLY: reads and writes go on, each
// rebuild waits for the transactions older than it, and the table's ShareUpdateExclusiveLock
// keeps VACUUM and DDL out while it runs. One Reindex runs at a time (a session advisory lock);
// another finds it Busy. A rebuild that fails, or is cancelled with ctx, has its invalid
// leftover dropped before Reindex returns; the others are still tried unless ctx is done.
func Reindex(ctx context.Context, db *pgxpool.Pool, cfg Config) (Report, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return Report{}, err
	}
	conn, err := db.Acquire(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("reindex: %w", err)
	}
	defer conn.Release()
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`, lockKey).Scan(&locked); err != nil {
		return Report{}, fmt.Errorf("reindex: take lock: %w", err)
	}
	if !locked {
		cfg.Logger.InfoContext(ctx, "reindex: another run holds the lock")
		return Report{Busy: true}, nil
	}
	defer func() {
		// A connection a cancelled statement broke has lost the lock with its session.
		unlock, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(unlock, `SELECT pg_advisory_unlock(hashtextextended($1, 0))`, lockKey); err != nil {
			conn.Conn().Close(unlock) //nolint:errcheck // closing ends the session and its lock
		}
	}()

	pid := conn.Conn().PgConn().PID()
	var report Report
	var errs []error
	// A leftover that cannot be dropped now (its table busy past the lock timeout) does not
	// hold up the rebuilds; the next run tries it again.
	if report.Dropped, err = dropFailed(ctx, db, cfg.Logger); err != nil {
		errs = append(errs, err)
		cfg.Logger.WarnContext(ctx, "reindex: dropping a failed rebuild's leftover failed", "error", err)
	}
	if report.Indexes, err = Survey(ctx, db, cfg); err != nil {
		return report, errors.Join(append(errs, err)...)
	}
	if analyzed, err := analyze(ctx, conn.Conn(), report.Indexes, cfg.Logger); err != nil {
		return report, errors.Join(append(errs, err)...)
	} else if analyzed {
		if report.Indexes, err = Survey(ctx, db, cfg); err != nil {
			return report, errors.Join(append(errs, err)...)
		}
	}
	for _, ix := range report.Indexes {
		if !ix.Rebuild {
			continue
		}
		if ctx.Err() != nil {
			errs = append(errs, fmt.Errorf("reindex: %w", ctx.Err()))
			break
		}
		r, err := rebuild(ctx, conn.Conn(), ix)
		if err != nil {
			errs = append(errs, err)
			cfg.Logger.WarnContext(ctx, "reindex: rebuild failed", "index", ix.Name, "table", ix.Table, "error", err)
			// Drop the invalid copy it left, even when ctx is cancelled, once the rebuild's
			// session let go of its locks (a cancelled statement still aborts after the
			// client stops waiting for it).
			cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			derr := waitReleased(cleanup, db, pid)
			var dropped []Dropped
			if derr == nil {
				dropped, derr = dropUntilGone(cleanup, db, cfg.Logger)
			}
			cancel()
			report.Dropped = append(report.Dropped, dropped...)
			if derr != nil {
				errs = append(errs, derr)
			}
			continue
		}
		report.Rebuilt = append(report.Rebuilt, r)
		cfg.Logger.InfoContext(ctx, "reindex: rebuilt index", "index", ix.Name, "table", ix.Table,
			"bytes_before", ix.Bytes, "bytes_after", r.After, "bytes_given_back", ix.Bytes-r.After,
			"estimated_waste_bytes", ix.WasteBytes, "took", r.Took)
	}
	if len(report.Rebuilt) > 0 || len(report.Dropped) > 0 {
		cfg.Logger.InfoContext(ctx, "reindex: done", "rebuilt", len(report.Rebuilt), "dropped", len(report.Dropped),
			"bytes_given_back", report.GivenBack())
	}
	return report, errors.Join(errs...)
}

// analyze runs ANALYZE on the tables of the indexes large enough to matter that have no
// statistics yet (autovacuum has not reached a newly loaded table), so that they can be
// estimated; it reports whether it analyzed any.
func analyze(ctx context.Context, conn *pgx.Conn, indexes []Index, logger *slog.Logger) (bool, error) {
	done := map[string]bool{}
	for _, ix := range indexes {
		if !ix.NeedsAnalyze || done[ix.Table] {
			continue
		}
		done[ix.Table] = true
		if _, err := conn.Exec(ctx, "ANALYZE "+pgx.Identifier{"public", ix.Table}.Sanitize()); err != nil {
			return false, fmt.Errorf("analyze %s: %w", ix.Table, err)
		}
		logger.InfoContext(ctx, "reindex: analyzed a table without statistics", "table", ix.Table)
	}
	return len(done) > 0, nil
}

// rebuild runs REINDEX INDEX CONCURRENTLY on one index and measures it afterwards. The name
// is an identifier quoted in: a statement cannot take it as a parameter.
func rebuild(ctx context.Context, conn *pgx.Conn, ix Index) (Rebuilt, error) {
	start := time.Now()
	name := pgx.Identifier{"public", ix.Name}.Sanitize()
	if _, err := conn.Exec(ctx, "REINDEX INDEX CONCURRENTLY "+name); err != nil {
		return Rebuilt{}, fmt.Errorf("reindex %s: %w", ix.Name, err)
	}
	r := Rebuilt{Index: ix, Took: time.Since(start)}
	if err := conn.QueryRow(ctx, `SELECT pg_relation_size(to_regclass($1))`, name).Scan(&r.After); err != nil {
		return Rebuilt{}, fmt.Errorf("measure %s: %w", ix.Name, err)
	}
	return r, nil
}

// waitReleased waits until the session pid holds no lock on a relation.
func waitReleased(ctx context.Context, db *pgxpool.Pool, pid uint32) error {
	for {
		var held bool
		err := db.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_locks WHERE pid = $1 AND locktype = 'relation')`, int32(pid)).Scan(&held)
		if err != nil {
			return fmt.Errorf("wait for the rebuild's locks: %w", err)
		}
		if !held {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the rebuild's locks: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// dropUntilGone drops the leftovers of failed rebuilds once the rebuild that failed has let go
// of its locks: another session may still hold one on a leftover for a moment (autovacuum
// working on the table opens its indexes, the invalid copy too), so it tries again until none
// is left or ctx ends.
func dropUntilGone(ctx context.Context, db *pgxpool.Pool, logger *slog.Logger) ([]Dropped, error) {
	var out []Dropped
	for {
		dropped, busy, err := dropFailedCounting(ctx, db, logger)
		out = append(out, dropped...)
		if err != nil || busy == 0 {
			return out, err
		}
		select {
		case <-ctx.Done():
			return out, fmt.Errorf("drop failed rebuilds: %d still locked: %w", busy, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// dropFailed drops the invalid indexes failed concurrent rebuilds left (sql
// maintenance/failed_rebuilds) through zaxy_drop_failed_rebuild, which leaves one alone
// while a session holds a lock on it (a rebuild still running).
func dropFailed(ctx context.Context, db *pgxpool.Pool, logger *slog.Logger) ([]Dropped, error) {
	dropped, _, err := dropFailedCounting(ctx, db, logger)
	return dropped, err
}

// dropFailedCounting is dropFailed that also counts the leftovers it left because a session
// held a lock on them.
func dropFailedCounting(ctx context.Context, db *pgxpool.Pool, logger *slog.Logger) ([]Dropped, int, error) {
	rows, err := db.Query(ctx, zsql.Query("maintenance/failed_rebuilds"))
	if err != nil {
		return nil, 0, fmt.Errorf("list failed rebuilds: %w", err)
	}
	type leftover struct {
		oid   int64
		name  string
		bytes int64
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (leftover, error) {
		var l leftover
		return l, r.Scan(&l.oid, &l.name, &l.bytes)
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list failed rebuilds: %w", err)
	}
	var out []Dropped
	busy := 0
	for _, l := range found {
		var dropped bool
		if err := db.QueryRow(ctx, `SELECT zaxy_drop_failed_rebuild($1::int8::oid::regclass)`, l.oid).Scan(&dropped); err != nil {
			return out, busy, fmt.Errorf("drop failed rebuild %s: %w", l.name, err)
		}
		if !dropped {
			busy++
			continue
		}
		out = append(out, Dropped{Name: l.name, Bytes: l.bytes})
		logger.InfoContext(ctx, "reindex: dropped the leftover of a failed rebuild", "index", l.name, "bytes", l.bytes)
	}
	return out, busy, nil
}
