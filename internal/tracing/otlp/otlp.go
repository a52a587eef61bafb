// Package otlp installs Zaxy's span exporter: OTLP over HTTP to the collector the standard
// OTEL_* variables name. It is kept apart from package tracing, which every instrumented
// package imports, so that only the commands that export spans link the exporter (and its
// protobuf and gRPC dependencies); it must never be imported below cmd/.
package otlp

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// Config says whether and where spans are exported. cmd/zaxy reads it from the standard
// OpenTelemetry variables; the exporter itself reads the rest of them (OTEL_EXPORTER_OTLP_HEADERS,
// OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_EXPORTER_OTLP_COMPRESSION, ...) from the process environment.
type Config struct {
	// Endpoint is OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT; empty
	// leaves tracing off.
	Endpoint string
	// Disabled is OTEL_SDK_DISABLED=true: off even with an endpoint.
	Disabled bool
	// ServiceName is the service.name resource attribute. Defaults to "zaxy"; the
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES variables win over it.
	ServiceName string
}

// On reports whether c exports spans.
func (c Config) On() bool { return c.Endpoint != "" && !c.Disabled }

// Start installs, when c is on, a global tracer provider that batches spans to the OTLP/HTTP
// exporter, and the W3C trace-context propagator, so an incoming traceparent header continues
// the caller's trace. It returns the function that flushes and stops the exporter (a no-op
// when c is off).
func Start(ctx context.Context, c Config) (shutdown func(context.Context) error, err error) {
	if !c.On() {
		return func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	name := c.ServiceName
	if name == "" {
		name = "zaxy"
	}
	res, err := resource.Merge(resource.NewSchemaless(attribute.String("service.name", name)), resource.Environment())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("tracing: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return tp.Shutdown, nil
}
