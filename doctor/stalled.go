package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultStallAfter is how long a space's projection may stand before one event before the
// stalled_projection check names it.
const DefaultStallAfter = 5 * time.Minute

// stalled names the spaces whose projection cannot advance: stopped before one event for
// longer than after, or with a failing project_space job. Each is named with the seq of the
// event it stopped before, which is what an operator inspects (and may erase).
func (r *Report) stalled(ctx context.Context, pool *pgxpool.Pool, after time.Duration) {
	rows, err := queries.StalledSpaces(ctx, pool, after.Seconds())
	if err != nil {
		r.add(Check{Name: "stalled_projection", Status: StatusFail, Message: err.Error()})
		return
	}
	if len(rows) == 0 {
		r.add(Check{Name: "stalled_projection", Status: StatusOK,
			Message: fmt.Sprintf("no space's projection has stood before one event for over %s", after)})
		return
	}
	parts := make([]string, len(rows))
	for i, row := range rows {
		p := fmt.Sprintf("space %s stopped before seq %d (recorded %s ago)", row.SpaceID, row.StuckSeq,
			time.Since(row.StuckRecordedAt).Round(time.Second))
		if row.FailingJobs > 0 {
			p += fmt.Sprintf(", %d project_space job(s) failing", row.FailingJobs)
			if row.LastError != "" {
				p += ": " + row.LastError
			}
		}
		parts[i] = p
	}
	r.add(Check{Name: "stalled_projection", Status: StatusFail,
		Message: fmt.Sprintf("%d space(s) cannot advance their projection: %s", len(rows), strings.Join(parts, "; ")),
		Remedy: "read the workers' logs for that space and seq ('zaxy projection status --space S' shows the watermark); " +
			"if the event itself is the cause, 'zaxy erase --space S --seq N' removes its content, and the sweep retries the space"})
}
