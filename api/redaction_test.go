package api_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// Fake credentials (valid nowhere).
const (
	fakeAnthropic = "sk-ant-api03-abcDEF123456_ghiJKL789012-mnoPQR"
	fakeGitHub    = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	fakeJWT       = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.abc123DEF456"
)

func (e *env) logText(t *testing.T, space string) string {
	t.Helper()
	var s string
	require.NoError(t, e.db.AdminPool(t).QueryRow(context.Background(),
		`SELECT coalesce(string_agg(actor || ' ' || content || ' ' || data::text || ' ' || cues::text, E'\n' ORDER BY seq), '') FROM events WHERE space_id = $1`, space).Scan(&s))
	return s
}

func TestHTTP_AppendAndAfterTurnRedactAndCount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/r/events", `{"events":[
		{"type":"message","actor":"bot `+fakeJWT+`","content":"my key is `+fakeAnthropic+`","data":{"role":"user","name":"`+fakeGitHub+`"}},
		{"type":"note","content":"nothing here","cues":{"repo":"acme","env":{"DB_PASSWORD":"hunter22"}}}]}`)
	require.Equal(t, 201, status, out)
	require.EqualValues(t, 4, out["redactions"])

	status, out = e.do(t, "POST", "/v1/spaces/r/context/after-turn", `{"session_id":"s1","max_tokens":600,
		"events":[{"type":"message","content":"the password is `+"`hunter2`"+` and export GH_TOKEN=`+fakeGitHub+`","data":{"role":"user"}}]}`)
	require.Equal(t, 201, status, out)
	require.EqualValues(t, 2, out["redactions"], "the prose password and the token")
	require.NotContains(t, out["context"].(map[string]any)["text"], fakeGitHub, "the next context shows what was stored")

	log := e.logText(t, "r")
	for _, s := range []string{fakeAnthropic, fakeGitHub, fakeJWT, "hunter2"} {
		require.NotContains(t, log, s)
	}
	require.Contains(t, log, "[REDACTED:jwt]")

	// after-turn cannot switch redaction off, whoever asks.
	status, out = e.do(t, "POST", "/v1/spaces/r/context/after-turn", `{"session_id":"s1",
		"events":[{"type":"redaction.configured","data":{"mode":"off"}}]}`)
	require.Equal(t, 400, status, out)
	require.Equal(t, "type", out["error"].(map[string]any)["details"].(map[string]any)["field"])
}

func TestHTTP_RedactionSwitchNeedsAnAdminToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)
	_, writeA, err := tokens.Create(ctx, []string{"a"}, auth.ScopeWrite, "")
	require.NoError(t, err)
	_, adminB, err := tokens.Create(ctx, []string{"b"}, auth.ScopeAdmin, "")
	require.NoError(t, err)
	_, adminA, err := tokens.Create(ctx, []string{"a"}, auth.ScopeAdmin, "")
	require.NoError(t, err)
	do := func(token, body string) (int, string) {
		req, err := http.NewRequest("POST", srv.URL+"/v1/spaces/a/events", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	off := `{"type":"redaction.configured","data":{"mode":"off"}}`

	status, body := do(writeA, off)
	require.Equal(t, 403, status, body)
	require.Contains(t, body, `"field":"type"`)
	status, body = do(writeA, `{"events":[{"type":"note","content":"x"},`+off+`]}`)
	require.Equal(t, 403, status, body)
	require.Contains(t, body, `"field":"events[1].type"`)
	status, body = do(adminB, off)
	require.Equal(t, 403, status, "an admin of another space: %s", body)
	mode, err := store.RedactionMode(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, "on", mode)
	_, err = store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "a"})
	require.ErrorIs(t, err, eventloom.ErrNotFound, "nothing was appended")

	status, body = do(adminA, off)
	require.Equal(t, 201, status, body)
	status, body = do(writeA, `{"type":"note","content":"`+fakeAnthropic+`"}`)
	require.Equal(t, 201, status, body)
	require.Contains(t, body, `"redactions":0`)
	page, err := store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "a"})
	require.NoError(t, err)
	require.Equal(t, fakeAnthropic, page.Events[1].Content, "off, recorded by an admin, stores what was sent")
}

func TestHTTP_DocumentsStoppedInTheMiddleSayWhichAreIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t)
	_, err := e.db.AdminPool(t).Exec(ctx, `CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF NEW.content LIKE '%FAIL-HERE%' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$;
		CREATE TRIGGER test_fail BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION test_fail()`)
	require.NoError(t, err)
	status, out := e.do(t, "POST", "/v1/spaces/d/documents", `{"documents":[
		{"path":"a.txt","text":"alpha"},{"path":"b.txt","text":"beta FAIL-HERE"},{"path":"c.txt","text":"gamma"}]}`)
	require.Equal(t, 500, status, out)
	details := out["error"].(map[string]any)["details"].(map[string]any)
	require.EqualValues(t, 1, details["failed_index"])
	docs := details["documents"].([]any)
	require.Len(t, docs, 1)
	require.Equal(t, "a.txt", docs[0].(map[string]any)["document_id"])
	require.NotContains(t, out["error"].(map[string]any)["message"], "injected", "internal causes stay in the log")
	require.Equal(t, 1, e.count(t))
}
