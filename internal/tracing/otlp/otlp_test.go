package otlp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/internal/tracing"
	"github.com/zaxy/zaxy/internal/tracing/otlp"
)

// TestStart_OffWithoutEndpoint leaves the global no-op provider in place: spans do not record.
func TestStart_OffWithoutEndpoint(t *testing.T) {
	for _, c := range []otlp.Config{{}, {Endpoint: "http://127.0.0.1:1", Disabled: true}} {
		shutdown, err := otlp.Start(context.Background(), c)
		require.NoError(t, err)
		_, span := tracing.Tracer().Start(context.Background(), "x")
		require.False(t, span.IsRecording())
		span.End()
		require.NoError(t, shutdown(context.Background()))
	}
}

// TestStart_ExportsOverOTLPHTTP points the exporter at a stand-in collector through the
// standard variable and finds a span posted to /v1/traces when the exporter shuts down.
func TestStart_ExportsOverOTLPHTTP(t *testing.T) {
	var posts atomic.Int32
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/traces" {
			posts.Add(1)
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	shutdown, err := otlp.Start(context.Background(), otlp.Config{Endpoint: collector.URL})
	require.NoError(t, err)
	_, span := tracing.Tracer().Start(context.Background(), "exported")
	require.True(t, span.IsRecording())
	span.End()
	require.NoError(t, shutdown(context.Background()))
	require.EqualValues(t, 1, posts.Load())
}
