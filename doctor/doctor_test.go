package doctor_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/embed"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

func check(t *testing.T, r *doctor.Report, name string) doctor.Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %s check in %+v", name, r.Checks)
	return doctor.Check{}
}

func TestDoctor_FindsBrokenChainsAndDiscardedJobs(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	for _, space := range []string{"a", "b"} {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
			{Type: "note", Content: "one"}, {Type: "note", Content: "two"}, {Type: "note", Content: "three"},
		}})
		require.NoError(t, err)
	}
	opts := doctor.Options{Embedder: embed.NewOffline(), ProbeEmbedder: true}
	r := doctor.Run(ctx, pool, opts)
	require.True(t, r.OK, "%+v", r.Checks)
	require.Equal(t, doctor.StatusOK, check(t, r, "chains").Status)
	require.Equal(t, doctor.StatusOK, check(t, r, "jobs").Status)
	require.Equal(t, doctor.StatusOK, check(t, r, "embedder_probe").Status)

	// Tamper with b's second event as a superuser bypassing the triggers.
	admin := db.AdminPool(t)
	conn, err := admin.Acquire(ctx)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `SET session_replication_role = replica; UPDATE events SET content = 'forged' WHERE space_id = 'b' AND seq = 2; RESET session_replication_role`)
	conn.Release()
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `INSERT INTO river_job (kind, args, state, max_attempts, errors, finalized_at)
		VALUES ('embed_space', '{"space_id":"a"}', 'discarded', 25, ARRAY['{"error":"provider down","attempt":25}'::jsonb], now())`)
	require.NoError(t, err)

	for _, full := range []bool{false, true} {
		opts.FullChains = full
		r = doctor.Run(ctx, pool, opts)
		require.False(t, r.OK)
		c := check(t, r, "chains")
		require.Equal(t, doctor.StatusFail, c.Status)
		require.Contains(t, c.Message, "1 of 2 spaces")
		require.Contains(t, c.Message, "b (seq 2")
		require.NotEmpty(t, c.Remedy)
		j := check(t, r, "jobs")
		require.Equal(t, doctor.StatusFail, j.Status)
		require.Contains(t, j.Message, "provider down")
	}
}
