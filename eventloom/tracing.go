package eventloom

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/zaxy/zaxy/internal/tracing"
)

// startAppend starts the span "eventloom.append" of an append: the space, how many events and
// whether an idempotency key came with them (never the key, the types or the content).
func startAppend(ctx context.Context, p *AppendParams) (context.Context, trace.Span) {
	return tracing.Tracer().Start(ctx, "eventloom.append", trace.WithAttributes(tracing.SpaceID(p.SpaceID),
		tracing.CountKey.Int(len(p.Events)), attribute.Bool("zaxy.idempotent", p.IdempotencyKey != "")))
}

// endAppend ends an append's span with the seqs it assigned, or its error.
func endAppend(span trace.Span, res *AppendResult, err error) {
	if res != nil && len(res.Receipts) > 0 {
		span.SetAttributes(attribute.Int64("zaxy.first_seq", res.Receipts[0].Seq),
			attribute.Int64("zaxy.last_seq", res.Receipts[len(res.Receipts)-1].Seq),
			attribute.Bool("zaxy.replayed", res.Replayed))
	}
	tracing.End(span, err)
}
