package embedding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/internal/openaihttp"
)

// standIn is an OpenAI-compatible embeddings server for tests. Each request is answered by
// the next entry of script (the last one repeats); an entry returning nil answers normally:
// the text "t<n>" embeds as [n, 1, 0, ...] and data comes back in reverse order.
type standIn struct {
	t      *testing.T
	dims   int
	script []func(w http.ResponseWriter, r *http.Request, req embeddingsRequest) bool

	mu       sync.Mutex
	requests []embeddingsRequest
	headers  []http.Header
}

func newStandIn(t *testing.T, dims int, script ...func(w http.ResponseWriter, r *http.Request, req embeddingsRequest) bool) (*standIn, *httptest.Server) {
	s := &standIn{t: t, dims: dims, script: script}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func (s *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	var req embeddingsRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	s.headers = append(s.headers, r.Header.Clone())
	s.mu.Unlock()
	if len(s.script) > 0 {
		if s.script[min(n, len(s.script)-1)](w, r, req) {
			return
		}
	}
	writeJSON(w, okResponse(req, s.dims))
}

func (s *standIn) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

type respItem struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

// okResponse embeds "t<n>" as [n, 1, 0...], listing the data in reverse order.
func okResponse(req embeddingsRequest, dims int) map[string]any {
	items := make([]respItem, 0, len(req.Input))
	for i := len(req.Input) - 1; i >= 0; i-- {
		v := make([]float32, dims)
		n, _ := strconv.Atoi(strings.TrimPrefix(req.Input[i], "t"))
		v[0], v[1] = float32(n), 1
		items = append(items, respItem{Object: "embedding", Index: i, Embedding: v})
	}
	return map[string]any{"object": "list", "data": items, "model": req.Model}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func status(code int, body string, header ...string) func(http.ResponseWriter, *http.Request, embeddingsRequest) bool {
	return func(w http.ResponseWriter, _ *http.Request, _ embeddingsRequest) bool {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
		return true
	}
}

func ok() func(http.ResponseWriter, *http.Request, embeddingsRequest) bool {
	return func(http.ResponseWriter, *http.Request, embeddingsRequest) bool { return false }
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("t%d", i)
	}
	return out
}

// newTestOpenAI returns a client for srv whose backoff waits are recorded, not slept.
func newTestOpenAI(t *testing.T, srv *httptest.Server, mod func(*OpenAIConfig)) (*OpenAI, *[]time.Duration) {
	t.Helper()
	cfg := OpenAIConfig{BaseURL: srv.URL + "/v1/", Model: "test-embed", Dimensions: 4}
	if mod != nil {
		mod(&cfg)
	}
	o, err := NewOpenAI(cfg)
	require.NoError(t, err)
	var waits []time.Duration
	o.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	return o, &waits
}

func TestOpenAI_BatchesKeepOrder(t *testing.T) {
	s, srv := newStandIn(t, 4)
	o, _ := newTestOpenAI(t, srv, func(c *OpenAIConfig) { c.BatchSize = 64 })
	require.Equal(t, "test-embed@1", o.Model())
	require.Equal(t, 4, o.Dimensions())

	vs, err := o.Embed(context.Background(), texts(150))
	require.NoError(t, err)
	require.Len(t, vs, 150)
	for i, v := range vs {
		require.Equal(t, []float32{float32(i), 1, 0, 0}, v, "vector %d", i)
	}
	require.Equal(t, 3, s.count())
	for i, want := range []int{64, 64, 22} {
		req := s.requests[i]
		require.Len(t, req.Input, want, "request %d", i)
		require.Equal(t, "test-embed", req.Model)
		require.Equal(t, "float", req.EncodingFormat)
		require.Equal(t, fmt.Sprintf("t%d", i*64), req.Input[0])
		require.Equal(t, "application/json", s.headers[i].Get("Content-Type"))
	}
}

func TestOpenAI_NoTextsNoRequest(t *testing.T) {
	s, srv := newStandIn(t, 4)
	o, _ := newTestOpenAI(t, srv, nil)
	vs, err := o.Embed(context.Background(), nil)
	require.NoError(t, err)
	require.Empty(t, vs)
	require.Zero(t, s.count())
}

func TestOpenAI_APIKeySentAsBearer(t *testing.T) {
	s, srv := newStandIn(t, 4)
	withKey, _ := newTestOpenAI(t, srv, func(c *OpenAIConfig) { c.APIKey = "sk-test-123" })
	_, err := withKey.Embed(context.Background(), texts(1))
	require.NoError(t, err)
	noKey, _ := newTestOpenAI(t, srv, nil)
	_, err = noKey.Embed(context.Background(), texts(1))
	require.NoError(t, err)
	require.Equal(t, "Bearer sk-test-123", s.headers[0].Get("Authorization"))
	require.Empty(t, s.headers[1].Get("Authorization"))
}

func TestOpenAI_Retries(t *testing.T) {
	tests := []struct {
		name         string
		script       []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool
		maxRetries   int
		wantRequests int
		wantErr      string // empty: success
		checkWaits   func(t *testing.T, waits []time.Duration)
	}{
		{
			name:         "500 then success is retried after a backoff",
			script:       []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool{status(500, "boom"), ok()},
			wantRequests: 2,
			checkWaits: func(t *testing.T, waits []time.Duration) {
				require.Len(t, waits, 1)
				require.GreaterOrEqual(t, waits[0], openaihttp.BackoffBase/2)
				require.LessOrEqual(t, waits[0], openaihttp.BackoffBase)
			},
		},
		{
			name: "429 with Retry-After waits as told",
			script: []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool{
				status(429, `{"error":{"message":"slow down"}}`, "Retry-After", "3"), ok(),
			},
			wantRequests: 2,
			checkWaits: func(t *testing.T, waits []time.Duration) {
				require.Equal(t, []time.Duration{3 * time.Second}, waits)
			},
		},
		{
			name: "backoff grows exponentially",
			script: []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool{
				status(502, "bad gateway"), status(503, "unavailable"), status(504, "timeout"), ok(),
			},
			wantRequests: 4,
			checkWaits: func(t *testing.T, waits []time.Duration) {
				require.Len(t, waits, 3)
				for i, w := range waits {
					require.GreaterOrEqual(t, w, (openaihttp.BackoffBase<<i)/2, "wait %d", i)
					require.LessOrEqual(t, w, openaihttp.BackoffBase<<i, "wait %d", i)
				}
			},
		},
		{
			name:         "400 is not retried and carries the server's message",
			script:       []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool{status(400, `{"error":{"message":"input is too long for this model","type":"invalid_request_error"}}`)},
			wantRequests: 1,
			wantErr:      "400 Bad Request: input is too long for this model",
		},
		{
			name:         "401 plain-text body is not retried",
			script:       []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool{status(401, "invalid api key")},
			wantRequests: 1,
			wantErr:      "401 Unauthorized: invalid api key",
		},
		{
			name:         "5xx gives up after MaxRetries",
			script:       []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool{status(500, `{"error":"model not loaded"}`)},
			maxRetries:   2,
			wantRequests: 3,
			wantErr:      "after 3 attempts: server answered 500 Internal Server Error: model not loaded",
		},
		{
			name:         "negative MaxRetries disables retries",
			script:       []func(http.ResponseWriter, *http.Request, embeddingsRequest) bool{status(503, "busy")},
			maxRetries:   -1,
			wantRequests: 1,
			wantErr:      "503 Service Unavailable: busy",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, srv := newStandIn(t, 4, tt.script...)
			o, waits := newTestOpenAI(t, srv, func(c *OpenAIConfig) { c.MaxRetries = tt.maxRetries })
			vs, err := o.Embed(context.Background(), texts(3))
			require.Equal(t, tt.wantRequests, s.count())
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				require.Nil(t, vs)
				return
			}
			require.NoError(t, err)
			require.Len(t, vs, 3)
			if tt.checkWaits != nil {
				tt.checkWaits(t, *waits)
			}
		})
	}
}

