package checkout

import (
	"cmp"
	"context"
	"slices"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
)

// pprLane ranks items by personalized PageRank (ppr.go) from the exact lane's matched entities
// (weighted by specificity) and the entities of the vector lane's best items (each entity
// weighted by its specificity over the item's rank). It reaches what the graph lane's one hop
// over facts does not: an event two entity hops away that shares no word with the question
// ("Ana works on Atlas" → "Atlas ships in June" answers "when does Ana's project ship?").
type pprLane struct{}

func (pprLane) name() string    { return LanePPR }
func (pprLane) after() []string { return []string{LaneExact, LaneVector} }

func (pprLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LanePPR}
	exact, vector, m := in.result(LaneExact), in.result(LaneVector), in.mech
	seed := map[string]float64{}
	for i, e := range exact.entities {
		seed[e] += max(exact.specs[i], 0.01)
	}
	var top []string
	for _, id := range vector.items {
		if len(top) == m.PPRVectorSeeds {
			break
		}
		top = append(top, id)
	}
	if len(top) > 0 {
		seqs, facts := splitItemIDs(top)
		links, err := queries.PprItemEntities(ctx, in.db, dbsqlc.PprItemEntitiesParams{SpaceID: in.req.SpaceID, Seqs: seqs, FactIds: facts})
		if err != nil {
			res.err = err
			return res
		}
		for _, l := range links {
			rank := slices.Index(top, l.ItemID) + 1
			seed[l.EntityID] += max(l.Spec, 0.01) / float64(rank)
		}
	}
	if len(seed) == 0 {
		return res
	}
	g, err := loadPPRGraph(ctx, in.db, m, in.req.SpaceID, seed, in.asOf, m.PPRNodeBudget)
	if err != nil {
		res.err = err
		return res
	}
	mass := walkPPR(m, g, seed)
	type hit struct {
		id   string
		mass float64
	}
	var hits []hit
	for n, m := range mass {
		if g.items[n] && m > 0 {
			hits = append(hits, hit{n, m})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.mass != b.mass {
			return cmp.Compare(b.mass, a.mass)
		}
		return cmp.Compare(a.id, b.id)
	})
	for i := 0; i < len(hits) && i < m.LaneK; i++ {
		res.items = append(res.items, hits[i].id)
	}
	return res
}
