package projection

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/zaxy/zaxy/internal/tracing"
)

// startBatch starts the span "projection.batch" of one projection transaction of space.
func startBatch(ctx context.Context, space string) (context.Context, trace.Span) {
	return tracing.Tracer().Start(ctx, "projection.batch", trace.WithAttributes(tracing.SpaceID(space)))
}

// endBatch ends a batch's span with how many events it applied and the watermark after it.
// ErrBusy (another worker holds the space) is not a failure: it is marked zaxy.busy.
func endBatch(span trace.Span, applied int, watermark int64, err error) {
	span.SetAttributes(tracing.CountKey.Int(applied), attribute.Int64("zaxy.projected_seq", watermark))
	if errors.Is(err, ErrBusy) {
		span.SetAttributes(attribute.Bool("zaxy.busy", true))
		err = nil
	}
	tracing.End(span, err)
}
