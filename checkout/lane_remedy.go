package checkout

import (
	"context"
	"time"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/memoryitem"
)

// remedyFollow is how many of a failed call's next session events the remedy lane reads: the
// fix an agent makes after a failure is mostly within its next few moves (a note of what went
// wrong, a look around, the fixing call, the retry). On the scripted agent traces, where the
// agent makes up to three calls between a failure and its fix, 4 found the fix for 11 of 18
// questions and 6 for 18 (docs/benchmarks.md).
const remedyFollow = 6

// remedyMinShare is how close to the keyword lane's best score (BM25) a failed call must score
// for the remedy lane to follow it: a question about the failure, not one sharing a word with
// it. Fusion reads ranks only, and in a small space every failure is among the keyword lane's
// first replyK: "who is on call for payments?" followed `go test ./payments/...` failing, at a
// seventh of the best score, and its fix outranked the answer (TestRemedyLane_…FollowsOnlyAFailureTheQuestionIsAbout).
const remedyMinShare = 0.5

// laneRemedy ranks what followed the keyword lane's best failed tool calls (among its first
// replyK items, those scoring at least remedyMinShare of its best): for each failure of a session, its session's next events (messages, tool calls and
// decisions, at most remedyFollow) up to and including the retry: the same tool's next call with
// the same arguments (an agent's generic tool, a shell, runs the fix and the retry alike).
// The call that fixed a failure rarely shares a word with a question about the failure ("the
// migrate step fails with a lock timeout: what fixed it?" and "release_billing_lock success"),
// so no lane ranks it; the session's order knows it. The items rank in their failure's order,
// then in the session's. It starts when the keyword lane answers, beside the reply lane.
func (s *Service) laneRemedy(ctx context.Context, q pgexec.Executor, r *Request, keyword laneResult, asOf time.Time) laneResult {
	res := laneResult{name: LaneRemedy}
	var near []string
	for i, id := range keyword.items {
		if keyword.relevance[i] >= remedyMinShare*keyword.relevance[0] {
			near = append(near, id)
		}
	}
	seqs := followedSeqs(near)
	if len(seqs) == 0 {
		return res
	}
	rows, err := queries.LaneRemedy(ctx, q, dbsqlc.LaneRemedyParams{SpaceID: r.SpaceID, Seqs: seqs, AsOf: asOf, Follow: remedyFollow})
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
