// Package tracing is Zaxy's OpenTelemetry seam: the attribute names every span uses, a helper
// that ends a span with its error; package otlp installs the exporter. Tracing is off by
// default: until otlp.Start installs a provider, the global tracer provider is
// OpenTelemetry's no-op one and a span costs a few nanoseconds. This package depends on the
// OpenTelemetry API only, never on the SDK or an exporter.
//
// Spans carry ids (space, request, job, seq) and counts, never what a memory says: no event
// content or data, no checkout query text, no Cypher, no tokens.
package tracing

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Attribute keys of Zaxy's spans (docs/operations.md, Tracing).
const (
	// SpaceIDKey is the space a span works on.
	SpaceIDKey = attribute.Key("zaxy.space_id")
	// RequestIDKey is the HTTP request id (X-Request-Id) of an API span.
	RequestIDKey = attribute.Key("zaxy.request_id")
	// LaneKey is the checkout lane of a lane span.
	LaneKey = attribute.Key("zaxy.lane")
	// CountKey is how many things a span handled: events appended or projected, items a lane
	// found, items packed.
	CountKey = attribute.Key("zaxy.count")
)

// instrumentation is the instrumentation scope of every Zaxy span.
const instrumentation = "github.com/zaxy/zaxy"

// Tracer is the tracer Zaxy's spans come from: the global provider's, so spans go wherever
// otlp.Start (or a test) points it, and nowhere before that.
func Tracer() trace.Tracer { return otel.Tracer(instrumentation) }

// SpaceID is the attribute naming the space id.
func SpaceID(id string) attribute.KeyValue { return SpaceIDKey.String(id) }

// End ends span, marking it failed with err's message when err is not nil.
func End(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
