package latent_test

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
	"github.com/zaxy/zaxy/latent"
)

// standInLLM is a local OpenAI-compatible chat server: it answers every request with a summary
// naming the session's first line, or with status fail when it is set.
type standInLLM struct {
	*httptest.Server
	calls atomic.Int32
	fail  atomic.Int32
	seen  []string
}

func newStandInLLM(t *testing.T) *standInLLM {
	t.Helper()
	s := &standInLLM{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls.Add(1)
		if code := s.fail.Load(); code != 0 {
			http.Error(w, `{"error":{"message":"overloaded"}}`, int(code))
			return
		}
		var body struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) != 2 {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		user := body.Messages[1].Content
		s.seen = append(s.seen, user)
		first, _, _ := strings.Cut(strings.TrimPrefix(user, "- "), "\n")
		content := "Summary: " + first
		if strings.Contains(user, "POISON") {
			content = " " // an answer with nothing in it
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(s.Close)
	return s
}

func (b *testBundle) summaryRows(t *testing.T, space string) map[string]string {
	t.Helper()
	rows, err := b.db.Query(context.Background(), `SELECT artifact_id, summary FROM latent_llm_summaries WHERE space_id = $1`, space)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, s string
		require.NoError(t, rows.Scan(&id, &s))
		out[id] = s
	}
	return out
}

// TestSummaries_AnLLMSummarizesEachCurrentEpisodeOnceAndTheCacheFollowsItsArtifact: with a
// (stand-in) LLM configured, every current episode gets one summary by the model, labelled
// llm-assisted in the listing; asking again sends nothing; the artifacts themselves and the
// projection checksum do not change; a replaced episode's summary goes with it and the new
// version is summarized; a failing model stores nothing; a rebuild drops the cache.
func TestSummaries_AnLLMSummarizesEachCurrentEpisodeOnceAndTheCacheFollowsItsArtifact(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "summaries"
	b.AppendSeqs(t, space,
		b.Message("s1", "The nightly backup writes its archive to cold storage."),
		b.Message("s1", "Restores from cold storage take about four hours."),
		b.Message("s2", "The deploy pipeline pushes images to the registry."),
		b.Message("s2", "Registry pushes time out after thirty seconds."),
	)
	b.projectAndBuild(t, space)
	before, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)

	llm := newStandInLLM(t)
	chat, err := extract.NewOpenAIChat(extract.OpenAIChatConfig{BaseURL: llm.URL, Model: "stand-in", MaxRetries: -1})
	require.NoError(t, err)
	_, err = latent.NewSummaryWriter(b.db, chat, "stand-in")
	require.ErrorContains(t, err, "name@version")
	w, err := latent.NewSummaryWriter(b.db, chat, "stand-in@1")
	require.NoError(t, err)
	pending, err := w.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.Contains(t, pending, space)

	res, err := w.SummarizeSpace(ctx, space)
	require.NoError(t, err)
	require.Equal(t, 2, res.Written)
	require.False(t, res.More)
	require.Contains(t, llm.seen, "- The nightly backup writes its archive to cold storage.\n- Restores from cold storage take about four hours.\n")
	episodes := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	rows := b.summaryRows(t, space)
	require.Len(t, rows, 2)
	for _, ep := range episodes {
		require.True(t, strings.HasPrefix(rows[ep.ID], "Summary: "), rows[ep.ID])
	}
	again, err := w.SummarizeSpace(ctx, space)
	require.NoError(t, err)
	require.Zero(t, again.Written)
	require.EqualValues(t, 2, llm.calls.Load(), "a summarized episode is not asked again")
	pending, err = w.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.NotContains(t, pending, space)

	page, err := latent.List(ctx, b.db, latent.ListParams{SpaceID: space, Type: latent.TypeEpisode})
	require.NoError(t, err)
	require.Len(t, page.Artifacts, 2)
	for _, a := range page.Artifacts {
		require.Len(t, a.LLMSummaries, 1)
		s := a.LLMSummaries[0]
		require.Equal(t, "stand-in@1", s.Model)
		require.Equal(t, latent.MethodLLMAssisted, s.Method)
		require.Equal(t, "non_authoritative", s.Authority)
		require.Equal(t, latent.MethodDeterministic, a.Method, "the artifact itself stays deterministic")
		require.NotContains(t, a.Summary, "Summary: ")
	}
	after, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, before, after, "the cache is not part of the artifacts")

	// Another space with the same events has its own episodes: nothing of this space's cache.
	const other = "summaries-other"
	b.AppendSeqs(t, other,
		b.Message("s1", "The nightly backup writes its archive to cold storage."),
		b.Message("s1", "Restores from cold storage take about four hours."),
	)
	b.projectAndBuild(t, other)
	otherPage, err := latent.List(ctx, b.db, latent.ListParams{SpaceID: other, Type: latent.TypeEpisode})
	require.NoError(t, err)
	require.Len(t, otherPage.Artifacts, 1)
	require.Empty(t, otherPage.Artifacts[0].LLMSummaries, "a summary never crosses spaces")
	pending, err = w.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.Contains(t, pending, other)
	require.NotContains(t, pending, space)

	// A new turn replaces s1's episode: its summary goes with it; the new version is asked for.
	b.AppendSeqs(t, space, b.Message("s1", "Cold storage restores were tested last Friday."))
	b.projectAndBuild(t, space)
	rows = b.summaryRows(t, space)
	require.Len(t, rows, 1, "the replaced episode's summary is gone")
	llm.fail.Store(http.StatusInternalServerError)
	_, err = w.SummarizeSpace(ctx, space)
	require.Error(t, err, "a failing model is an error")
	require.Len(t, b.summaryRows(t, space), 1, "and stores nothing")
	llm.fail.Store(0)
	res, err = w.SummarizeSpace(ctx, space)
	require.NoError(t, err)
	require.Equal(t, 1, res.Written)
	require.Len(t, b.summaryRows(t, space), 2)

	_, err = b.builder.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Empty(t, b.summaryRows(t, space), "a rebuild drops the cache; the job summarizes again")
}

// TestSummaries_AnEpisodeTheModelFailsOnDoesNotStopTheOthers: the model answers nothing for one
// episode; the others are still summarized, the call reports the empty answer, and the failed
// episode stays pending for the next run.
func TestSummaries_AnEpisodeTheModelFailsOnDoesNotStopTheOthers(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "summaries-poison"
	b.AppendSeqs(t, space,
		b.Message("a", "POISON: the first session's text makes the model answer nothing."),
		b.Message("a", "It has a second turn."),
		b.Message("b", "The second session is about the backup schedule."),
		b.Message("b", "Backups run nightly."),
	)
	b.projectAndBuild(t, space)
	llm := newStandInLLM(t)
	chat, err := extract.NewOpenAIChat(extract.OpenAIChatConfig{BaseURL: llm.URL, Model: "stand-in", MaxRetries: -1})
	require.NoError(t, err)
	w, err := latent.NewSummaryWriter(b.db, chat, "stand-in@1")
	require.NoError(t, err)
	res, err := w.SummarizeSpace(ctx, space)
	require.ErrorIs(t, err, latent.ErrEmptySummary)
	require.Equal(t, 1, res.Written, "the other episode is summarized")
	require.Equal(t, 1, res.Failed)
	require.Len(t, b.summaryRows(t, space), 1)
	pending, err := w.PendingSpaces(ctx, 100)
	require.NoError(t, err)
	require.Contains(t, pending, space, "the failed episode is asked again next time")
}
