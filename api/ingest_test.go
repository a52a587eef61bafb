package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func documentsBody(t *testing.T, docs ...map[string]string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"documents": docs})
	require.NoError(t, err)
	return string(b)
}

func TestHTTP_Documents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	readme := "# Readme\n\nConnect with postgres://app:hunter22@db/zaxy.\n\n## Usage\n\nRun it.\n"
	body := documentsBody(t, map[string]string{"path": "README.md", "text": readme}, map[string]string{"path": "notes.txt", "document_id": "notes", "text": "plain notes"})

	status, out := e.do(t, "POST", "/v1/spaces/docs/documents", body)
	require.Equal(t, 201, status, out)
	require.Equal(t, "docs", out["space_id"])
	docs := out["documents"].([]any)
	require.Len(t, docs, 2)
	first, second := docs[0].(map[string]any), docs[1].(map[string]any)
	require.Equal(t, "README.md", first["document_id"])
	require.Equal(t, true, first["appended"])
	require.EqualValues(t, 1, first["chunks"])
	require.EqualValues(t, 1, first["first_seq"])
	require.EqualValues(t, 1, first["last_seq"])
	require.EqualValues(t, 1, first["redactions"])
	require.Equal(t, "notes", second["document_id"])
	require.EqualValues(t, 2, second["first_seq"])

	status, out = e.do(t, "GET", "/v1/spaces/docs/events", "")
	require.Equal(t, 200, status)
	ev := out["events"].([]any)[0].(map[string]any)
	require.Equal(t, "document.chunk", ev["type"])
	require.Contains(t, ev["content"], "postgres://app:[REDACTED:url_password]@db/zaxy")
	require.NotContains(t, ev["content"], "hunter22")
	data := ev["data"].(map[string]any)
	require.EqualValues(t, 0, data["start"])
	require.EqualValues(t, len(ev["content"].(string)), data["end"])

	// Unchanged: 200 and nothing appended; changed: 201 and a new version.
	status, out = e.do(t, "POST", "/v1/spaces/docs/documents", body)
	require.Equal(t, 200, status, out)
	require.Equal(t, false, out["documents"].([]any)[0].(map[string]any)["appended"])
	require.Equal(t, 2, e.count(t))
	status, out = e.do(t, "POST", "/v1/spaces/docs/documents", documentsBody(t, map[string]string{"path": "README.md", "text": readme + "More.\n"}))
	require.Equal(t, 201, status, out)
	require.EqualValues(t, 3, out["documents"].([]any)[0].(map[string]any)["first_seq"])
	require.Equal(t, 3, e.count(t))
}

func TestHTTP_Transcripts(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // MaxBatch 10: 12 turns take two appends
	var turns []string
	for i := 0; i < 12; i++ {
		role := []string{"user", "assistant"}[i%2]
		turns = append(turns, fmt.Sprintf(`{"role":%q,"content":"turn %d"}`, role, i))
	}
	turns[3] = `{"role":"user","content":"here: Authorization: Bearer abc.def.ghi","name":"ana","session_id":"other"}`
	body := `{"session_id":"s1","turns":[` + strings.Join(turns, ",") + `]}`

	status, out := e.do(t, "POST", "/v1/spaces/chat/transcripts", body)
	require.Equal(t, 201, status, out)
	require.Len(t, out["events"], 12)
	require.EqualValues(t, 2, out["batches"])
	require.EqualValues(t, 1, out["redactions"])
	require.Equal(t, false, out["replayed"])

	status, again := e.do(t, "POST", "/v1/spaces/chat/transcripts", body)
	require.Equal(t, 200, status, again)
	require.Equal(t, true, again["replayed"])
	require.Equal(t, out["events"], again["events"])
	require.Equal(t, 12, e.count(t))

	status, page := e.do(t, "GET", "/v1/spaces/chat/events?session_id=other", "")
	require.Equal(t, 200, status)
	evs := page["events"].([]any)
	require.Len(t, evs, 1)
	ev := evs[0].(map[string]any)
	require.Equal(t, "message", ev["type"])
	require.Equal(t, "here: Authorization: Bearer [REDACTED:authorization_header]", ev["content"])
	require.Equal(t, map[string]any{"role": "user", "name": "ana"}, ev["data"])
}

func TestHTTP_IngestBadInputIsRejectedAndNothingAppended(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := documentsBody(t, map[string]string{"path": "big.txt", "text": strings.Repeat("x", 70<<10)})
	cases := []struct {
		name, path, body string
		status           int
		field            string
	}{
		{"invalid json", "/v1/spaces/s/documents", `{"documents":`, 400, ""},
		{"no documents", "/v1/spaces/s/documents", `{}`, 400, "documents"},
		{"empty documents", "/v1/spaces/s/documents", `{"documents":[]}`, 400, "documents"},
		{"missing text", "/v1/spaces/s/documents", `{"documents":[{"path":"a.md"}]}`, 400, "documents[0].text"},
		{"text not a string", "/v1/spaces/s/documents", `{"documents":[{"path":"a.md","text":1}]}`, 400, "documents[0].text"},
		{"bad format", "/v1/spaces/s/documents", `{"documents":[{"path":"a","text":"x"},{"path":"b","text":"y","format":"pdf"}]}`, 400, "documents[1].format"},
		{"unknown field", "/v1/spaces/s/documents", `{"documents":[{"path":"a","text":"x","url":"u"}]}`, 400, "documents[0].url"},
		{"bad space", "/v1/spaces/Bad_Space/documents", `{"documents":[{"path":"a","text":"x"}]}`, 400, "space"},
		{"body too large", "/v1/spaces/s/documents", big, 413, ""},
		{"no turns", "/v1/spaces/s/transcripts", `{"session_id":"x"}`, 400, "turns"},
		{"bad role", "/v1/spaces/s/transcripts", `{"turns":[{"role":"user","content":"a"},{"role":"user","content":"b"},{"role":"user","content":"c"},{"role":"robot","content":"d"}]}`, 400, "turns[3].role"},
		{"blank content", "/v1/spaces/s/transcripts", `{"turns":[{"role":"user","content":"  "}]}`, 400, "turns[0].content"},
		{"bad occurred_at", "/v1/spaces/s/transcripts", `{"turns":[{"role":"user","content":"a","occurred_at":"now"}]}`, 400, "turns[0].occurred_at"},
		{"session_id not a string", "/v1/spaces/s/transcripts", `{"session_id":5,"turns":[]}`, 400, "session_id"},
	}
	for _, tc := range cases {
		status, out := e.do(t, "POST", tc.path, tc.body)
		require.Equal(t, tc.status, status, "%s: %v", tc.name, out)
		errObj := out["error"].(map[string]any)
		require.NotEmpty(t, errObj["code"], tc.name)
		require.NotEmpty(t, errObj["message"], tc.name)
		if tc.field != "" {
			require.Equal(t, tc.field, errObj["details"].(map[string]any)["field"], tc.name)
		}
	}
	require.Equal(t, 0, e.count(t))
}
