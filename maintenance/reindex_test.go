package maintenance_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/maintenance"
	"github.com/zaxy/zaxy/testcontainers"
)

// waitFor polls cond until it holds; the deadline only catches a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func scalar[T any](t *testing.T, db *pgxpool.Pool, q string, args ...any) T {
	t.Helper()
	var v T
	require.NoError(t, db.QueryRow(context.Background(), q, args...).Scan(&v))
	return v
}

func exec(t *testing.T, db *pgxpool.Pool, q string, args ...any) {
	t.Helper()
	_, err := db.Exec(context.Background(), q, args...)
	require.NoError(t, err)
}

// load leaves speaker_names_pkey about a third full (rows inserted in random order, then
// every other one deleted and vacuumed) and gate_keys_pkey dense (keys inserted in ascending
// order split the rightmost page), both tables analyzed.
func load(t *testing.T, app, admin *pgxpool.Pool) {
	exec(t, app, `INSERT INTO speaker_names (space_id, name_key, events)
		SELECT 'space-with-a-long-text-id', 'speaker-' || lpad(g::text, 8, '0'), 1
		FROM generate_series(1, 30000) AS g ORDER BY random()`)
	exec(t, app, `DELETE FROM speaker_names WHERE right(name_key, 1) IN ('1', '3', '5', '7', '9')`)
	exec(t, app, `INSERT INTO gate_keys (space_key, key, seq) SELECT 1, g, g FROM generate_series(1, 60000) AS g`)
	exec(t, admin, `VACUUM ANALYZE speaker_names, gate_keys`)
}

func find(t *testing.T, indexes []maintenance.Index, name string) maintenance.Index {
	t.Helper()
	for _, ix := range indexes {
		if ix.Name == name {
			return ix
		}
	}
	t.Fatalf("index %s not surveyed", name)
	return maintenance.Index{}
}

// progressPhase is the phase of the concurrent rebuild running on table, "" when none runs.
const progressPhase = `SELECT coalesce((SELECT phase FROM pg_stat_progress_create_index
	WHERE datname = current_database() AND relid = $1::regclass LIMIT 1), '')`

