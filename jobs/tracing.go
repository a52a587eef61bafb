package jobs

import (
	"context"
	"encoding/json"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/zaxy/zaxy/internal/tracing"
)

// jobSpan is River worker middleware that wraps each job in a span "river.job <kind>" with the
// job's id, kind, attempt and, when its arguments name one, the space id (never the other
// arguments). With tracing off it costs a no-op span.
type jobSpan struct{ river.MiddlewareDefaults }

// workerMiddleware is the middleware NewClient installs around every job.
var workerMiddleware = []rivertype.Middleware{&jobSpan{}}

// Work implements rivertype.WorkerMiddleware.
func (*jobSpan) Work(ctx context.Context, job *rivertype.JobRow, doInner func(context.Context) error) error {
	ctx, span := tracing.Tracer().Start(ctx, "river.job "+job.Kind, trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.Int64("zaxy.job_id", job.ID), attribute.String("zaxy.job_kind", job.Kind),
			attribute.Int("zaxy.attempt", job.Attempt)))
	if span.IsRecording() {
		var args struct {
			SpaceID string `json:"space_id"`
		}
		if json.Unmarshal(job.EncodedArgs, &args) == nil && args.SpaceID != "" {
			span.SetAttributes(tracing.SpaceID(args.SpaceID))
		}
	}
	err := doInner(ctx)
	tracing.End(span, err)
	return err
}
