package api

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/jackc/pgx/v5/pgconn"
)

// The request boundary: what every request must look like before a handler sees it. A web page
// the user visits can make the browser send requests to a service on loopback, so in auth-off
// mode the Host must name this service (no DNS rebinding) and, in every mode, a request the
// browser marks as cross-site is refused; request bodies must be application/json (a
// cross-site "simple" request cannot send that type without a CORS preflight, which is never
// granted); the request id a client sends is kept only when it is short and printable; and a
// body that stops arriving ends the request promptly with a 4xx instead of holding it.

// maxRequestIDLen caps the X-Request-Id a client may choose.
const maxRequestIDLen = 128

// requestID is middleware that sets the request id (chi's middleware.RequestIDKey, read with
// middleware.GetReqID): the client's X-Request-Id when it is 1-128 printable ASCII characters
// without spaces, a fresh random one otherwise. A refused id is neither echoed nor logged.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(middleware.RequestIDHeader)
		if !validRequestID(id) {
			id = rand.Text()
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), middleware.RequestIDKey, id)))
	})
}

func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// RefuseCrossSite is middleware that answers 403 cross_site_request, with the API's error body,
// to a request a browser marks as coming from another site: Sec-Fetch-Site other than
// same-origin or none, or, from browsers that do not send it, an Origin whose host differs from
// the request's Host. Requests without either header (curl, SDKs, agents) pass. Unlike
// http.CrossOriginProtection it refuses safe methods too: nothing on this service is meant to
// be embedded in another site. The MCP endpoint uses it as well.
func RefuseCrossSite(logger *slog.Logger) func(http.Handler) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := crossSite(r); err != nil {
				writeError(w, r, logger, err)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func crossSite(r *http.Request) error {
	refuse := func(why string) error {
		return &apiError{status: http.StatusForbidden, code: "cross_site_request",
			message: "cross-site browser requests are refused (" + why + ")"}
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		if site != "same-origin" && site != "none" {
			return refuse("Sec-Fetch-Site is neither same-origin nor none")
		}
		return nil
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
		return refuse("the Origin is not this service")
	}
	return nil
}

// loopbackNames are the Host names a browser uses for a service on loopback.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// checkHost is middleware for auth-off mode: the Host header must name this service on
// loopback (localhost, 127.0.0.1, [::1] or the listen address's host, with its port), so a
// page served from another name that resolves to 127.0.0.1 (DNS rebinding) cannot read or write
// memory. As the MCP SDK's own check, it applies to loopback connections, which are all the
// connections an auth-off server (loopback only) gets; requests built inside the process (the
// MCP tools, which have no RemoteAddr) pass.
func (s *server) checkHost(next http.Handler) http.Handler {
	listenHost, listenPort, _ := net.SplitHostPort(s.cfg.ListenAddr)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.auth != nil || !loopbackPeer(r.RemoteAddr) || hostAllowed(r.Host, listenHost, listenPort) {
			next.ServeHTTP(w, r)
			return
		}
		writeError(w, r, s.logger, &apiError{status: http.StatusForbidden, code: "host_not_allowed",
			message: "without authentication (ZAXY_AUTH=off) the Host header must name this service on loopback, such as localhost:" + cmpOr(listenPort, "PORT"),
			details: map[string]any{"field": "Host"}})
	})
}

func hostAllowed(hostHeader, listenHost, listenPort string) bool {
	host, port, err := net.SplitHostPort(hostHeader)
	if err != nil {
		host, port = strings.TrimSuffix(strings.TrimPrefix(hostHeader, "["), "]"), ""
	}
	host = strings.ToLower(host)
	known := host == strings.ToLower(listenHost) && listenHost != "" && !unspecified(listenHost)
	for _, name := range loopbackNames {
		known = known || host == name
	}
	if !known {
		return false
	}
	switch {
	case listenPort == "" || listenPort == "0":
		return true
	case port == "":
		return listenPort == "80"
	}
	return port == listenPort
}