func TestReindex_RebuildsHalfEmptyIndexLeavesDenseOneAndLosesNoWrite(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	app, admin := db.AppPool(t), db.AdminPool(t)
	exec(t, admin, `CREATE EXTENSION IF NOT EXISTS amcheck`)
	load(t, app, admin)
	cfg := maintenance.Config{MinBytes: 1}

	survey, err := maintenance.Survey(ctx, app, cfg)
	require.NoError(t, err)
	sparse, dense := find(t, survey, "speaker_names_pkey"), find(t, survey, "gate_keys_pkey")
	require.True(t, sparse.Estimated && sparse.Rebuild, "%+v", sparse)
	require.Greater(t, sparse.WastePercent(), 40.0, "%+v", sparse)
	require.True(t, dense.Estimated, "%+v", dense)
	require.False(t, dense.Rebuild, "%+v", dense)
	require.Less(t, dense.WastePercent(), 10.0, "%+v", dense)
	denseNode := scalar[int64](t, admin, `SELECT relfilenode::int8 FROM pg_class WHERE relname = 'gate_keys_pkey'`)
	rows := scalar[int64](t, admin, `SELECT count(*) FROM speaker_names`)

	// A writer holds the table open: the rebuild waits for it, and other writes go on meanwhile.
	writer, err := app.Begin(ctx)
	require.NoError(t, err)
	defer writer.Rollback(ctx) //nolint:errcheck
	_, err = writer.Exec(ctx, `INSERT INTO speaker_names VALUES ('space-with-a-long-text-id', 'written-before', 1)`)
	require.NoError(t, err)
	type result struct {
		report maintenance.Report
		err    error
	}
	done := make(chan result, 1)
	go func() {
		r, err := maintenance.Reindex(ctx, app, cfg)
		done <- result{r, err}
	}()
	waitFor(t, "the rebuild waiting for the writer", func() bool {
		return scalar[string](t, admin, progressPhase, "speaker_names") == "waiting for writers before build"
	})
	exec(t, app, `INSERT INTO speaker_names SELECT 'space-with-a-long-text-id', 'written-during-' || g, 1 FROM generate_series(1, 500) AS g`)
	require.NoError(t, writer.Commit(ctx))
	res := <-done
	require.NoError(t, res.err)
	exec(t, app, `INSERT INTO speaker_names VALUES ('space-with-a-long-text-id', 'written-after', 1)`)

	var rebuilt *maintenance.Rebuilt
	for i := range res.report.Rebuilt {
		require.NotEqual(t, "gate_keys_pkey", res.report.Rebuilt[i].Name, "a dense index is left alone")
		if res.report.Rebuilt[i].Name == "speaker_names_pkey" {
			rebuilt = &res.report.Rebuilt[i]
		}
	}
	require.NotNil(t, rebuilt, "%+v", res.report)
	require.Less(t, rebuilt.After, sparse.Bytes*3/4, "the rebuilt index is smaller")
	require.Equal(t, denseNode, scalar[int64](t, admin, `SELECT relfilenode::int8 FROM pg_class WHERE relname = 'gate_keys_pkey'`))
	require.Positive(t, res.report.GivenBack())

	// Same contents: every heap row is in the rebuilt index, and an index scan finds them all.
	exec(t, admin, `SELECT bt_index_check('speaker_names_pkey', true)`)
	require.Equal(t, rows+502, scalar[int64](t, admin, `SELECT count(*) FROM speaker_names`))
	conn, err := admin.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(ctx, `SET enable_seqscan = off`)
	require.NoError(t, err)
	var byIndex int64
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM speaker_names WHERE space_id = 'space-with-a-long-text-id'`).Scan(&byIndex))
	require.Equal(t, rows+502, byIndex)
	_, err = conn.Exec(ctx, `RESET enable_seqscan`)
	require.NoError(t, err)
	require.Zero(t, scalar[int64](t, admin, `SELECT count(*) FROM pg_index WHERE NOT indisvalid`))

	// Rebuilt, it is no longer selected.
	survey, err = maintenance.Survey(ctx, app, cfg)
	require.NoError(t, err)
	require.False(t, find(t, survey, "speaker_names_pkey").Rebuild)
}

func TestReindex_DropsTheInvalidCopyOfARebuildItCancelled(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	app, admin := db.AppPool(t), db.AdminPool(t)
	load(t, app, admin)

	// An old snapshot, holding no lock on the table: the rebuild builds its copy, then waits.
	old, err := admin.Begin(ctx)
	require.NoError(t, err)
	defer old.Rollback(ctx) //nolint:errcheck
	_, err = old.Exec(ctx, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`)
	require.NoError(t, err)
	_, err = old.Exec(ctx, `SELECT count(*) FROM spaces`)
	require.NoError(t, err)

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		report maintenance.Report
		err    error
	}
	done := make(chan result, 1)
	go func() {
		r, err := maintenance.Reindex(runCtx, app, maintenance.Config{MinBytes: 1})
		done <- result{r, err}
	}()
	waitFor(t, "the rebuild waiting for the old snapshot", func() bool {
		return scalar[string](t, admin, progressPhase, "speaker_names") == "waiting for old snapshots"
	})
	require.Equal(t, int64(1), scalar[int64](t, admin, `SELECT count(*) FROM pg_class WHERE relname LIKE 'speaker_names_pkey_ccnew%'`))
	// Another session holds a lock on the copy for a while after the rebuild is cancelled, as
	// autovacuum does when it opens the table's indexes: the run drops the copy once it is free.
	holder, err := admin.Begin(ctx)
	require.NoError(t, err)
	defer holder.Rollback(ctx) //nolint:errcheck
	_, err = holder.Exec(ctx, `SELECT pg_relation_size('speaker_names_pkey_ccnew')`)
	require.NoError(t, err)
	cancel()
	waitFor(t, "the cancelled rebuild to end", func() bool {
		return scalar[int64](t, admin, `SELECT count(*) FROM pg_stat_progress_create_index WHERE datname = current_database()`) == 0
	})
	require.NoError(t, holder.Rollback(ctx))
	res := <-done
	require.ErrorIs(t, res.err, context.Canceled)
	require.NoError(t, old.Rollback(ctx))

	require.Len(t, res.report.Dropped, 1, "%+v", res.report)
	require.Equal(t, "speaker_names_pkey_ccnew", res.report.Dropped[0].Name)
	require.Zero(t, scalar[int64](t, admin, `SELECT count(*) FROM pg_index WHERE NOT indisvalid`), "no invalid index is left behind")
	require.Equal(t, int64(1), scalar[int64](t, admin, `SELECT count(*) FROM pg_class WHERE relname = 'speaker_names_pkey'`))

	// The next run rebuilds it.
	report, err := maintenance.Reindex(ctx, app, maintenance.Config{MinBytes: 1})
	require.NoError(t, err)
	var names []string
	for _, r := range report.Rebuilt {
		names = append(names, r.Name)
	}
	require.Contains(t, names, "speaker_names_pkey")
}

