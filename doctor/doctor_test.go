package doctor_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
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
		fixture.Append(t, store, space,
			eventloom.NewEvent{Type: "note", Content: "one"}, eventloom.NewEvent{Type: "note", Content: "two"}, eventloom.NewEvent{Type: "note", Content: "three"},
		)
	}
	opts := doctor.Options{Embedder: embedding.NewOffline(), ProbeEmbedder: true}
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

func TestDoctor_FlagsLagProviderDimensionsModelsStuckJobsAndOldSchema(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	admin := db.AdminPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	fixture.Append(t, store, "lagging",
		eventloom.NewEvent{Type: "note", Content: "one"}, eventloom.NewEvent{Type: "note", Content: "two"},
	)

	// A provider that is down, configured for 8 dimensions where the database knows 4.
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"message":"model not loaded"}}`, http.StatusServiceUnavailable)
	}))
	t.Cleanup(down.Close)
	provider, err := embedding.NewOpenAI(embedding.OpenAIConfig{BaseURL: down.URL, Model: "stand-in", Dimensions: 8, MaxRetries: -1})
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `INSERT INTO embedding_models (model, dim, index_name) VALUES ('stand-in@1', 4, 'x'), ('older@1', 4, 'y');
		INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash) VALUES
		  ('lagging', 'ev:1', 'stand-in@1', 4, '[1,0,0,0]', '\x00'),
		  ('lagging', 'ev:1', 'older@1', 4, '[0,1,0,0]', '\x00')`)
	require.NoError(t, err)
	// A job running for an hour.
	_, err = admin.Exec(ctx, `INSERT INTO river_job (kind, args, state, max_attempts, attempt, attempted_at)
		VALUES ('project_space', '{"space_id":"lagging"}', 'running', 25, 1, now() - interval '1 hour')`)
	require.NoError(t, err)

	r := doctor.Run(ctx, pool, doctor.Options{Embedder: provider, ProbeEmbedder: true})
	require.False(t, r.OK)
	lag := check(t, r, "projection_lag")
	require.Contains(t, lag.Message, "1 spaces lag by 2 events")
	require.Contains(t, lag.Message, "lagging")
	dims := check(t, r, "embedder_dimensions")
	require.Equal(t, doctor.StatusFail, dims.Status)
	require.Contains(t, dims.Message, "stand-in@1 is recorded with 4 dimensions but the provider is configured for 8")
	require.NotEmpty(t, dims.Remedy)
	probe := check(t, r, "embedder_probe")
	require.Equal(t, doctor.StatusFail, probe.Status)
	require.Contains(t, probe.Remedy, "ZAXY_EMBEDDING_URL")
	models := check(t, r, "embedding_models")
	require.Equal(t, doctor.StatusWarn, models.Status)
	require.Contains(t, models.Message, "older@1 (1 vectors)")
	require.Contains(t, models.Message, "stand-in@1 (1 vectors)")
	jobs := check(t, r, "jobs")
	require.Equal(t, doctor.StatusWarn, jobs.Status)
	require.Contains(t, jobs.Message, "1 project_space job(s) running for over 15 minutes")

	// A schema older than the binary stops the report there, with the remedy.
	_, err = admin.Exec(ctx, `UPDATE schema_migrations SET version = version - 1`)
	require.NoError(t, err)
	r = doctor.Run(ctx, pool, doctor.Options{})
	require.False(t, r.OK)
	schema := check(t, r, "schema")
	require.Equal(t, doctor.StatusFail, schema.Status)
	require.Contains(t, schema.Remedy, "zaxy migrate")
}

// Issue 30: one event held a space's projection for minutes and nothing said which. A space
// whose projection stands before one event for longer than the threshold, or whose
// project_space job keeps failing, is named with the seq of that event.
func TestDoctor_NamesASpaceWhoseProjectionCannotAdvance(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	admin := db.AdminPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	proj, err := projection.New(ctx, pool, projection.Config{AGE: "off"})
	require.NoError(t, err)
	for _, space := range []string{"fine", "stuck", "failing"} {
		fixture.Append(t, store, space,
			eventloom.NewEvent{Type: "note", Content: "one"}, eventloom.NewEvent{Type: "note", Content: "two"},
		)
	}
	for _, space := range []string{"fine", "failing"} {
		_, err := proj.ProjectSpace(ctx, space)
		require.NoError(t, err)
	}
	fixture.Append(t, store, "failing", eventloom.NewEvent{Type: "note", Content: "three"})
	_, err = admin.Exec(ctx, `INSERT INTO river_job (kind, args, state, max_attempts, attempt, errors, scheduled_at)
		VALUES ('project_space', '{"space_id":"failing","head_seq":3}', 'retryable', 25, 3,
		        ARRAY['{"error":"write projections: timeout","attempt":3}'::jsonb], now() + interval '1 minute')`)
	require.NoError(t, err)

	// Within the threshold only the failing job counts.
	r := doctor.Run(ctx, pool, doctor.Options{})
	c := check(t, r, "stalled_projection")
	require.Equal(t, doctor.StatusFail, c.Status)
	require.Contains(t, c.Message, "1 space(s)")
	require.Contains(t, c.Message, "space failing stopped before seq 3")
	require.Contains(t, c.Message, "1 project_space job(s) failing: write projections: timeout")
	require.NotContains(t, c.Message, "stuck")
	require.NotEmpty(t, c.Remedy)

	// Past it, the space that never moved is named with its first unprojected event; the
	// space projected to its head never is.
	time.Sleep(20 * time.Millisecond)
	r = doctor.Run(ctx, pool, doctor.Options{StallAfter: 10 * time.Millisecond})
	c = check(t, r, "stalled_projection")
	require.Equal(t, doctor.StatusFail, c.Status)
	require.Contains(t, c.Message, "2 space(s)")
	require.Contains(t, c.Message, "space stuck stopped before seq 1")
	require.NotContains(t, c.Message, "fine")

	_, err = admin.Exec(ctx, `DELETE FROM river_job`)
	require.NoError(t, err)
	for _, space := range []string{"stuck", "failing"} {
		_, err := proj.ProjectSpace(ctx, space)
		require.NoError(t, err)
	}
	r = doctor.Run(ctx, pool, doctor.Options{StallAfter: 10 * time.Millisecond})
	require.Equal(t, doctor.StatusOK, check(t, r, "stalled_projection").Status)
}
