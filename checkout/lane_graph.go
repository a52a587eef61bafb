package checkout

import "context"

// graphLane ranks the items one fact hop away from the exact lane's matched entities
// (lane_graph.sql), each scaled by the specificity of the entity it was reached from.
type graphLane struct{}

func (graphLane) name() string    { return LaneGraph }
func (graphLane) after() []string { return []string{LaneExact} }

func (graphLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LaneGraph}
	exact := in.result(LaneExact)
	if len(exact.entities) == 0 {
		return res
	}
	hits, err := queryLaneGraph(ctx, in.db, laneGraphArgs{SpaceID: in.req.SpaceID, Entities: exact.entities, AsOf: in.asOf,
		K: in.mech.LaneK, Specs: exact.specs})
	if err != nil {
		res.err = err
		return res
	}
	for _, h := range hits {
		res.items = append(res.items, h.Item)
		res.scales = append(res.scales, h.Spec)
	}
	res.err = err
	return res
}
