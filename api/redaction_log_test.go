package api_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// Secrets a client puts in a URL path (a subagent id, an item id), its X-Request-Id or its
// Idempotency-Key never reach the server log: every line is redacted before it is written.
func TestHTTP_ServerLogRedactsPathsRequestIDsAndHeaders(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	var logs syncBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	pool := db.AppPool(t)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil)}, logger))
	t.Cleanup(srv.Close)

	send := func(method, path, body string, header ...string) int {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		require.NoError(t, resp.Body.Close())
		return resp.StatusCode
	}
	send("POST", "/v1/spaces/logs/subagents/"+fakeGitHub+"/cleanup", `{"session_id":"s1","outcome":"done"}`,
		"Idempotency-Key", "key-"+fakeAnthropic, "X-Request-Id", "req-"+fakeJWT)
	send("POST", "/v1/spaces/logs/events", `{"type":"note","content":"x"}`, "Idempotency-Key", "password="+"hunter22-key")
	send("GET", "/v1/spaces/logs/items/"+fakeAnthropic, "")
	send("GET", "/v1/no-such-route/password=hunter22-path", "")

	lines := logs.lines(t)
	require.NotEmpty(t, lines)
	all, err := json.Marshal(lines)
	require.NoError(t, err)
	for _, secret := range []string{fakeGitHub, fakeAnthropic, fakeJWT, "hunter22-key", "hunter22-path"} {
		require.NotContains(t, string(all), secret)
	}
	require.Contains(t, string(all), "/v1/spaces/logs/subagents/[REDACTED:github_token]/cleanup", "the path is logged, redacted")
	require.Contains(t, string(all), "req-[REDACTED:jwt]", "the request id is logged, redacted")
}

// Six adversarial 1 MiB bodies at once, through a server set up as zaxy serve sets it up (its
// write timeout 30 s past the request deadline): every client gets an answer, the append
// (201) or 503 request_timeout, never a connection closed without a response. Redaction
// was 3-8 s per such body and ignored the deadline, so the server closed the connections.
func TestHTTP_AdversarialBodiesGetAnAnswer(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	cfg := api.Config{MaxBodyBytes: 2 << 20, RequestTimeout: time.Second}
	srv := httptest.NewUnstartedServer(apitest.NewHandler(t, cfg, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil)}, nil))
	srv.Config.ReadHeaderTimeout = 10 * time.Second
	srv.Config.ReadTimeout = cfg.RequestTimeout
	srv.Config.WriteTimeout = cfg.RequestTimeout + 30*time.Second
	srv.Start()
	t.Cleanup(srv.Close)

	bodies := []string{
		strings.Repeat(strings.Repeat("sk-", 341)+`\n`, 1000),
		strings.Repeat(strings.Repeat("https://", 127)+`\n`, 1000),
		strings.Repeat(strings.Repeat("eyJ-", 255)+`\n`, 1000),
	}
	var wg sync.WaitGroup
	type answer struct {
		status int
		code   string
		err    error
	}
	answers := make([]answer, 6)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := `{"type":"note","content":"` + bodies[i%len(bodies)] + `"}`
			resp, err := http.Post(srv.URL+"/v1/spaces/adv/events", "application/json", strings.NewReader(body))
			if err != nil {
				answers[i] = answer{err: err}
				return
			}
			defer resp.Body.Close()
			var out struct {
				Error struct {
					Code string `json:"code"`
				} `json:"error"`
			}
			answers[i] = answer{status: resp.StatusCode, err: json.NewDecoder(resp.Body).Decode(&out), code: out.Error.Code}
		}()
	}
	wg.Wait()
	for i, a := range answers {
		require.NoError(t, a.err, "request %d got no answer", i)
		if a.status != http.StatusCreated {
			require.Equal(t, http.StatusServiceUnavailable, a.status, "request %d", i)
			require.Equal(t, "request_timeout", a.code, "request %d", i)
		}
	}
}
