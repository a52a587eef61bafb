package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// instrument is middleware that, once a request is done, records its latency for /metrics and
// logs it with its request id (the X-Request-Id the client sent, or one chi made), route
// pattern, status and duration. The id is echoed in the response's X-Request-Id, so a client
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
