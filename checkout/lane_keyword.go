package checkout

import (
	"context"
)

// keywordLane ranks by BM25 (Keyword). With Policy.KeywordByScore each hit's fused
// contribution is scaled by its score over the best hit's: a hit that shares one common word
// with the question adds less than one that shares all its rare ones, where ranks alone make
// them nearly equal. It reads after the watermark step, so an event projected while it runs is
// in the verbatim lane.
type keywordLane struct{}

func (keywordLane) name() string    { return LaneKeyword }
func (keywordLane) after() []string { return []string{laneWatermark} }

func (keywordLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LaneKeyword}
	hits, err := Keyword(ctx, in.db, KeywordParams{SpaceID: in.req.SpaceID, Query: in.q.text, TextSearchConfig: in.svc.cfg.TextSearchConfig,
		AsOf: in.asOf, K: in.mech.LaneK, Candidates: in.mech.KeywordCandidates, K1: in.mech.BM25K1, B: in.mech.BM25B})
	for _, h := range hits {
		res.items = append(res.items, h.ItemID)
		res.relevance = append(res.relevance, h.Score)
		if in.policy.KeywordByScore && hits[0].Score > 0 {
			res.scales = append(res.scales, max(h.Score, 0)/hits[0].Score) // BM25 here is never negative (lane_keyword.sql); a scale never is
		}
	}
	res.err = err
	return res
}

// laneWatermark names the watermark step.
const laneWatermark = "watermark"

// watermarkStep reads the projection watermark before the keyword lane's query. An
// acknowledged append is found by the next checkout: by the verbatim lane while it is past the
// projection watermark, by the keyword lane once projected. The two lanes read in their own
// snapshots, so the verbatim lane reads past the watermark this step read: an event projected
// in between is in the verbatim lane. It runs when the keyword lane does.
type watermarkStep struct{}

func (watermarkStep) name() string    { return laneWatermark }
func (watermarkStep) after() []string { return nil }
func (watermarkStep) serves() string  { return LaneKeyword }

func (watermarkStep) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: laneWatermark}
	if wm, err := queries.Watermark(ctx, in.db, in.req.SpaceID); err == nil {
		res.floor = &wm
	}
	return res
}
