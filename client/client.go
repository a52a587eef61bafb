package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls one Zaxy server. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	token     string
	http      *http.Client
	retry     RetryPolicy
	userAgent string
	// strict refuses answers with fields the result type lacks (tests: drift from the server).
	strict bool
	// consistency is the session's consistency token (consistency.go).
	consistency consistency
}

// Option configures a Client (New).
type Option func(*Client)

// WithToken sends token as the bearer token of every request (zaxy token create).
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithHTTPClient sends requests through hc instead of a client with a 60-second timeout.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithRetryPolicy replaces the default retry policy (DefaultRetryPolicy).
func WithRetryPolicy(p RetryPolicy) Option { return func(c *Client) { c.retry = p.withDefaults() } }

// WithUserAgent sets the User-Agent header. Defaults to "zaxy-go-client".
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// New returns a client of the server at baseURL (scheme and host, e.g. http://127.0.0.1:8080;
// a path prefix is kept, for a server mounted under one).
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("client: base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("client: base URL must be http(s)://host[:port], got %q", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	c := &Client{base: u, http: &http.Client{Timeout: 60 * time.Second}, retry: DefaultRetryPolicy, userAgent: "zaxy-go-client"}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// CallOption adjusts one call.
type CallOption func(*callOptions)

type callOptions struct {
	idempotencyKey string
	requestID      string
}

// WithIdempotencyKey sends key as the Idempotency-Key header (AppendEvents, AfterTurn): the
// server appends the events once however often the request arrives, answering a repeat with
// the original receipts. A call with a key is retried like a read.
func WithIdempotencyKey(key string) CallOption {
	return func(o *callOptions) { o.idempotencyKey = key }
}

// WithRequestID sends id as X-Request-Id; the server logs it and echoes it (Error.RequestID).
func WithRequestID(id string) CallOption { return func(o *callOptions) { o.requestID = id } }

// call is one API request as the methods describe it.
type call struct {
	method string
	// path is the escaped path under the base URL (segments built with pathOf).
	path  string
	query url.Values
	// body is encoded as JSON; nil sends none.
	body any
	// safe: repeating the request cannot change anything (a read, or deduplicated by the
	// server), so it is retried on 429, 503 and connection errors.
	safe bool
}

// pathOf joins segments into an escaped path: "/v1/spaces/" + space, and so on.
func pathOf(segments ...string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
}

// spacePath is the path of an operation on space: /v1/spaces/{space}/rest...
func spacePath(space string, rest ...string) string {
	return pathOf(append([]string{"v1", "spaces", space}, rest...)...)
}

// do sends cl, retrying as c.retry allows, and decodes a 2xx answer into out (a pointer to
// the result type, *string for text, *json.RawMessage for raw JSON; nil discards it). Any
// other status is returned as *Error.
func (c *Client) do(ctx context.Context, cl *call, out any, opts []CallOption) error {
	var o callOptions
	for _, f := range opts {
		f(&o)
	}
	var body []byte
	if cl.body != nil {
		var err error
		if body, err = json.Marshal(cl.body); err != nil {
			return fmt.Errorf("client: encode %s %s: %w", cl.method, cl.path, err)
		}
	}
	u := c.base.String() + cl.path
	if len(cl.query) > 0 {
		u += "?" + cl.query.Encode()
	}
	retryable := cl.safe || o.idempotencyKey != ""
	for attempt := 1; ; attempt++ {
		resp, err := c.send(ctx, cl.method, u, body, &o)
		if err == nil && resp.StatusCode < 300 {
			return decode(resp, out, c.strict)
		}
		var apiErr *Error
		if err == nil {
			apiErr = readError(resp)
			err = apiErr
		} else if ctx.Err() != nil {
			return err
		}
		if !retryable || attempt >= c.retry.MaxAttempts || (apiErr != nil && !retryableStatus(apiErr.Status)) {
			return err
		}
		wait := c.retry.backoff(attempt)
		if apiErr != nil && apiErr.RetryAfter > 0 {
			wait = apiErr.RetryAfter
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			return err // the wait would outlast the caller's deadline
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// send makes one attempt.
func (c *Client) send(ctx context.Context, method, u string, body []byte, o *callOptions) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if o.idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", o.idempotencyKey)
	}
	if o.requestID != "" {
		req.Header.Set("X-Request-Id", o.requestID)
	}
	if t := c.consistency.get(); t != "" {
		req.Header.Set(consistencyHeader, t)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", method, req.URL.Path, err)
	}
	c.consistency.observe(resp.Header.Get(consistencyHeader))
	return resp, nil
}

// decode reads a 2xx answer into out.
func decode(resp *http.Response, out any, strict bool) error {
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("client: read answer: %w", err)
	}
	switch v := out.(type) {
	case nil:
		return nil
	case *string:
		*v = string(b)
		return nil
	case *json.RawMessage:
		*v = append((*v)[:0], b...)
		return nil
	}
	if strict && resp.Header.Get(consistencyHeader) != "" {
		b = withoutConsistencyField(b)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("client: decode %s answer: %w", resp.Request.URL.Path, err)
	}
	return nil
}