func TestConfig_RejectsBadThresholds(t *testing.T) {
	for _, c := range []maintenance.Config{{MinBytes: -1}, {MinWastePercent: -5}, {MinWastePercent: 100}} {
		_, err := maintenance.Survey(context.Background(), nil, c)
		require.Error(t, err, "%+v", c)
	}
	require.NoError(t, maintenance.Config{}.WithDefaults().Validate())
}

func TestReindex_LeavesTheCopyOfARebuildStillRunning(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	app, admin := db.AppPool(t), db.AdminPool(t)
	load(t, app, admin)

	old, err := admin.Begin(ctx)
	require.NoError(t, err)
	defer old.Rollback(ctx) //nolint:errcheck
	_, err = old.Exec(ctx, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`)
	require.NoError(t, err)
	_, err = old.Exec(ctx, `SELECT count(*) FROM spaces`)
	require.NoError(t, err)
	// Another session's rebuild (an operator's) builds its copy and waits for the old snapshot.
	done := make(chan error, 1)
	go func() {
		_, err := admin.Exec(ctx, `REINDEX INDEX CONCURRENTLY speaker_names_pkey`)
		done <- err
	}()
	waitFor(t, "the other rebuild waiting for the old snapshot", func() bool {
		return scalar[string](t, admin, progressPhase, "speaker_names") == "waiting for old snapshots"
	})

	report, err := maintenance.Reindex(ctx, app, maintenance.Config{MinBytes: 1 << 40})
	require.NoError(t, err)
	require.Empty(t, report.Dropped, "a copy a rebuild still works on is not a leftover")
	require.NoError(t, old.Rollback(ctx))
	require.NoError(t, <-done)
	require.Zero(t, scalar[int64](t, admin, `SELECT count(*) FROM pg_index WHERE NOT indisvalid`))
}

// zaxy_drop_failed_rebuild runs with its owner's rights, so it refuses everything but the
// invalid leftover of a concurrent rebuild on a table the caller may maintain: a valid index,
// an invalid index of another name, and a leftover on a table the caller may not maintain all
// stay, whoever asks as the service's role.
func TestDropFailedRebuild_RefusesAllButALeftoverTheCallerMayMaintain(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	app, admin := db.AppPool(t), db.AdminPool(t)
	load(t, app, admin)
	// Invalid indexes, as a failed CREATE INDEX CONCURRENTLY leaves them (duplicate keys).
	failed := func(sql string) {
		t.Helper()
		_, err := admin.Exec(ctx, sql)
		require.Error(t, err)
	}
	exec(t, admin, `CREATE TABLE public.outsider (x int); INSERT INTO public.outsider VALUES (1), (2)`)
	failed(`CREATE UNIQUE INDEX CONCURRENTLY outsider_pkey_ccnew ON public.outsider ((1))`)
	failed(`CREATE UNIQUE INDEX CONCURRENTLY speaker_names_odd ON speaker_names ((1))`)
	failed(`CREATE UNIQUE INDEX CONCURRENTLY speaker_names_pkey_ccnew ON speaker_names ((1))`)

	drop := func(index string) bool {
		t.Helper()
		var dropped bool
		require.NoError(t, app.QueryRow(ctx, `SELECT zaxy_drop_failed_rebuild($1::regclass)`, index).Scan(&dropped))
		return dropped
	}
	exists := func(index string) bool {
		return scalar[int64](t, admin, `SELECT count(*) FROM pg_class WHERE relname = $1`, index) == 1
	}
	for _, index := range []string{"speaker_names_pkey", "gate_keys_pkey", "outsider_pkey_ccnew", "speaker_names_odd"} {
		require.False(t, drop(index), index)
		require.True(t, exists(index), index)
	}
	require.True(t, drop("speaker_names_pkey_ccnew"))
	require.False(t, exists("speaker_names_pkey_ccnew"))
}
