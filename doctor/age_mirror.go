package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ageMirror compares, for every space, a digest of its AGE graph with the digest of what the
// relational graph says the mirror should hold (vertex and edge ids, endpoints, properties).
// A graph changed behind the service's back, or a mirror that missed writes, fails with the
// remedy to rebuild that space.
func (r *Report) ageMirror(ctx context.Context, pool *pgxpool.Pool) {
	rows, err := queries.AGEMirror(ctx, pool)
	if err != nil {
		r.add(Check{Name: "age_mirror", Status: StatusFail, Message: err.Error()})
		return
	}
	var diverged, remedies []string
	n := 0
	for _, row := range rows {
		n++
		if row.Expected == nil || row.Actual == nil || row.ExpectedLines == nil || row.ActualLines == nil {
			r.add(Check{Name: "age_mirror", Status: StatusFail, Message: fmt.Sprintf("space %s: the mirror digest is missing", row.SpaceID)})
			return
		}
		if *row.Expected != *row.Actual {
			diverged = append(diverged, fmt.Sprintf("%s (%d vertices and edges expected, %d found)", row.SpaceID, *row.ExpectedLines, *row.ActualLines))
			remedies = append(remedies, "zaxy rebuild --space "+row.SpaceID)
		}
	}
	if len(diverged) > 0 {
		r.add(Check{Name: "age_mirror", Status: StatusFail,
			Message: fmt.Sprintf("%d of %d spaces have an AGE graph that differs from the relational graph: %s", len(diverged), n, strings.Join(diverged, "; ")),
			Remedy:  "rebuild each from the log: " + strings.Join(remedies, "; ")})
		return
	}
	r.add(Check{Name: "age_mirror", Status: StatusOK, Message: fmt.Sprintf("%d spaces: every AGE graph matches the relational graph", n)})
}
