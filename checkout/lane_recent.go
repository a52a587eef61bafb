package checkout

import (
	"context"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/memoryitem"
)

// recentLane ranks the checkout's session's latest events, latest first. Without a session it
// is off: the space's latest events are not evidence for a question.
type recentLane struct{}

func (recentLane) name() string    { return LaneRecent }
func (recentLane) after() []string { return nil }

func (recentLane) unavailable(in *laneInput) string {
	if in.req.SessionID == "" {
		return "no session_id"
	}
	return ""
}

func (recentLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LaneRecent}
	seqs, err := queries.LaneRecent(ctx, in.db, dbsqlc.LaneRecentParams{SpaceID: in.req.SpaceID, SessionID: in.req.SessionID, AsOf: in.asOf, MaxRows: int32(in.mech.RecentK)})
	for _, seq := range seqs {
		res.items = append(res.items, memoryitem.EventID(seq))
	}
	res.err = err
	return res
}
