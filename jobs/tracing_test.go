package jobs

import (
	"context"
	"errors"
	"testing"

	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestJobSpan_WrapsEachJobWithItsSpaceAndNotItsArguments works a job through the middleware
// NewClient installs and finds one span per job, named by its kind, carrying the job id, the
// attempt and the space id from its arguments (and nothing else of them), failed when the job
// failed.
func TestJobSpan_WrapsEachJobWithItsSpaceAndNotItsArguments(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	otel.SetTracerProvider(tp)
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })

	mw := workerMiddleware[0].(rivertype.WorkerMiddleware)
	job := &rivertype.JobRow{ID: 42, Kind: "project_space", Attempt: 2, EncodedArgs: []byte(`{"space_id":"sp","note":"private words"}`)}
	var inner context.Context
	require.NoError(t, mw.Work(context.Background(), job, func(ctx context.Context) error { inner = ctx; return nil }))
	boom := errors.New("boom")
	require.ErrorIs(t, mw.Work(context.Background(), &rivertype.JobRow{ID: 43, Kind: "sweep", EncodedArgs: []byte(`{}`)},
		func(context.Context) error { return boom }), boom)

	spans := exp.GetSpans()
	require.Len(t, spans, 2)
	require.Equal(t, "river.job project_space", spans[0].Name)
	require.Equal(t, spans[0].SpanContext.SpanID(), trace.SpanFromContext(inner).SpanContext().SpanID(), "the job runs inside its span")
	got := map[string]string{}
	for _, kv := range spans[0].Attributes {
		got[string(kv.Key)] = kv.Value.Emit()
	}
	require.Equal(t, map[string]string{"zaxy.job_id": "42", "zaxy.job_kind": "project_space", "zaxy.attempt": "2", "zaxy.space_id": "sp"}, got)
	require.Equal(t, "river.job sweep", spans[1].Name)
	require.Equal(t, codes.Error, spans[1].Status.Code)
}
