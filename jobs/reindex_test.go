package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/maintenance"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// The table was vacuumed, never analyzed: the job analyzes it to estimate its index.
func TestWorkers_ReindexJobRebuildsAHalfEmptyIndexOnStart(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool, admin := db.AppPool(t), db.AdminPool(t)
	for _, q := range []string{
		`INSERT INTO speaker_names SELECT 'a-space', 'speaker-' || lpad(g::text, 8, '0'), 1 FROM generate_series(1, 20000) AS g ORDER BY random()`,
		`DELETE FROM speaker_names WHERE right(name_key, 1) IN ('1', '3', '5', '7', '9')`,
	} {
		_, err := pool.Exec(ctx, q)
		require.NoError(t, err)
	}
	_, err := admin.Exec(ctx, `VACUUM speaker_names`)
	require.NoError(t, err)
	before := count(t, admin, `SELECT relfilenode::int FROM pg_class WHERE relname = 'speaker_names_pkey'`)
	size := count(t, admin, `SELECT pg_relation_size('speaker_names_pkey')::int`)

	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	client, err := jobs.NewClient(pool, jobs.Config{Workers: 2, Projector: proj, ReindexInterval: time.Hour, Reindex: maintenance.Config{MinBytes: 1}})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	waitFor(t, "the reindex job", func() bool {
		return count(t, pool, `SELECT count(*) FROM river_job WHERE kind = 'reindex' AND state = 'completed'`) == 1
	})
	require.NotEqual(t, before, count(t, admin, `SELECT relfilenode::int FROM pg_class WHERE relname = 'speaker_names_pkey'`))
	require.Less(t, count(t, admin, `SELECT pg_relation_size('speaker_names_pkey')::int`), size*3/4)
}

func TestNewClient_RejectsBadReindexOptions(t *testing.T) {
	proj := &projection.Projector{}
	for _, cfg := range []jobs.Config{
		{Projector: proj, ReindexInterval: -time.Hour},
		{Projector: proj, Reindex: maintenance.Config{MinWastePercent: 120}},
		{Projector: proj, Reindex: maintenance.Config{MinBytes: -1}},
	} {
		_, err := jobs.NewClient(nil, cfg)
		require.Error(t, err, "%+v", cfg)
	}
}
