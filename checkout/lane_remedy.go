package checkout

import (
	"context"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/memoryitem"
)

// remedyLane ranks what followed the keyword lane's best failed tool calls (among its first
// Mechanism.ReplyK items, those scoring at least Mechanism.RemedyMinShare of its best): for
// each failure of a session, its session's next events (messages, tool calls and decisions, at
// most Mechanism.RemedyFollow) up to and including the retry: the same tool's next call with
// the same arguments (an agent's generic tool, a shell, runs the fix and the retry alike). The
// call that fixed a failure rarely shares a word with a question about the failure ("the
// migrate step fails with a lock timeout: what fixed it?" and "release_billing_lock success"),
// so no lane ranks it; the session's order knows it. The items rank in their failure's order,
// then in the session's. It starts when the keyword lane answers, beside the reply lane.
type remedyLane struct{}

func (remedyLane) name() string    { return LaneRemedy }
func (remedyLane) after() []string { return []string{LaneKeyword} }
func (remedyLane) follows() string { return LaneKeyword }

func (remedyLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LaneRemedy}
	keyword := in.result(LaneKeyword)
	var near []string
	for i, id := range keyword.items {
		if keyword.relevance[i] >= in.mech.RemedyMinShare*keyword.relevance[0] {
			near = append(near, id)
		}
	}
	seqs := followedSeqs(near, in.mech.ReplyK)
	if len(seqs) == 0 {
		return res
	}
	rows, err := queries.LaneRemedy(ctx, in.db, dbsqlc.LaneRemedyParams{SpaceID: in.req.SpaceID, Seqs: seqs, AsOf: in.asOf, Follow: int32(in.mech.RemedyFollow)})
	seen := map[int64]bool{}
	done := map[int64]bool{} // failures whose retry was reached
	for _, n := range rows {
		if done[n.FailureSeq] {
			continue
		}
		if !seen[n.Seq] {
			seen[n.Seq] = true
			res.items = append(res.items, memoryitem.EventID(n.Seq))
		}
		if n.Type == "tool_call.completed" && n.Tool == n.FailureTool && n.Arguments == n.FailureArguments {
			done[n.FailureSeq] = true
		}
	}
	res.err = err
	return res
}
