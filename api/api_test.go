package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/testcontainers"
)

type env struct {
	url string
	db  *testcontainers.Database
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	client, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{MaxBodyBytes: 64 << 10, MaxBatch: 10}, api.Services{Pool: pool, Store: store}, nil))
	t.Cleanup(srv.Close)
	return &env{url: srv.URL, db: db}
}

func (e *env) do(t *testing.T, method, path, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out), string(b))
	return resp.StatusCode, out
}

func (e *env) count(t *testing.T) int {
	var n int
	require.NoError(t, e.db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM events`).Scan(&n))
	return n
}

func TestHTTP_AppendReplayVerify(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/s1/events", `{"type":"message","content":"hi","session_id":"a","data":{"role":"user"}}`)
	require.Equal(t, 201, status, out)
	require.NotContains(t, out, "consistency", "without standbys a write answers no consistency token")
	evs := out["events"].([]any)
	require.EqualValues(t, 1, evs[0].(map[string]any)["seq"])
	status, out = e.do(t, "POST", "/v1/spaces/s1/events", `{"events":[{"type":"message","content":"x","data":{"role":"user"}},{"type":"task.updated","data":{"task_id":"1","status":"open"}}]}`)
	require.Equal(t, 201, status, out)
	status, out = e.do(t, "GET", "/v1/spaces/s1/events?limit=2", "")
	require.Equal(t, 200, status)
	require.Len(t, out["events"], 2)
	require.EqualValues(t, 2, out["next_after_seq"])
	status, out = e.do(t, "GET", "/v1/spaces/s1/events?session_id=a", "")
	require.Equal(t, 200, status)
	require.Len(t, out["events"], 1)
	for _, m := range []string{"go", "sql"} {
		status, out = e.do(t, "GET", "/v1/spaces/s1/verify?method="+m, "")
		require.Equal(t, 200, status)
		require.Equal(t, true, out["ok"])
	}
	status, out = e.do(t, "GET", "/healthz", "")
	require.Equal(t, 200, status)
	status, out = e.do(t, "GET", "/readyz", "")
	require.Equal(t, 200, status, out)

	_, err := e.db.AdminPool(t).Exec(context.Background(), `SET session_replication_role = replica; UPDATE events SET content = 'forged' WHERE seq = 2`)
	require.NoError(t, err)
	status, out = e.do(t, "GET", "/v1/spaces/s1/verify", "")
	require.Equal(t, 200, status)
	require.Equal(t, false, out["ok"])
	require.EqualValues(t, 2, out["broken_seq"])
}

func TestHTTP_Idempotency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := `{"type":"note","content":"once"}`
	s1, a := e.do(t, "POST", "/v1/spaces/s/events", body, "Idempotency-Key", "k")
	s2, b := e.do(t, "POST", "/v1/spaces/s/events", body, "Idempotency-Key", "k")
	require.Equal(t, 201, s1)
	require.Equal(t, 200, s2)
	require.Equal(t, a["events"], b["events"])
	s3, c := e.do(t, "POST", "/v1/spaces/s/events", `{"type":"note","content":"other"}`, "Idempotency-Key", "k")
	require.Equal(t, 409, s3)
	require.Equal(t, "idempotency_conflict", c["error"].(map[string]any)["code"])
	require.Equal(t, 1, e.count(t))
}

func TestHTTP_BadInputIsRejectedAndNothingAppended(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := fmt.Sprintf(`{"type":"note","content":%q}`, strings.Repeat("x", 70<<10))
	many := `{"events":[` + strings.TrimSuffix(strings.Repeat(`{"type":"note"},`, 11), ",") + `]}`
	cases := []struct {
		name, path, body string
		status           int
		field            string
	}{
		{"invalid json", "/v1/spaces/s/events", `{"type":`, 400, ""},
		{"unknown field", "/v1/spaces/s/events", `{"type":"note","seq":5}`, 400, "seq"},
		{"missing type", "/v1/spaces/s/events", `{"content":"x"}`, 400, "type"},
		{"bad type", "/v1/spaces/s/events", `{"type":"Message"}`, 400, "type"},
		{"bad space", "/v1/spaces/Bad_Space/events", `{"type":"note"}`, 400, "space"},
		{"data not object", "/v1/spaces/s/events", `{"type":"note","data":[1]}`, 400, "data"},
		{"occurred_at not rfc3339", "/v1/spaces/s/events", `{"type":"note","occurred_at":"yesterday"}`, 400, "occurred_at"},
		{"body too large", "/v1/spaces/s/events", big, 413, ""},
		{"batch too large", "/v1/spaces/s/events", many, 413, "events"},
		{"one bad event in batch", "/v1/spaces/s/events", `{"events":[{"type":"note"},{"type":"note","data":"x"}]}`, 400, "events[1].data"},
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
	status, out := e.do(t, "GET", "/v1/spaces/s/verify", "")
	require.Equal(t, 200, status, "a space with no events has an empty, intact chain")
	require.Equal(t, true, out["ok"])
	require.EqualValues(t, 0, out["events"])
}
