package jobs_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// TestWorkers_SummarizeEveryEpisodeWithTheConfiguredLLM: with an LLM configured (a local
// stand-in chat server), appending sessions ends with one summary per current episode, and a
// model that fails at first is retried by River until it answers.
func TestWorkers_SummarizeEveryEpisodeWithTheConfiguredLLM(t *testing.T) {
	ctx := context.Background()
	var calls, failures atomic.Int32
	failures.Store(1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		if failures.Add(-1) >= 0 {
			http.Error(w, `{"error":{"message":"warming up"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]any{"content": "They planned the release."}}}})
	}))
	t.Cleanup(srv.Close)
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	builder, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, nil), latent.Config{})
	require.NoError(t, err)
	chat, err := extract.NewOpenAIChat(extract.OpenAIChatConfig{BaseURL: srv.URL, Model: "stand-in", MaxRetries: -1})
	require.NoError(t, err)
	summaries, err := latent.NewSummaryWriter(pool, chat, "stand-in@1")
	require.NoError(t, err)
	client, err := jobs.NewClient(pool, jobs.Config{Workers: 4, Projector: proj, Latent: builder, Summaries: summaries})
	require.NoError(t, err)
	require.NoError(t, client.Start(ctx))
	t.Cleanup(func() { _ = client.Stop(context.Background()) })
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	var events []eventloom.NewEvent
	for _, s := range []string{"s1", "s2"} {
		for _, text := range []string{"Plan the release for " + s + ".", "The release notes for " + s + " are drafted."} {
			events = append(events, eventloom.NewEvent{Type: "message", SessionID: s, Content: text, Data: []byte(`{"role":"user"}`)})
		}
	}
	fixture.Append(t, store, "sum", events...)
	waitFor(t, "a summary of each episode", func() bool {
		return count(t, pool, `SELECT count(*) FROM latent_llm_summaries s JOIN latent_current a USING (space_id, artifact_id)
			WHERE s.space_id = 'sum' AND s.model = 'stand-in@1' AND s.summary = 'They planned the release.'`) == 2
	})
	require.Equal(t, 2, count(t, pool, `SELECT count(*) FROM latent_current WHERE space_id = 'sum' AND artifact_type = 'episode'`))
	require.GreaterOrEqual(t, calls.Load(), int32(3), "one failure, then one call per episode")
}
