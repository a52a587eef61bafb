package extract_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/extract"
)

func TestOpenAIChat_SummarizeSendsTheSessionAndReturnsPlainText(t *testing.T) {
	var sent map[string]any
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, r *http.Request, body map[string]any) {
		require.Equal(t, "Bearer sk-test", r.Header.Get("Authorization"))
		sent = body
		answer(w, "```\nAlice moved billing to Postgres on Monday.\n```")
	})
	x := newExtractor(t, srv, nil)
	got, err := x.Summarize(context.Background(), []string{meetingText, " ", "Bob asked\nwhy."})
	require.NoError(t, err)
	require.Equal(t, "Alice moved billing to Postgres on Monday.", got)
	require.Equal(t, "stand-in-mini", sent["model"])
	msgs := sent["messages"].([]any)
	require.Len(t, msgs, 2)
	require.Contains(t, msgs[0].(map[string]any)["content"], "Only state what the text says")
	require.Equal(t, "- "+meetingText+"\n- Bob asked why.\n", msgs[1].(map[string]any)["content"], "one line per event, blanks dropped")

	empty, err := x.Summarize(context.Background(), []string{"", "  "})
	require.NoError(t, err)
	require.Empty(t, empty)
	require.EqualValues(t, 1, srv.calls.Load(), "nothing to summarize sends nothing")
}

func TestOpenAIChat_SummarizeBadResponses(t *testing.T) {
	for name, body := range map[string]string{"not json": "nope", "no choices": `{"choices":[]}`} {
		srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(body))
		})
		_, err := newExtractor(t, srv, nil).Summarize(context.Background(), []string{meetingText})
		require.ErrorIs(t, err, extract.ErrBadResponse, name)
	}
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
	})
	_, err := newExtractor(t, srv, nil).Summarize(context.Background(), []string{meetingText})
	require.Error(t, err)
	require.True(t, strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), "bad key"), err.Error())
}