func TestOpenAI_TimeoutIsReported(t *testing.T) {
	hang := func(w http.ResponseWriter, r *http.Request, _ embeddingsRequest) bool {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
		return true
	}
	s, srv := newStandIn(t, 4, hang)
	o, waits := newTestOpenAI(t, srv, func(c *OpenAIConfig) {
		c.Timeout = 50 * time.Millisecond
		c.MaxRetries = 1
	})
	start := time.Now()
	_, err := o.Embed(context.Background(), texts(2))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "timed out after 50ms")
	require.Less(t, time.Since(start), 3*time.Second)
	require.Equal(t, 2, s.count(), "a timeout is a transport error and is retried")
	require.Len(t, *waits, 1)
}

func TestOpenAI_CanceledContextStopsRetrying(t *testing.T) {
	s, srv := newStandIn(t, 4, status(500, "boom"))
	o, _ := newTestOpenAI(t, srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	o.sleep = func(ctx context.Context, d time.Duration) error {
		cancel()
		return openaihttp.Sleep(ctx, d)
	}
	_, err := o.Embed(ctx, texts(1))
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorContains(t, err, "500 Internal Server Error: boom")
	require.Equal(t, 1, s.count())
}

func TestOpenAI_BadResponses(t *testing.T) {
	body := func(s string) func(http.ResponseWriter, *http.Request, embeddingsRequest) bool {
		return status(200, s, "Content-Type", "application/json")
	}
	respond := func(f func(req embeddingsRequest) map[string]any) func(http.ResponseWriter, *http.Request, embeddingsRequest) bool {
		return func(w http.ResponseWriter, _ *http.Request, req embeddingsRequest) bool {
			writeJSON(w, f(req))
			return true
		}
	}
	tests := []struct {
		name         string
		answer       func(http.ResponseWriter, *http.Request, embeddingsRequest) bool
		dimMismatch  bool
		wantContains string
	}{
		{"wrong dimension", respond(func(req embeddingsRequest) map[string]any { return okResponse(req, 3) }),
			true, "has 3 dimensions, want 4"},
		{"too few vectors", respond(func(req embeddingsRequest) map[string]any {
			return okResponse(embeddingsRequest{Input: req.Input[:1]}, 4)
		}), false, "1 embeddings for 2 texts"},
		{"too many vectors", respond(func(req embeddingsRequest) map[string]any {
			return okResponse(embeddingsRequest{Input: append(req.Input, "t9")}, 4)
		}), false, "3 embeddings for 2 texts"},
		{"garbage JSON", body(`{"data": [ this is not json`), false, "decode JSON"},
		{"HTML instead of JSON", body(`<html>gateway</html>`), false, "decode JSON"},
		{"base64 instead of floats", body(`{"data":[{"index":0,"embedding":"AAAA"},{"index":1,"embedding":"AAAA"}]}`),
			false, "decode JSON"},
		{"NaN", body(`{"data":[{"index":0,"embedding":[NaN,0,0,0]},{"index":1,"embedding":[0,0,0,0]}]}`),
			false, "decode JSON"},
		{"overflowing value", body(`{"data":[{"index":0,"embedding":[1e300,0,0,0]},{"index":1,"embedding":[0,0,0,0]}]}`),
			false, "decode JSON"},
		{"index out of range", body(`{"data":[{"index":0,"embedding":[0,0,0,0]},{"index":2,"embedding":[0,0,0,0]}]}`),
			false, "index 2 out of range"},
		{"negative index", body(`{"data":[{"index":-1,"embedding":[0,0,0,0]},{"index":1,"embedding":[0,0,0,0]}]}`),
			false, "index -1 out of range"},
		{"repeated index", body(`{"data":[{"index":1,"embedding":[0,0,0,0]},{"index":1,"embedding":[0,0,0,0]}]}`),
			false, "index 1 appears twice"},
		{"missing index", body(`{"data":[{"embedding":[0,0,0,0]},{"index":1,"embedding":[0,0,0,0]}]}`),
			false, "data[0] has no index"},
		{"no data", body(`{"object":"list"}`), false, "0 embeddings for 2 texts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, srv := newStandIn(t, 4, tt.answer)
			o, _ := newTestOpenAI(t, srv, nil)
			vs, err := o.Embed(context.Background(), texts(2))
			require.ErrorIs(t, err, ErrBadResponse)
			require.Equal(t, tt.dimMismatch, errors.Is(err, ErrDimensionMismatch))
			require.ErrorContains(t, err, tt.wantContains)
			require.Nil(t, vs)
			require.Equal(t, 1, s.count(), "a bad response is not retried")
		})
	}
}

