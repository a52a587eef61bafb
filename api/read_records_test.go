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
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// secretSession is a session id holding a GitHub token, which no record of a read may keep.
const secretSession = "sess-ghp_abcdefghijklmnopqrstuvwxyz0123456789"

// readRecord is the actor and session of the last event of type typ in space.
func readRecord(t *testing.T, db *testcontainers.Database, space, typ string) (actor, session string) {
	t.Helper()
	require.NoError(t, db.AdminPool(t).QueryRow(context.Background(),
		`SELECT actor, session_id FROM events WHERE space_id = $1 AND type = $2 ORDER BY seq DESC LIMIT 1`, space, typ).Scan(&actor, &session))
	return actor, session
}

// A read token's records (checkout.surfaced, memory_action.surfaced) name the token as their
// actor, whatever the caller claims, and carry its session id redacted; a session id past 256
// characters is refused naming session_id.
func TestHTTP_ReadRecordsNameTheTokenNotTheCaller(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)
	tok, read, err := tokens.Create(ctx, []string{"a"}, auth.ScopeRead, "reader")
	require.NoError(t, err)
	fixture.Append(t, store, "a", eventloom.NewEvent{Type: "note", Content: "the deploy runs on Fridays"})
	do := func(path, body string) (int, string) {
		req, err := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+read)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	want := "token/" + tok.ID

	status, body := do("/v1/spaces/a/checkout", `{"query":"deploy","session_id":"`+secretSession+`"}`)
	require.Equal(t, 200, status, body)
	actor, session := readRecord(t, db, "a", "checkout.surfaced")
	require.Equal(t, want, actor)
	require.NotContains(t, session, "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	require.Contains(t, session, "[REDACTED")

	status, body = do("/v1/spaces/a/weave", `{"goal":"deploy","session_id":"s1"}`)
	require.Equal(t, 200, status, body)
	actor, _ = readRecord(t, db, "a", "checkout.surfaced")
	require.Equal(t, want, actor)

	status, body = do("/v1/spaces/a/actions/retrieve-procedure-prior",
		`{"goal":"deploy","actor":"admin (verified by security team)","session_id":"`+secretSession+`"}`)
	require.Equal(t, 200, status, body)
	actor, session = readRecord(t, db, "a", "memory_action.surfaced")
	require.Equal(t, want, actor, "the body's actor is not who asked")
	require.NotContains(t, session, "ghp_abcdefghijklmnopqrstuvwxyz0123456789")

	status, body = do("/v1/spaces/a/actions/reflect-backward", `{"session_id":"s1","actor":"admin (verified by security team)"}`)
	require.Equal(t, 200, status, body)
	actor, _ = readRecord(t, db, "a", "memory_action.surfaced")
	require.Equal(t, want, actor)

	status, body = do("/v1/spaces/a/checkout", `{"query":"deploy","session_id":"`+strings.Repeat("s", 257)+`"}`)
	require.Equal(t, 400, status, body)
	require.Contains(t, body, `"field":"session_id"`)
}

// With auth off there is no token: a checkout's record names "zaxy" and a memory action's the
// caller's actor (default "agent"), as every event's actor is then the caller's word.
func TestHTTP_ReadRecordsWithAuthOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/a/events", `{"type":"note","content":"the deploy runs on Fridays"}`)
	require.Equal(t, 201, status, out)
	status, out = e.do(t, "POST", "/v1/spaces/a/checkout", `{"query":"deploy","session_id":"s1"}`)
	require.Equal(t, 200, status, out)
	actor, _ := readRecord(t, e.db, "a", "checkout.surfaced")
	require.Equal(t, "zaxy", actor)
	status, out = e.do(t, "POST", "/v1/spaces/a/actions/retrieve-procedure-prior", `{"goal":"deploy","actor":"planner"}`)
	require.Equal(t, 200, status, out)
	actor, _ = readRecord(t, e.db, "a", "memory_action.surfaced")
	require.Equal(t, "planner", actor)
}
