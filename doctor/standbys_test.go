package doctor_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestDoctor_ReportsEachStandbysLag: a standby that has replayed everything is ok and says so;
// one applying each commit an hour late, after a write, is reported behind the primary in bytes
// and warned once its lag passes the limit; a stopped one fails as unreachable.
func TestDoctor_ReportsEachStandbysLag(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := testcontainers.StartCluster(t, "doctorstb")
	db := primary.NewDatabase(t)
	pool := db.AppPool(t)
	caught := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	delayed := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{ApplyDelay: time.Hour})
	standbys := []doctor.Standby{{Name: "caught", Pool: caught.Database(db).AppPool(t)}, {Name: "delayed", Pool: delayed.Database(db).AppPool(t)}}

	// A transaction both replay, so the delayed one has a replay time, then one it holds back.
	_, err := eventloom.NewStore(pool, nil, nil).Append(ctx, &eventloom.AppendParams{SpaceID: "lag", Events: []eventloom.NewEvent{{Type: "note", Content: "one"}}})
	require.NoError(t, err)
	delayed.SetApplyDelay(t, 0)
	standbys[1].Pool.Reset()
	delayed.CatchUp(t)
	delayed.SetApplyDelay(t, time.Hour)
	standbys[1].Pool.Reset()
	_, err = eventloom.NewStore(pool, nil, nil).Append(ctx, &eventloom.AppendParams{SpaceID: "lag", Events: []eventloom.NewEvent{{Type: "note", Content: "two"}}})
	require.NoError(t, err)
	lsn := primary.CurrentLSN(t)
	caught.WaitReplay(t, lsn)
	delayed.WaitReceive(t, lsn)

	// The primary also writes WAL of its own now and then (a snapshot of running transactions,
	// a checkpoint): a check that lands between such a record and its replay sees the caught
	// standby behind. Each round waits for it to replay the primary's position again first.
	var r *doctor.Report
	var c doctor.Check
	for range 10 {
		caught.WaitReplay(t, primary.CurrentLSN(t))
		r = doctor.Run(ctx, pool, doctor.Options{Standbys: standbys, MaxStandbyLag: time.Millisecond})
		if c = check(t, r, "standby caught"); c.Status == doctor.StatusOK {
			break
		}
	}
	require.Equal(t, doctor.StatusOK, c.Status, c.Message)
	require.Contains(t, c.Message, "caught up")
	c = check(t, r, "standby delayed")
	require.Equal(t, doctor.StatusWarn, c.Status, c.Message)
	require.Contains(t, c.Message, "bytes and")

	caught.Stop(t)
	r = doctor.Run(ctx, pool, doctor.Options{Standbys: standbys})
	c = check(t, r, "standby caught")
	require.Equal(t, doctor.StatusFail, c.Status, c.Message)
	require.Contains(t, c.Message, "cannot reach")
	require.False(t, r.OK)
}

// A standby whose replay position cannot be checked fails doctor with why and what to do: an
// Aurora server (aurora_version() exists) and a server in recovery that reports no replay
// position. Functions in a schema before pg_catalog on the session's search_path stand in
// for what such a server answers.
func TestDoctor_FailsAStandbyWithoutAReplayPosition(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	_, err := db.AdminPool(t).Exec(ctx, `CREATE SCHEMA aurora; CREATE SCHEMA noreplay;
		GRANT USAGE ON SCHEMA aurora, noreplay TO PUBLIC;
		CREATE FUNCTION aurora.aurora_version() RETURNS text LANGUAGE sql AS $$SELECT '16.4.0'$$;
		CREATE FUNCTION noreplay.pg_is_in_recovery() RETURNS boolean LANGUAGE sql AS 'SELECT true';
		CREATE FUNCTION noreplay.pg_last_wal_replay_lsn() RETURNS pg_lsn LANGUAGE sql AS 'SELECT NULL::pg_lsn';`)
	require.NoError(t, err)
	on := func(schema string) *pgxpool.Pool {
		cfg, err := pgxpool.ParseConfig(db.AppURL)
		require.NoError(t, err)
		cfg.ConnConfig.RuntimeParams["search_path"] = schema + ", pg_catalog, public"
		p, err := pgxpool.NewWithConfig(ctx, cfg)
		require.NoError(t, err)
		t.Cleanup(p.Close)
		return p
	}
	r := doctor.Run(ctx, pool, doctor.Options{Standbys: []doctor.Standby{{Name: "aurora", Pool: on("aurora")}, {Name: "noreplay", Pool: on("noreplay")}}})
	c := check(t, r, "standby aurora")
	require.Equal(t, doctor.StatusFail, c.Status, c.Message)
	require.Contains(t, c.Message, "is Aurora")
	require.Contains(t, c.Remedy, "ZAXY_REPLICA_URLS")
	c = check(t, r, "standby noreplay")
	require.Equal(t, doctor.StatusFail, c.Status, c.Message)
	require.Contains(t, c.Message, "reports no replay position")
	require.False(t, r.OK)
}
