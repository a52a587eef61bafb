package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Error is an answer other than 2xx: the status and the server's error body
// {"error":{"code","message","details"}} (docs/api.md lists the codes).
type Error struct {
	// Status is the HTTP status.
	Status int
	// Code is the snake_case error code, e.g. invalid_request, space_not_found,
	// idempotency_conflict, too_many_requests.
	Code string
	// Message is the server's sentence.
	Message string
	// Details holds what the code adds, e.g. "field" for invalid_request.
	Details map[string]any
	// RequestID is the X-Request-Id of the answer, to quote in a bug report.
	RequestID string
	// RetryAfter is the Retry-After the server asked for (429, 503); 0 when none.
	RetryAfter time.Duration
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("zaxy: %d %s: %s", e.Status, e.Code, e.Message)
}

// IsCode reports whether err is (or wraps) an *Error with the code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// readError reads a non-2xx answer into an *Error; a body that is not the error shape becomes
// the message (code "http_<status>").
func readError(resp *http.Response) *Error {
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := &Error{Status: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id"),
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
	var body struct {
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &body) == nil && body.Error.Code != "" {
		e.Code, e.Message, e.Details = body.Error.Code, body.Error.Message, body.Error.Details
		return e
	}
	e.Code, e.Message = "http_"+strconv.Itoa(resp.StatusCode), string(b)
	if e.Message == "" {
		e.Message = http.StatusText(resp.StatusCode)
	}
	return e
}

// retryAfter parses a Retry-After header: delay seconds or an HTTP date; 0 when absent or
// unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
