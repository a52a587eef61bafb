package replica

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// managedServer is a pool on a real Postgres whose sessions answer the health query as the
// server named by setup would: a schema of functions, put before pg_catalog on the session's
// search_path, stands in for the server functions a managed service answers differently.
func managedServer(t *testing.T, db *testcontainers.Database, setup string) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	admin := db.AdminPool(t)
	_, err := admin.Exec(ctx, `CREATE SCHEMA managed; GRANT USAGE ON SCHEMA managed TO PUBLIC; `+setup)
	require.NoError(t, err)
	cfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	cfg.ConnConfig.RuntimeParams["search_path"] = "managed, pg_catalog, public"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	return pool
}

// A server whose replay position cannot be read, or cannot be compared with the primary's
// tokens, is a standby that is down: reads with or without a token go to the primary, and
// the log says why. Aurora (aurora_version() exists) is refused even when it answers a
// position, as are a server in recovery with no position, one whose position function
// fails, and a primary.
func TestMeasure_AStandbyWhosePositionCannotBeCheckedServesNoReads(t *testing.T) {
	ctx := context.Background()
	const inRecovery = `CREATE FUNCTION managed.pg_is_in_recovery() RETURNS boolean LANGUAGE sql AS 'SELECT true';`
	for _, tc := range []struct {
		name, setup, logged string
	}{
		{"aurora", inRecovery + `
			CREATE FUNCTION managed.aurora_version() RETURNS text LANGUAGE sql AS $$SELECT '16.4.0'$$;
			CREATE FUNCTION managed.pg_last_wal_replay_lsn() RETURNS pg_lsn LANGUAGE sql AS $$SELECT 'FF/0'::pg_lsn$$;`,
			"the server is Aurora"},
		{"no-replay-position", inRecovery + `
			CREATE FUNCTION managed.pg_last_wal_replay_lsn() RETURNS pg_lsn LANGUAGE sql AS 'SELECT NULL::pg_lsn';`,
			"reports no replay position"},
		{"position-function-fails", inRecovery + `
			CREATE FUNCTION managed.pg_last_wal_replay_lsn() RETURNS pg_lsn LANGUAGE plpgsql AS
			$$BEGIN RAISE EXCEPTION 'function pg_last_wal_replay_lsn() is not supported'; END$$;`,
			"is not supported"},
		{"a-primary", ``, "not a standby (not in recovery)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := testcontainers.NewDatabase(t)
			primary := db.AppPool(t)
			var logs bytes.Buffer
			st := &Standby{Name: tc.name, Pool: managedServer(t, db, tc.setup)}
			set := NewSet(primary, []*Standby{st}, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			// As if it had been measured up before: the measurement must take it down.
			st.up.Store(true)
			set.Measure(ctx)
			require.False(t, st.Up(), "a standby whose position cannot be checked is down")
			require.Contains(t, logs.String(), "standby down: reads go elsewhere")
			require.Contains(t, logs.String(), tc.logged)
			for _, tok := range []Token{{}, {LSN: 1}} {
				c := set.Pick(ctx, tok)
				require.Nil(t, c.Standby, "token %v: the primary serves the read", tok)
				require.Same(t, primary, c.Pool)
			}
		})
	}
}