// loopbackPeer reports whether a request's RemoteAddr is a loopback address.
func loopbackPeer(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func unspecified(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// requireJSON is middleware answering 415 unsupported_media_type to a request that has a body
// whose Content-Type is not application/json (a charset parameter, if any, must be utf-8).
func (s *server) requireJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err == nil && mt == "application/json" && (params["charset"] == "" || strings.EqualFold(params["charset"], "utf-8")) {
			next.ServeHTTP(w, r)
			return
		}
		writeError(w, r, s.logger, &apiError{status: http.StatusUnsupportedMediaType, code: "unsupported_media_type",
			message: "request bodies must be sent with Content-Type: application/json",
			details: map[string]any{"field": "Content-Type"}})
	})
}

// bodyDeadline is middleware that bounds the wait for each read of a request body: a client
// that sends fewer bytes than its Content-Length and then closes gets 400 body_incomplete, and
// one that stops sending for BodyIdleTimeout gets 408 body_timeout, instead of the request
// waiting for its overall deadline and ending as a 500. A body that trickles in never gets
// more than RequestTimeout in all.
func (s *server) bodyDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody && r.RemoteAddr != "" {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: http.NewResponseController(w),
				idle: s.cfg.BodyIdleTimeout, limit: time.Now().Add(s.cfg.RequestTimeout)}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody extends the connection's read deadline by idle (but never past limit) before
// every read and turns the failures of a short or stalled body into a *bodyError.
type deadlineBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	idle  time.Duration
	limit time.Time
	done  bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	if !b.done {
		deadline := time.Now().Add(b.idle)
		if deadline.After(b.limit) {
			deadline = b.limit
		}
		_ = b.rc.SetReadDeadline(deadline)
	}
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		if !b.done {
			b.done = true
			_ = b.rc.SetReadDeadline(time.Time{})
		}
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = &bodyError{err: err}
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = &bodyError{err: err, timeout: true}
	}
	return n, err
}

// bodyError is a request body that could not be read to its end: cut short (the client closed
// early) or timed out (the client stopped sending).
type bodyError struct {
	err     error
	timeout bool
}

func (e *bodyError) Error() string {
	if e.timeout {
		return "read request body: the client stopped sending: " + e.err.Error()
	}
	return "read request body: the body ended before its Content-Length: " + e.err.Error()
}

func (e *bodyError) Unwrap() error { return e.err }

// apiError returns the status and code a bodyError is answered with.
func (e *bodyError) apiError() *apiError {
	if e.timeout {
		return &apiError{status: http.StatusRequestTimeout, code: "body_timeout",
			message: "the request body stopped arriving before it was complete", details: map[string]any{"field": "body"}}
	}
	return &apiError{status: http.StatusBadRequest, code: "body_incomplete",
		message: "the request body ended before its declared length (unexpected EOF)", details: map[string]any{"field": "body"}}
}

func cmpOr(s, def string) string {
	if s == "" || s == "0" {
		return def
	}
	return s
}

// databaseRetryAfter is the Retry-After, in seconds, of a 503 database_unavailable.
const databaseRetryAfter = 5

// spaceMovingRetryAfter is the Retry-After (seconds) of an append refused because its space is
// being moved (space_moving): a move of 10,000 events pauses appends for about a second.
const spaceMovingRetryAfter = 1

// databaseError maps what is left of a Postgres error once the domain packages have turned
// theirs into sentinels: the database unreachable or shutting down (a failed connect, SQLSTATE
// class 08, 57P01-57P03) is 503 database_unavailable with Retry-After, since retrying later
// can succeed; a data exception (class 22: a value out of range, an invalid byte sequence, a
// division by zero) is the client's value, so 400 invalid_request. Anything else is nil.
func databaseError(err error) *apiError {
	var ce *pgconn.ConnectError
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &ce):
	case errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"):
	case errors.As(err, &pe) && pe.Code == "ZX050":
		return &apiError{status: http.StatusServiceUnavailable, code: "space_moving", message: pe.Message, retryAfter: spaceMovingRetryAfter}
	case errors.As(err, &pe) && strings.HasPrefix(pe.Code, "22"):
		return &apiError{status: http.StatusBadRequest, code: "invalid_request",
			message: "the database refused a value of the request: " + pe.Message, details: map[string]any{"sqlstate": pe.Code}}
	default:
		return nil
	}
	return &apiError{status: http.StatusServiceUnavailable, code: "database_unavailable",
		message: "the database is unreachable or restarting; retry later", retryAfter: databaseRetryAfter}
}
