package api_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines(t *testing.T) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(s.b.Bytes()))
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "every log line is JSON: %s", sc.Text())
		out = append(out, m)
	}
	return out
}

func TestHTTP_LogsAreJSONWithTheRequestID(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	pool := db.AppPool(t)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil)}, logger))
	t.Cleanup(srv.Close)

	send := func(method, path, body, id string) *http.Response {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if id != "" {
			req.Header.Set("X-Request-Id", id)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		return resp
	}
	resp := send("POST", "/v1/spaces/logs/events", `{"type":"note","content":"hello"}`, "client-id-1")
	require.Equal(t, 201, resp.StatusCode)
	require.Equal(t, "client-id-1", resp.Header.Get("X-Request-Id"), "the client's id is echoed")
	resp = send("POST", "/v1/spaces/logs/events", `{"type":""}`, "")
	require.Equal(t, 400, resp.StatusCode)
	generated := resp.Header.Get("X-Request-Id")
	require.NotEmpty(t, generated, "without one, the server makes an id and returns it")

	byID := map[string]map[string]any{}
	for _, l := range logs.lines(t) {
		if l["msg"] == "request" {
			byID[l["request_id"].(string)] = l
		}
	}
	first := byID["client-id-1"]
	require.NotNil(t, first, "a request line carries the client's id: %v", byID)
	require.Equal(t, "/v1/spaces/{space}/events", first["route"])
	require.Equal(t, float64(201), first["status"])
	require.Equal(t, "INFO", first["level"])
	require.Contains(t, first, "duration_ms")
	second := byID[generated]
	require.NotNil(t, second, "a request line carries the generated id")
	require.Equal(t, float64(400), second["status"])
}
