package api_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/zaxy/zaxy/projection"
)

// installTracing points the global tracer provider at an in-memory exporter, as
// tracing.Start points it at OTLP, and returns the exporter and a tracer for the test's own
// root spans. Other tests of the package may add spans meanwhile: filter by trace id.
func installTracing(t *testing.T) (*tracetest.InMemoryExporter, trace.Tracer) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{})
	return exp, tp.Tracer("test")
}

// spansOf are the exported spans of one trace.
func spansOf(exp *tracetest.InMemoryExporter, id trace.TraceID) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range exp.GetSpans() {
		if s.SpanContext.TraceID() == id {
			out = append(out, s)
		}
	}
	return out
}

func attr(s tracetest.SpanStub, key string) string {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

// TestTracing_CheckoutHasOneSpanPerLane makes a checkout over HTTP inside a trace (the client
// sends traceparent) and finds the request's span named by its route, one span per lane that
// ran, the packing span and the append recording what surfaced, all in the caller's trace,
// with the space id and never the query or an event's content.
func TestTracing_CheckoutHasOneSpanPerLane(t *testing.T) {
	exp, tracer := installTracing(t)
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/tr/events", `{"events":[
		{"type":"message","session_id":"s1","content":"The staging registry times out after 30 seconds","data":{"role":"user"}},
		{"type":"fact.asserted","data":{"subject":"registry","predicate":"timeout","value":"30s"}}]}`)
	require.Equal(t, 201, status, out)

	ctx, root := tracer.Start(context.Background(), "test")
	p, err := projection.New(ctx, e.db.AppPool(t), projection.Config{})
	require.NoError(t, err)
	_, err = p.ProjectSpace(ctx, "tr")
	require.NoError(t, err)
	carrier := propagation.HeaderCarrier(http.Header{})
	otel.GetTextMapPropagator().Inject(ctx, carrier)
	status, out = e.do(t, "POST", "/v1/spaces/tr/checkout", `{"query":"registry timeout secret-query-words","session_id":"s1","max_tokens":500}`,
		"traceparent", carrier.Get("traceparent"))
	require.Equal(t, 200, status, out)
	root.End()

	var ran []string
	for name, st := range out["diagnostics"].(map[string]any)["lanes"].(map[string]any) {
		if st.(map[string]any)["off"] != true {
			ran = append(ran, "checkout.lane."+name)
		}
	}
	require.GreaterOrEqual(t, len(ran), 4, "the lanes that ran: %v", ran)

	spans := spansOf(exp, root.SpanContext().TraceID())
	var lanes []string
	count := map[string]int{}
	var request tracetest.SpanStub
	for _, s := range spans {
		count[s.Name]++
		if strings.HasPrefix(s.Name, "checkout.lane.") {
			lanes = append(lanes, s.Name)
			require.Equal(t, "tr", attr(s, "zaxy.space_id"), s.Name)
			require.Equal(t, strings.TrimPrefix(s.Name, "checkout.lane."), attr(s, "zaxy.lane"))
		}
		if s.Name == "POST /v1/spaces/{space}/checkout" {
			request = s
		}
		for _, kv := range s.Attributes {
			v := kv.Value.Emit()
			require.NotContains(t, v, "secret-query-words", "%s %s", s.Name, kv.Key)
			require.NotContains(t, v, "registry times out", "%s %s", s.Name, kv.Key)
		}
	}
	slices.Sort(ran)
	slices.Sort(lanes)
	require.Equal(t, ran, lanes, "one span per lane that ran")

	require.Equal(t, 1, count["POST /v1/spaces/{space}/checkout"], "%v", count)
	require.Equal(t, root.SpanContext().SpanID(), request.Parent.SpanID(), "the request continues the caller's trace")
	require.Equal(t, "tr", attr(request, "zaxy.space_id"))
	require.NotEmpty(t, attr(request, "zaxy.request_id"))
	require.Equal(t, "200", attr(request, "http.response.status_code"))
	require.Equal(t, trace.SpanKindServer, request.SpanKind)
	for _, s := range spans {
		if strings.HasPrefix(s.Name, "checkout.") {
			require.Equal(t, request.SpanContext.SpanID(), s.Parent.SpanID(), "%s is the request's child", s.Name)
		}
	}
	require.Equal(t, 1, count["checkout.pack"], "%v", count)
	require.Equal(t, 1, count["eventloom.append"], "the checkout.surfaced append: %v", count)
	require.Equal(t, 1, count["projection.batch"], "%v", count)
	for _, s := range spans {
		if s.Name == "projection.batch" {
			require.Equal(t, "2", attr(s, "zaxy.count"))
			require.Equal(t, "tr", attr(s, "zaxy.space_id"))
		}
	}
}
