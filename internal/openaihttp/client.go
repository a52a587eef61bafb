// Package openaihttp posts JSON to servers speaking the OpenAI-compatible HTTP API (OpenAI,
// Ollama, vLLM, TEI, ...) with per-attempt timeouts and retries: 429 (honouring Retry-After),
// 5xx and transport errors are retried with exponential backoff and jitter; other 4xx are
// not. It knows nothing about the payloads.
package openaihttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Client posts JSON requests.
type Client struct {
	// BaseURL is the API root, e.g. http://localhost:11434/v1.
	BaseURL string
	// APIKey, when set, is sent as a bearer token.
	APIKey string
	// Timeout bounds each attempt (the request and reading its response).
	Timeout time.Duration
	// MaxRetries is how many times a retryable failure is retried; zero or negative: never.
	MaxRetries int
	// MaxResponseBytes bounds a response body; a longer one fails with ErrResponseTooLarge
	// and is not retried. Default 64 MiB.
	MaxResponseBytes int64
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Sleep waits before a retry: d, or until ctx is done (then it returns ctx's error). Nil
	// means the package's Sleep; tests replace it to observe the backoff without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
}

// StatusError is a non-2xx answer, with the server's own message.
type StatusError struct {
	Status  int
	Message string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("server answered %d %s: %s", e.Status, http.StatusText(e.Status), e.Message)
}

// ErrResponseTooLarge is a 2xx response longer than the client's MaxResponseBytes.
var ErrResponseTooLarge = errors.New("response too large")

const (
	// BackoffBase is the first retry's backoff: retry n (from 0) waits a random duration in
	// [d/2, d], d = BackoffBase·2ⁿ capped at 30s, unless the server's Retry-After says how long.
	BackoffBase             = 500 * time.Millisecond
	backoffCap              = 30 * time.Second
	maxRetryAfter           = 2 * time.Minute
	defaultMaxResponseBytes = 64 << 20
)

// PostJSON posts req as JSON to BaseURL+path and returns the 2xx response body. A failure
// after retries says how many attempts were made.
func (c *Client) PostJSON(ctx context.Context, path string, req any) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	url := strings.TrimRight(c.BaseURL, "/") + path
	sleep := c.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	for attempt := 0; ; attempt++ {
		raw, wait, err := c.once(ctx, url, body)
		if err == nil {
			return raw, nil
		}
		var se *StatusError
		retryable := !errors.Is(err, ErrResponseTooLarge) &&
			(!errors.As(err, &se) || se.Status == http.StatusTooManyRequests || se.Status >= 500)
		if !retryable || attempt >= c.MaxRetries || ctx.Err() != nil {
			if retryable && attempt > 0 {
				err = fmt.Errorf("after %d attempts: %w", attempt+1, err)
			}
			return nil, fmt.Errorf("POST %s: %w", url, err)
		}
		if wait == 0 {
			wait = backoff(attempt)
		}
		if serr := sleep(ctx, wait); serr != nil {
			return nil, fmt.Errorf("POST %s: %w (stopped waiting to retry: %w)", url, err, serr)
		}
	}
}

// once makes one attempt; wait is the server's Retry-After, if any.
func (c *Client) once(ctx context.Context, url string, body []byte) ([]byte, time.Duration, error) {
	actx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return nil, 0, fmt.Errorf("request timed out after %s: %w", c.Timeout, err)
		}
		return nil, 0, err
	}
	defer resp.Body.Close()
	limit := c.MaxResponseBytes
	if limit <= 0 {
		limit = defaultMaxResponseBytes
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return nil, 0, fmt.Errorf("response timed out after %s: %w", c.Timeout, err)
		}
		return nil, 0, fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()), &StatusError{Status: resp.StatusCode, Message: serverMessage(raw)}
	}
	if int64(len(raw)) > limit {
		return nil, 0, fmt.Errorf("%w: longer than %d bytes", ErrResponseTooLarge, limit)
	}
	return raw, 0, nil
}

// serverMessage extracts a readable message from an error body: OpenAI's
// {"error":{"message":...}}, TEI's {"error":"..."}, a top-level "message", or the text itself
// (cut at 300 bytes).
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var obj struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
			return obj.Message
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case v.Message != "":
			return v.Message
		}
	}
	s := strings.TrimSpace(string(body))
	if s == "" {
		return "(empty body)"
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date, capped at two minutes; 0 when
// absent, invalid or past.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
		if s <= 0 {
			return 0
		}
		return min(time.Duration(s)*time.Second, maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), maxRetryAfter)
	}
	return 0
}

// backoff is the wait before retry n (from 0): uniform in [d/2, d], d = BackoffBase·2ⁿ, capped.
func backoff(n int) time.Duration {
	d := min(BackoffBase<<min(n, 10), backoffCap)
	return d/2 + rand.N(d/2+1)
}

// Sleep waits d, or until ctx is done and then returns ctx's error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
