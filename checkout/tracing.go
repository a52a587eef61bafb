package checkout

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/zaxy/zaxy/internal/tracing"
)

// laneSpan records a finished lane as a span "checkout.lane.<name>" under ctx, from start to
// now, with the space, the lane and how many items it found (never the query). It is recorded
// after the lane returns, with the lane's own start time, so that the lanes' code stays as it
// is; with tracing off it does nothing.
func laneSpan(ctx context.Context, space string, res *laneResult, start time.Time) {
	_, span := tracing.Tracer().Start(ctx, "checkout.lane."+res.name, trace.WithTimestamp(start),
		trace.WithAttributes(tracing.SpaceID(space), tracing.LaneKey.String(res.name), tracing.CountKey.Int(len(res.items))))
	tracing.End(span, res.err)
}

// startPack starts the span of a checkout's packing (tiers, budget, rendering).
func startPack(ctx context.Context, space string) trace.Span {
	_, span := tracing.Tracer().Start(ctx, "checkout.pack", trace.WithAttributes(tracing.SpaceID(space)))
	return span
}
