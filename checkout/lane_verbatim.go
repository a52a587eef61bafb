package checkout

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/memoryitem"
)

// verbatimLane ranks the not-yet-projected tail of the log by how many of the question's
// content words each event contains: the events past the watermark the watermark step read
// when it ran, else past the current watermark.
type verbatimLane struct{}

func (verbatimLane) name() string    { return LaneVerbatim }
func (verbatimLane) after() []string { return []string{laneWatermark} }

func (verbatimLane) run(ctx context.Context, in *laneInput) laneResult {
	return in.verbatim(ctx, in.result(laneWatermark).floor)
}

// verbatim runs the verbatim lane past floor (nil: the current watermark).
func (in *laneInput) verbatim(ctx context.Context, floor *int64) laneResult {
	res := laneResult{name: LaneVerbatim}
	tail, err := queries.LaneVerbatim(ctx, in.db, dbsqlc.LaneVerbatimParams{SpaceID: in.req.SpaceID, AsOf: in.asOf, MaxRows: int32(in.mech.VerbatimRows), Floor: floor})
	if err != nil {
		res.err = err
		return res
	}
	type scored struct {
		item  string
		score int
		seq   int64
	}
	var found []scored
	for _, e := range tail {
		text := strings.ToLower(e.Content + " " + e.Data)
		n := 0
		for _, w := range in.q.words {
			if strings.Contains(text, w) {
				n++
			}
		}
		if n > 0 {
			found = append(found, scored{item: memoryitem.EventID(e.Seq), score: n, seq: e.Seq})
		}
	}
	slices.SortStableFunc(found, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return cmp.Compare(b.seq, a.seq)
	})
	for i := 0; i < len(found) && i < in.mech.LaneK; i++ {
		res.items = append(res.items, found[i].item)
	}
	return res
}
