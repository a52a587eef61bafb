package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/zaxy/zaxy/redact"
)

// redactingLogger returns logger with every line redacted before it is written
// (redact.LogHandler): the request log carries the URL path (space, item, subagent and
// session ids are path segments) and the client's X-Request-Id, and error lines quote what a
// client sent (an Idempotency-Key, a body), so a secret in any of them would otherwise reach
// the server log as is. NewHandler wraps the logger it is given, so every logger the API
// hands on (checkout, the feeling of knowing, the analytics store) redacts too.
func redactingLogger(logger *slog.Logger) *slog.Logger {
	return slog.New(redact.LogHandler(logger.Handler()))
}

// instrument is middleware that, once a request is done, records its latency for /metrics and
// logs it with its request id (the X-Request-Id the client sent, or one chi made), path (both
// redacted, see redactingLogger), route pattern, status and duration. The id is echoed in the response's X-Request-Id, so a client
// can quote it.
func (s *server) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		w.Header().Set(middleware.RequestIDHeader, middleware.GetReqID(r.Context()))
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		took := time.Since(start)
		route := ""
		if rc := chi.RouteContext(r.Context()); rc != nil {
			route = rc.RoutePattern()
		}
		s.metrics.observeRequest(route, r.Method, ww.Status(), took)
		s.logger.InfoContext(r.Context(), "request", "request_id", middleware.GetReqID(r.Context()),
			"method", r.Method, "path", r.URL.Path, "route", route, "status", ww.Status(),
			"duration_ms", float64(took.Microseconds())/1000)
	})
}
