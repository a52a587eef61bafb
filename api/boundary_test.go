package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// boundaryServer is a real HTTP server for the API on loopback, with cfg's ListenAddr set to
// its own address (as zaxy serve sets it).
type boundaryServer struct {
	url, hostPort string
	db            *testcontainers.Database
}

func newBoundaryServer(t *testing.T, cfg api.Config, svc api.Services, logger *slog.Logger) *boundaryServer {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	srv := httptest.NewUnstartedServer(nil)
	cfg.ListenAddr = srv.Listener.Addr().String()
	svc.Pool, svc.Store = pool, eventloom.NewStore(pool, nil, nil)
	if svc.Auth != nil {
		svc.Auth = auth.NewStore(pool)
	}
	srv.Config.Handler = apitest.NewHandler(t, cfg, svc, logger)
	srv.Start()
	t.Cleanup(srv.Close)
	return &boundaryServer{url: srv.URL, hostPort: cfg.ListenAddr, db: db}
}

// send makes a request with the given headers ("Host" sets the Host header) and returns the
// status, the error code (if any) and the response headers.
func (b *boundaryServer) send(t *testing.T, method, path, body string, header map[string]string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, b.url+path, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out struct {
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if resp.StatusCode >= 400 {
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"), "error bodies are the API's JSON: %s", raw)
		require.NoError(t, json.Unmarshal(raw, &out), string(raw))
		if f, ok := out.Error.Details["field"].(string); ok {
			resp.Header.Set("X-Test-Field", f)
		}
	}
	return resp.StatusCode, out.Error.Code, resp.Header
}

func (b *boundaryServer) events(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, b.db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM events`).Scan(&n))
	return n
}

const jsonType = "application/json"

// TestHTTP_AuthOffRefusesWhatABrowserPageCouldSend covers the auth-off (make run) findings: a
// cross-site text/plain POST appended an event and a foreign Host got 200 (DNS rebinding).
func TestHTTP_AuthOffRefusesWhatABrowserPageCouldSend(t *testing.T) {
	t.Parallel()
	b := newBoundaryServer(t, api.Config{}, api.Services{}, nil)
	_, port, err := net.SplitHostPort(b.hostPort)
	require.NoError(t, err)
	note := `{"type":"note","content":"hi"}`
	refused := []struct {
		name, method, path string
		header             map[string]string
		status             int
		code               string
	}{
		{"text/plain simple POST", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": "text/plain"}, 415, "unsupported_media_type"},
		{"form simple POST", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "unsupported_media_type"},
		{"no Content-Type", "POST", "/v1/spaces/s/events", nil, 415, "unsupported_media_type"},
		{"json with another charset", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": "application/json; charset=latin1"}, 415, "unsupported_media_type"},
		{"DNS rebinding write", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": jsonType, "Host": "evil.example.com:" + port}, 403, "host_not_allowed"},
		{"DNS rebinding read", "GET", "/v1/spaces/s/events", map[string]string{"Host": "evil.example.com"}, 403, "host_not_allowed"},
		{"DNS rebinding metrics", "GET", "/metrics", map[string]string{"Host": "evil.example.com:" + port}, 403, "host_not_allowed"},
		{"loopback name, other port", "GET", "/v1/spaces/s/events", map[string]string{"Host": "localhost:1"}, 403, "host_not_allowed"},
		{"cross-site Origin", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": jsonType, "Origin": "https://evil.example.com"}, 403, "cross_site_request"},
		{"Origin on another loopback port", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": jsonType, "Origin": "http://localhost:3000"}, 403, "cross_site_request"},
		{"opaque Origin", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": jsonType, "Origin": "null"}, 403, "cross_site_request"},
		{"Sec-Fetch-Site cross-site", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": jsonType, "Sec-Fetch-Site": "cross-site"}, 403, "cross_site_request"},
		{"Sec-Fetch-Site same-site", "POST", "/v1/spaces/s/events", map[string]string{"Content-Type": jsonType, "Sec-Fetch-Site": "same-site"}, 403, "cross_site_request"},
		{"cross-site GET", "GET", "/v1/spaces/s/events", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross_site_request"},
	}
	for _, tc := range refused {
		body := ""
		if tc.method == "POST" {
			body = note
		}
		status, code, _ := b.send(t, tc.method, tc.path, body, tc.header)
		require.Equal(t, tc.status, status, tc.name)
		require.Equal(t, tc.code, code, tc.name)
	}
	require.Equal(t, 0, b.events(t), "nothing refused was appended")

	allowed := []struct {
		name   string
		header map[string]string
	}{
		{"curl: no Origin, no Sec-Fetch-Site", map[string]string{"Content-Type": jsonType}},
		{"json with utf-8 charset", map[string]string{"Content-Type": "Application/JSON; charset=UTF-8"}},
		{"Sec-Fetch-Site same-origin", map[string]string{"Content-Type": jsonType, "Sec-Fetch-Site": "same-origin", "Origin": "http://" + b.hostPort}},
		{"Sec-Fetch-Site none (typed in the address bar)", map[string]string{"Content-Type": jsonType, "Sec-Fetch-Site": "none"}},
		{"same Origin without Sec-Fetch-Site", map[string]string{"Content-Type": jsonType, "Origin": "http://" + b.hostPort}},
		{"Host localhost with the port", map[string]string{"Content-Type": jsonType, "Host": "localhost:" + port}},
		{"Host [::1] with the port", map[string]string{"Content-Type": jsonType, "Host": "[::1]:" + port}},
	}
	for _, tc := range allowed {
		status, code, _ := b.send(t, "POST", "/v1/spaces/s/events", note, tc.header)
		require.Equal(t, 201, status, "%s: %s", tc.name, code)
	}
	require.Equal(t, len(allowed), b.events(t))
	status, _, _ := b.send(t, "GET", "/v1/spaces/s/events", "", nil)
	require.Equal(t, 200, status, "a GET without a body needs no Content-Type")
}

// TestHTTP_AuthOnChecksTokensNotHost: with tokens, a reverse proxy may forward any Host, but
// bodies must still be JSON and cross-site requests are still refused.
func TestHTTP_AuthOnChecksTokensNotHost(t *testing.T) {
	t.Parallel()
	b := newBoundaryServer(t, api.Config{}, api.Services{Auth: auth.NewStore(nil)}, nil)
	_, token, err := auth.NewStore(b.db.AppPool(t)).Create(context.Background(), []string{"s"}, auth.ScopeWrite, "")
	require.NoError(t, err)
	note := `{"type":"note"}`
	status, code, _ := b.send(t, "POST", "/v1/spaces/s/events", note, map[string]string{"Host": "zaxy.example.com", "Authorization": "Bearer " + token, "Content-Type": jsonType})
	require.Equal(t, 201, status, code)
	status, code, _ = b.send(t, "POST", "/v1/spaces/s/events", note, map[string]string{"Authorization": "Bearer " + token, "Content-Type": "text/plain"})
	require.Equal(t, 415, status)
	require.Equal(t, "unsupported_media_type", code)
	status, code, _ = b.send(t, "POST", "/v1/spaces/s/events", note, map[string]string{"Content-Type": "text/plain"})
	require.Equal(t, 401, status, "without a token the answer is 401 whatever the body: %s", code)
	status, code, _ = b.send(t, "POST", "/v1/spaces/s/events", note, map[string]string{"Authorization": "Bearer " + token, "Content-Type": jsonType, "Sec-Fetch-Site": "cross-site"})
	require.Equal(t, 403, status)
	require.Equal(t, "cross_site_request", code)
	require.Equal(t, 1, b.events(t))
}

func TestHTTP_BearerSchemeIsCaseInsensitive(t *testing.T) {
	t.Parallel()
	b := newBoundaryServer(t, api.Config{}, api.Services{Auth: auth.NewStore(nil)}, nil)
	_, token, err := auth.NewStore(b.db.AppPool(t)).Create(context.Background(), []string{"s"}, auth.ScopeRead, "")
	require.NoError(t, err)
	for _, h := range []string{"Bearer " + token, "bearer " + token, "BEARER " + token, "bEaReR  " + token} {
		status, code, _ := b.send(t, "GET", "/v1/spaces/s/verify", "", map[string]string{"Authorization": h})
		require.NotEqual(t, 401, status, "%q: %s", h[:8], code)
	}
	for _, h := range []string{"Basic " + token, "Bearer", "Bearer" + token, token} {
		status, code, hdr := b.send(t, "GET", "/v1/spaces/s/verify", "", map[string]string{"Authorization": h})
		require.Equal(t, 401, status, h)
		require.Equal(t, "unauthorized", code)
		require.Contains(t, hdr.Get("WWW-Authenticate"), "Bearer")
	}
}

func TestHTTP_RequestIDIsKeptOnlyWhenShortAndPrintable(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	b := newBoundaryServer(t, api.Config{}, api.Services{}, slog.New(slog.NewJSONHandler(&logs, nil)))
	good := strings.Repeat("a", 128)
	_, _, hdr := b.send(t, "GET", "/healthz", "", map[string]string{"X-Request-Id": good})
	require.Equal(t, good, hdr.Get("X-Request-Id"), "128 printable characters are kept")
	_, _, hdr = b.send(t, "GET", "/healthz", "", map[string]string{"X-Request-Id": "trace-1/ok:7"})
	require.Equal(t, "trace-1/ok:7", hdr.Get("X-Request-Id"))

	bad := []string{strings.Repeat("b", 129), strings.Repeat("c", 10000), "has space", "tab\there", "caf\u00e9", "nul\x00x"}
	for _, id := range bad {
		req, err := http.NewRequest("GET", b.url+"/healthz", nil)
		require.NoError(t, err)
		req.Header["X-Request-Id"] = []string{id}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			continue // the client itself refuses some header values; nothing reached the server
		}
		require.NoError(t, resp.Body.Close())
		got := resp.Header.Get("X-Request-Id")
		require.NotEqual(t, id, got)
		require.NotEmpty(t, got, "a fresh id replaces the bad one")
		require.LessOrEqual(t, len(got), 128)
	}
	for _, l := range logs.lines(t) {
		id, _ := l["request_id"].(string)
		require.LessOrEqual(t, len(id), 128)
		for _, b := range bad {
			require.NotEqual(t, b, id, "a refused id is never logged")
		}
	}
}

func TestHTTP_ParametersPostgresCannotHoldAre400NamingThem(t *testing.T) {
	t.Parallel()
	b := newBoundaryServer(t, api.Config{}, api.Services{}, nil)
	status, _, _ := b.send(t, "POST", "/v1/spaces/s/events", `{"type":"note","content":"x"}`, map[string]string{"Content-Type": jsonType})
	require.Equal(t, 201, status)
	cases := []struct{ path, field string }{
		{"/v1/spaces/s/events?session_id=a%00b", "session_id"},
		{"/v1/spaces/s/events?session_id=%ff%fe", "session_id"},
		{"/v1/spaces/s/facts?entity=%c3%28", "entity"},
		{"/v1/spaces/s/timeline?session_id=%00", "session_id"},
		{"/v1/spaces/s/entities/a%00b", "entity"},
		{"/v1/spaces/s/entities/%ff", "entity"},
		{"/v1/spaces/s/items/%ff", "id"},
	}
	for _, tc := range cases {
		status, code, hdr := b.send(t, "GET", tc.path, "", nil)
		require.Equal(t, 400, status, tc.path)
		require.Equal(t, "invalid_request", code, tc.path)
		require.Equal(t, tc.field, hdr.Get("X-Test-Field"), tc.path)
	}
}

// TestHTTP_BodiesBreakingTheStrictRulesAre400NamingTheField runs the strict JSON rules through
// every kind of decoder: the event decoder, the ingest decoder and readJSON.
func TestHTTP_BodiesBreakingTheStrictRulesAre400NamingTheField(t *testing.T) {
	t.Parallel()
	b := newBoundaryServer(t, api.Config{}, api.Services{}, nil)
	cases := []struct{ path, body, field string }{
		{"/v1/spaces/s/events", `{"type":"note","data":{"n":1e1000000}}`, "data.n"},
		{"/v1/spaces/s/events", `{"type":"note","cues":{"n":1e-16384}}`, "cues.n"},
		{"/v1/spaces/s/events", `{"events":[{"type":"note"},{"type":"note","data":{"n":[123e131070]}}]}`, "events[1].data.n[0]"},
		{"/v1/spaces/s/events", `{"type":"note","type":"decision"}`, "type"},
		{"/v1/spaces/s/events", `{"type":"note","data":{"a":{"k":1,"k":2}}}`, "data.a.k"},
		{"/v1/spaces/s/events", "{\"type\":\"note\",\"content\":\"a\xffb\"}", "content"},
		{"/v1/spaces/s/events", "{\"type\":\"note\",\"data\":{\"s\":\"a\xffb\"}}", "data.s"},
		{"/v1/spaces/s/events", `{"type":"note","content":"\ud800"}`, "content"},
		{"/v1/spaces/s/documents", `{"documents":[{"path":"a.md","text":"x","text":"y"}]}`, "documents[0].text"},
		{"/v1/spaces/s/documents", "{\"documents\":[{\"path\":\"a\xff.md\",\"text\":\"x\"}]}", "documents[0].path"},
		{"/v1/spaces/s/transcripts", `{"turns":[{"role":"user","content":"\udc00"}]}`, "turns[0].content"},
		{"/v1/spaces/s/query", `{"query":"a\u0000b"}`, "query"},
		{"/v1/spaces/s/checkout", `{"query":"x","query":"y"}`, "query"},
		{"/v1/spaces/s/context/after-turn", `{"query":"x","events":[{"type":"note","data":{"n":1e999999999}}]}`, "events[0].data.n"},
		{"/v1/spaces/s/cypher", "{\"query\":\"MATCH (n) RETURN n\xc0\"}", "query"},
	}
	for _, tc := range cases {
		status, code, hdr := b.send(t, "POST", tc.path, tc.body, map[string]string{"Content-Type": jsonType})
		require.Equal(t, 400, status, "%s %s: %s", tc.path, tc.body, code)
		require.Equal(t, "invalid_request", code)
		require.Equal(t, tc.field, hdr.Get("X-Test-Field"), "%s %s", tc.path, tc.body)
	}
	require.Equal(t, 0, b.events(t), "nothing was appended")
	status, code, _ := b.send(t, "POST", "/v1/spaces/s/events", `{"type":"note","content":"\ud83d\ude00","data":{"n":1e131071,"m":1e-16383}}`, map[string]string{"Content-Type": jsonType})
	require.Equal(t, 201, status, "the largest numbers Postgres holds and surrogate pairs are fine: %s", code)
}

// TestHTTP_DatabaseUnreachableIs503 points a server at a port nothing listens on.
func TestHTTP_DatabaseUnreachableIs503(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	pool, err := pgxpool.New(context.Background(), "postgres://zaxy:zaxy@"+addr+"/zaxy?sslmode=disable&connect_timeout=2")
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	// No projector can be built without the database; erasure is never reached here.
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Erasure: erasure.New(pool, store, nil, nil)}, nil))
	t.Cleanup(srv.Close)
	b := &boundaryServer{url: srv.URL}
	start := time.Now()
	for _, req := range []struct{ method, path, body string }{
		{"POST", "/v1/spaces/s/events", `{"type":"note"}`},
		{"GET", "/v1/spaces/s/events", ""},
		{"POST", "/v1/spaces/s/query", `{"query":"x"}`},
	} {
		status, code, hdr := b.send(t, req.method, req.path, req.body, map[string]string{"Content-Type": jsonType})
		require.Equal(t, 503, status, "%s %s: %s", req.method, req.path, code)
		require.Equal(t, "database_unavailable", code)
		require.Equal(t, "5", hdr.Get("Retry-After"))
	}
	require.Less(t, time.Since(start), 10*time.Second)
}

// rawRequest writes head and body on a raw connection, optionally half-closes it, and returns
// the response's status line and body.
func rawRequest(t *testing.T, addr, head, body string, closeWrite bool) (string, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, head+"\r\n"+body)
	require.NoError(t, err)
	if closeWrite {
		require.NoError(t, conn.(*net.TCPConn).CloseWrite())
	}
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.Status, string(b)
}

// TestHTTP_TruncatedOrStalledBodiesAre4xxPromptly sends bodies shorter than their
// Content-Length over a raw TCP connection: closed early (400 body_incomplete) or left
// hanging (408 body_timeout after the idle timeout), never a 500 after the request deadline.
func TestHTTP_TruncatedOrStalledBodiesAre4xxPromptly(t *testing.T) {
	t.Parallel()
	b := newBoundaryServer(t, api.Config{BodyIdleTimeout: 300 * time.Millisecond}, api.Services{}, nil)
	body := `{"type":"note","content":"cut`
	for _, path := range []string{"/v1/spaces/s/events", "/v1/spaces/s/query", "/v1/spaces/s/documents"} {
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", path, b.hostPort, len(body)+100)

		start := time.Now()
		status, resp := rawRequest(t, b.hostPort, head, body, true)
		require.True(t, strings.HasPrefix(status, "400"), "%s closed early: %s %s", path, status, resp)
		require.Contains(t, resp, `"body_incomplete"`)
		require.Less(t, time.Since(start), 3*time.Second)

		start = time.Now()
		status, resp = rawRequest(t, b.hostPort, head, body, false)
		require.True(t, strings.HasPrefix(status, "408"), "%s stalled: %s %s", path, status, resp)
		require.Contains(t, resp, `"body_timeout"`)
		require.Less(t, time.Since(start), 3*time.Second)
	}
	require.Equal(t, 0, b.events(t))

	// A slow body that keeps arriving is not cut off by the idle timeout.
	conn, err := net.Dial("tcp", b.hostPort)
	require.NoError(t, err)
	defer conn.Close()
	full := `{"type":"note","content":"slow but steady"}`
	_, err = fmt.Fprintf(conn, "POST /v1/spaces/s/events HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", b.hostPort, len(full))
	require.NoError(t, err)
	for i := 0; i < len(full); i += 10 {
		time.Sleep(100 * time.Millisecond)
		_, err = io.WriteString(conn, full[i:min(i+10, len(full))])
		require.NoError(t, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 201, resp.StatusCode)
}

// TestHTTP_TerminatedBackendIs503 ends the server's own database connections (SQLSTATE
// 57P01, as in a restart) and expects 503 for a request that meets one, then recovery.
func TestHTTP_TerminatedBackendIs503(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	cfg, err := pgxpool.ParseConfig(db.AppURL)
	require.NoError(t, err)
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil)}, nil))
	t.Cleanup(srv.Close)
	b := &boundaryServer{url: srv.URL, db: db}
	note := map[string]string{"Content-Type": jsonType}
	status, _, _ := b.send(t, "POST", "/v1/spaces/s/events", `{"type":"note"}`, note)
	require.Equal(t, 201, status)
	var killed int
	require.NoError(t, db.AdminPool(t).QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND usename = $1) k`, testcontainers.TestAppRole).Scan(&killed))
	require.Equal(t, 1, killed)
	status, code, hdr := b.send(t, "GET", "/v1/spaces/s/events", "", nil)
	require.Equal(t, 503, status, code)
	require.Equal(t, "database_unavailable", code)
	require.Equal(t, "5", hdr.Get("Retry-After"))
	status, _, _ = b.send(t, "GET", "/v1/spaces/s/events", "", nil)
	require.Equal(t, 200, status, "the pool replaces the dead connection")
}

// TestHTTP_TricklingBodyEndsAtTheRequestTimeout: a client sending a byte just inside the idle
// timeout each time cannot hold the request past RequestTimeout.
func TestHTTP_TricklingBodyEndsAtTheRequestTimeout(t *testing.T) {
	t.Parallel()
	b := newBoundaryServer(t, api.Config{BodyIdleTimeout: 400 * time.Millisecond, RequestTimeout: time.Second}, api.Services{}, nil)
	conn, err := net.Dial("tcp", b.hostPort)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /v1/spaces/s/events HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", b.hostPort)
	require.NoError(t, err)
	start := time.Now()
	go func() {
		for range 20 {
			if _, err := io.WriteString(conn, " "); err != nil {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	require.Less(t, time.Since(start), 2500*time.Millisecond)
}
