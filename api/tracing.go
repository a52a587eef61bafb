package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/zaxy/zaxy/internal/tracing"
)

// traceRequest is middleware that wraps each request in a server span, continuing the
// caller's trace when it sent a traceparent header. Once the router has matched, the span is
// named by the method and route pattern ("POST /v1/spaces/{space}/checkout", never the
// concrete path) and carries the request id, the space id and the status; never a query
// string, a header or a body. With tracing off (no provider installed) it costs a no-op span.
func traceRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
		ctx, span := tracing.Tracer().Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", r.Method),
				tracing.RequestIDKey.String(middleware.GetReqID(r.Context()))))
		defer span.End()
		if !span.IsRecording() {
			next.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r.WithContext(ctx))
		status := ww.Status()
		span.SetAttributes(attribute.Int("http.response.status_code", status))
		if rc := chi.RouteContext(ctx); rc != nil {
			if route := rc.RoutePattern(); route != "" {
				span.SetName(r.Method + " " + route)
				span.SetAttributes(attribute.String("http.route", route))
			}
			if space := rc.URLParam("space"); space != "" {
				span.SetAttributes(tracing.SpaceID(space))
			}
		}
		if status >= http.StatusInternalServerError {
			span.SetStatus(codes.Error, http.StatusText(status))
		}
	})
}
