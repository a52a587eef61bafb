package jobs_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/topic"
)

// flakyProvider wraps the offline embedder and returns vectors of the wrong dimension while
// broken is set, like a misconfigured provider.
type flakyProvider struct {
	embedding.Embedder
	broken atomic.Bool
	calls  atomic.Int64
}

func (f *flakyProvider) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	f.calls.Add(1)
	vs, err := f.Embedder.Embed(ctx, texts)
	if err != nil || !f.broken.Load() {
		return vs, err
	}
	for i := range vs {
		vs[i] = vs[i][:3]
	}
	return vs, nil
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// Generous: the workers run beside the rest of the suite on a loaded machine; the wait ends
	// as soon as cond holds.
	deadline := time.Now().Add(3 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func count(t *testing.T, db pgexec.Executor, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow(context.Background(), query, args...).Scan(&n))
	return n
}

func TestWorkers_ProjectAndEmbedEveryAppend_BadProviderLosesNothing(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	provider := &flakyProvider{Embedder: embedding.NewOffline()}
	provider.broken.Store(true)
	client, err := jobs.NewClient(pool, jobs.Config{Workers: 4, Projector: proj, Embedder: projection.NewEmbedder(pool, provider, 16)})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)

	for i := 0; i < 20; i++ {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "w", Events: []eventloom.NewEvent{
			{Type: "message", Content: "Ask @dana about the flaky deploy", Data: []byte(`{"role":"user"}`)},
			{Type: "task.updated", Data: []byte(`{"task_id":"T1","status":"in_progress"}`)},
		}})
		require.NoError(t, err)
	}
	// Projection does not wait for embeddings.
	waitFor(t, "projection", func() bool {
		st, err := projection.Lag(ctx, pool, "w")
		return err == nil && len(st) == 1 && st[0].Lag == 0
	})
	items := count(t, pool, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'w')`)
	require.Equal(t, 21, items, "20 messages and one fact version (task updates without text are items only through their facts; reasserting the same status adds evidence)")

	// The broken provider fails the embedding job with a clear error; River keeps it for retry.
	waitFor(t, "a failed embedding attempt", func() bool {
		return count(t, pool, `SELECT count(*) FROM river_job WHERE kind = 'embed_space' AND state = 'retryable'`) > 0
	})
	var lastErr string
	require.NoError(t, pool.QueryRow(ctx, `SELECT errors[array_length(errors, 1)]->>'error' FROM river_job WHERE kind = 'embed_space' AND state = 'retryable' LIMIT 1`).Scan(&lastErr))
	require.Contains(t, lastErr, "dimension 3")
	require.Zero(t, count(t, pool, `SELECT count(*) FROM embeddings`))

	// Once the provider recovers, the retried job stores every vector.
	provider.broken.Store(false)
	var id int64
	require.NoError(t, pool.QueryRow(ctx, `SELECT id FROM river_job WHERE kind = 'embed_space' AND state = 'retryable' LIMIT 1`).Scan(&id))
	_, err = client.JobRetry(ctx, id)
	require.NoError(t, err)
	waitFor(t, "embeddings", func() bool {
		return count(t, pool, `SELECT count(*) FROM embeddings WHERE space_id = 'w' AND model = $1`, provider.Model()) == items
	})
	job, err := client.JobGet(ctx, id)
	require.NoError(t, err)
	waitFor(t, "the job to complete", func() bool {
		job, err = client.JobGet(ctx, id)
		return err == nil && job.State == rivertype.JobStateCompleted
	})
	require.Zero(t, count(t, pool, `SELECT count(*) FROM river_job WHERE state = 'discarded'`))
}

func TestConfig_RequiresProjector(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	_, err := jobs.NewClient(db.AppPool(t), jobs.Config{})
	require.Error(t, err)
	require.ErrorContains(t, err, "Projector is required")
}

func TestWorkers_BuildEachSpacesTopicModelAndFoldInNewSessions(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	client, err := jobs.NewClient(pool, jobs.Config{Workers: 4, Projector: proj, Topic: topic.NewRefresher(pool, topic.DefaultParams)})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	words := []string{"camera lens", "sourdough oven", "tomato soil", "mortgage savings", "passport flight", "guitar chords"}
	var events []eventloom.NewEvent
	for i := range 60 {
		events = append(events, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", i%6),
			Content: fmt.Sprintf("turn %d about the %s and the %s", i, words[i%6], words[(i/6)%6]), Data: []byte(`{"role":"user"}`)})
	}
	fixture.Append(t, store, "l", events...)
	waitFor(t, "the topic model", func() bool {
		return count(t, pool, `SELECT count(*) FROM latent_models WHERE space_id = 'l' AND docs = 60`) == 1 &&
			count(t, pool, `SELECT count(*) FROM latent_topics WHERE space_id = 'l'`) == 6
	})
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "l", Events: []eventloom.NewEvent{
		{Type: "message", SessionID: "s-new", Content: "my guitar chords and the camera", Data: []byte(`{"role":"user"}`)},
	}})
	require.NoError(t, err)
	waitFor(t, "the new session's topic", func() bool {
		return count(t, pool, `SELECT count(*) FROM latent_topics WHERE space_id = 'l' AND session_id = 's-new'`) == 1
	})
	require.Equal(t, 1, count(t, pool, `SELECT count(*) FROM latent_models WHERE space_id = 'l' AND docs = 60`), "one new message folds in, no rebuild")
	require.Zero(t, count(t, pool, `SELECT count(*) FROM river_job WHERE state IN ('discarded', 'retryable')`))
}

func TestWorkers_BuildLatentArtifactsAndProposeMinedProcedures(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	builder, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, nil), latent.Config{})
	require.NoError(t, err)
	client, err := jobs.NewClient(pool, jobs.Config{Workers: 4, Projector: proj, Latent: builder})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	var events []eventloom.NewEvent
	for _, s := range []string{"s1", "s2", "s3"} {
		events = append(events, eventloom.NewEvent{Type: "message", SessionID: s, Content: "Ship the release notes for " + s + ".", Data: []byte(`{"role":"user"}`)})
		for _, tool := range []string{"make build", "make test"} {
			events = append(events, eventloom.NewEvent{Type: "tool_call.completed", SessionID: s, Data: fmt.Appendf(nil, `{"tool":%q,"outcome":"success"}`, tool)})
		}
	}
	fixture.Append(t, store, "lr", events...)
	waitFor(t, "the episodes, the procedure and its proposal, projected", func() bool {
		return count(t, pool, `SELECT count(*) FROM latent_artifacts WHERE space_id = 'lr' AND artifact_type = 'episode'`) == 3 &&
			count(t, pool, `SELECT count(*) FROM latent_artifacts WHERE space_id = 'lr' AND artifact_type = 'procedure' AND review_status = 'proposed'`) == 1
	})
	require.Equal(t, 1, count(t, pool, `SELECT count(*) FROM proposals WHERE space_id = 'lr' AND kind = 'skill' AND proposed_by = 'zaxy-latent'`))
	require.Zero(t, count(t, pool, `SELECT count(*) FROM river_job WHERE state IN ('discarded', 'retryable')`))
}
