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
	// Timeout bounds each attempt.
	Timeout time.Duration
	// MaxRetries is how many times a retryable failure is retried.
	MaxRetries int
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// StatusError is a non-2xx answer, with the server's own message when it gave one.
type StatusError struct {
	Status  int
	Message string
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Message)
}

const (
	backoffBase      = 500 * time.Millisecond
	backoffCap       = 30 * time.Second
	maxRetryAfter    = 2 * time.Minute
	maxResponseBytes = 64 << 20
)

// PostJSON posts req as JSON to BaseURL+path and returns the 2xx response body.
func (c *Client) PostJSON(ctx context.Context, path string, req any) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	url := strings.TrimRight(c.BaseURL, "/") + path
	var lastErr error
	for attempt := 0; ; attempt++ {
		raw, wait, err := c.once(ctx, url, body)
		if err == nil {
			return raw, nil
		}
		lastErr = err
		var se *StatusError
		retryable := !errors.As(err, &se) || se.Status == http.StatusTooManyRequests || se.Status >= 500
		if !retryable || attempt >= c.MaxRetries || ctx.Err() != nil {
			break
		}
		if wait == 0 {
			wait = backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w (last error: %v)", ctx.Err(), lastErr)
		case <-t.C:
		}
	}
	return nil, fmt.Errorf("POST %s: %w", url, lastErr)
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
			return nil, 0, fmt.Errorf("timed out after %s: %w", c.Timeout, err)
		}
		return nil, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, 0, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, retryAfter(resp.Header.Get("Retry-After")), &StatusError{Status: resp.StatusCode, Message: serverMessage(raw)}
	}
	return raw, 0, nil
}

// serverMessage extracts {"error":{"message":...}} or {"error":"..."} or a short body.
func serverMessage(body []byte) string {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(v.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(v.Error, &s) == nil {
			return s
		}
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return min(time.Duration(n)*time.Second, maxRetryAfter)
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(t), 0), maxRetryAfter)
	}
	return 0
}

// backoff is a random duration in [d/2, d] with d = base·2ⁿ, capped.
func backoff(n int) time.Duration {
	d := backoffBase << min(n, 10)
	if d > backoffCap {
		d = backoffCap
	}
	return d/2 + rand.N(d/2+1)
}
