package projection_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
)

// chatStandIn is an OpenAI-compatible chat server that answers with one triple naming the
// first word of the user's text, or with garbage while garbage is set.
func chatStandIn(t *testing.T, garbage *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role, Content string
			} `json:"messages"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		content := "not json at all"
		if !garbage.Load() {
			first := strings.Fields(req.Messages[1].Content)[0]
			b, _ := json.Marshal(map[string]any{"triples": []map[string]any{{"subject": first, "predicate": "mentioned in", "object": "chat", "confidence": 0.7}}})
			content = "```json\n" + string(b) + "\n```"
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestInferrer_StoresLabelledInferencesAndNeverTouchesAssertedFacts(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	var garbage atomic.Bool
	garbage.Store(true)
	srv := chatStandIn(t, &garbage)
	llm, err := extract.NewOpenAIChat(extract.OpenAIChatConfig{BaseURL: srv.URL + "/v1", Model: "stand-in", MaxRetries: -1})
	require.NoError(t, err)
	inf := projection.NewInferrer(f.DB, llm, "stand-in@1")

	space := "infer"
	f.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "mentioned in", "value": "standup"}),
		ev("message", "Alice joined the platform team", map[string]any{"role": "user"}),
		ev("message", "Bob reviewed the migration", map[string]any{"role": "assistant"}),
	)
	// Nothing is read before it is projected.
	n, err := inf.InferSpace(ctx, space)
	require.NoError(t, err)
	require.Zero(t, n)
	f.Project(t, space)

	// A garbage answer is an error and stores nothing.
	_, err = inf.InferSpace(ctx, space)
	require.ErrorIs(t, err, extract.ErrBadResponse)
	got, err := graph.InferredFacts(ctx, f.DB, space, "", 0)
	require.NoError(t, err)
	require.Empty(t, got)

	garbage.Store(false)
	n, err = inf.InferSpace(ctx, space)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	got, err = graph.InferredFacts(ctx, f.DB, space, "alice", 0)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "inferred", got[0].Authority)
	require.True(t, got[0].Inferred)
	require.Equal(t, "stand-in@1", got[0].Model)
	require.Equal(t, int64(2), got[0].Evidence[0].Seq)

	// The asserted fact with the same subject and predicate is untouched.
	facts := f.facts(t, graph.FactsParams{SpaceID: space, Entity: "alice"})
	require.Len(t, facts, 1)
	require.Equal(t, "asserted", facts[0].Authority)
	require.Equal(t, "current", facts[0].Status)

	// Inferences survive a rebuild and are not asked for again.
	_, err = f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	n, err = inf.InferSpace(ctx, space)
	require.NoError(t, err)
	require.Zero(t, n)
}