func TestOpenAIConfig_DefaultsAndValidation(t *testing.T) {
	d := OpenAIConfig{BaseURL: "http://localhost:11434/v1", Model: "nomic-embed-text", Dimensions: 768}.WithDefaults()
	require.Equal(t, "1", d.Version)
	require.Equal(t, 64, d.BatchSize)
	require.Equal(t, 30*time.Second, d.Timeout)
	require.Equal(t, 4, d.MaxRetries)
	require.NotNil(t, d.HTTPClient)

	tests := []struct {
		name  string
		mod   func(*OpenAIConfig)
		field string
	}{
		{"no base URL", func(c *OpenAIConfig) { c.BaseURL = "" }, "BaseURL"},
		{"relative base URL", func(c *OpenAIConfig) { c.BaseURL = "localhost:11434/v1" }, "BaseURL"},
		{"ftp base URL", func(c *OpenAIConfig) { c.BaseURL = "ftp://example.com/v1" }, "BaseURL"},
		{"no model", func(c *OpenAIConfig) { c.Model = " " }, "Model"},
		{"version with @", func(c *OpenAIConfig) { c.Version = "2@x" }, "Version"},
		{"no dimensions", func(c *OpenAIConfig) { c.Dimensions = 0 }, "Dimensions"},
		{"negative batch size", func(c *OpenAIConfig) { c.BatchSize = -1 }, "BatchSize"},
		{"negative timeout", func(c *OpenAIConfig) { c.Timeout = -time.Second }, "Timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := OpenAIConfig{BaseURL: "http://localhost:11434/v1", Model: "nomic-embed-text", Dimensions: 768}
			tt.mod(&cfg)
			_, err := NewOpenAI(cfg)
			require.ErrorContains(t, err, "OpenAIConfig."+tt.field)
		})
	}
}
