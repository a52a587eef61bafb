package checkout

import (
	"context"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
)

// vectorLane embeds the question without the names of the space's speakers in it (speaker.go:
// a name is a rare word and would pull the question's vector toward the turns that address
// that person) and ranks the nearest items. It needs an embedder (Config.Embedder).
type vectorLane struct{}

func (vectorLane) name() string    { return LaneVector }
func (vectorLane) after() []string { return nil }

func (vectorLane) unavailable(in *laneInput) string {
	if in.svc.cfg.Embedder == nil {
		return "no embedder configured"
	}
	return ""
}

func (vectorLane) run(ctx context.Context, in *laneInput) laneResult {
	s, r := in.svc, in.req
	res := laneResult{name: LaneVector}
	// Whether the space is in the HNSW index is read meanwhile, on another connection.
	type promotedAnswer struct {
		ok  bool
		err error
	}
	promoted := make(chan promotedAnswer, 1)
	go func() {
		ok, err := VectorPromoted(ctx, s.pool, r.SpaceID, s.cfg.Embedder.Model())
		promoted <- promotedAnswer{ok, err}
	}()
	query := in.q.text
	if len(in.q.names) > 0 {
		names, err := queries.SpeakersNamed(ctx, s.pool, dbsqlc.SpeakersNamedParams{SpaceID: r.SpaceID, NameKeys: in.q.names})
		if err != nil {
			res.err = err
			return res
		}
		query = withoutNames(query, names)
	}
	vs, err := s.cfg.Embedder.Embed(ctx, []string{query})
	if err != nil {
		res.err = err
		return res
	}
	pr := <-promoted
	if pr.err != nil {
		res.err = pr.err
		return res
	}
	hits, err := Vector(ctx, s.pool, VectorParams{
		SpaceID: r.SpaceID, Model: s.cfg.Embedder.Model(), Dimensions: s.cfg.Embedder.Dimensions(),
		Vector: vs[0], K: in.mech.LaneK, EfSearch: s.cfg.EfSearch, AsOf: r.AsOf, Promoted: &pr.ok,
		MaxIndexRows: in.mech.HNSWMaxK,
	})
	if err != nil {
		res.err = err
		return res
	}
	for _, h := range hits {
		res.items = append(res.items, h.ItemID)
	}
	return res
}
