package checkout

import (
	"context"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/memoryitem"
)

// replyLane ranks the answers to the keyword lane's best items that ask something: for each of
// them that is a message ending in a question mark, the next message of its session that had
// occurred by as_of, kept only when its speaker is one the question is about (a speaker it
// names, or the asker's role of a first-person question, speaker.go). A turn that answers a
// question often shares no word with a question about it ("They were scared but we reassured
// them" after "How did they handle the accident?").
//
// With Policy.ReplyAfterStatements above 0 it also follows the hits that ask nothing, to the
// next message when a speaker the question names says it, at that share of the lane's weight:
// a turn that goes on about what the one before said rarely repeats it ("This has been great
// for my mental health" after "Running can really boost your mood").
type replyLane struct{}

func (replyLane) name() string    { return LaneReply }
func (replyLane) after() []string { return []string{LaneKeyword} }
func (replyLane) follows() string { return LaneKeyword }

func (replyLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LaneReply}
	afterStatements := in.policy.ReplyAfterStatements
	seqs := followedSeqs(in.result(LaneKeyword).items, in.mech.ReplyK)
	if len(seqs) == 0 {
		return res
	}
	replies, err := queries.LaneReply(ctx, in.db, dbsqlc.LaneReplyParams{SpaceID: in.req.SpaceID, Seqs: seqs, AsOf: in.asOf,
		Statements: afterStatements > 0})
	for _, n := range replies {
		switch {
		case n.Asks && (in.q.named.names(n.Speaker) || (in.q.asked != "" && n.Role == in.q.asked)):
			res.items = append(res.items, memoryitem.EventID(n.Seq))
			res.scales = append(res.scales, 1)
		case !n.Asks && afterStatements > 0 && in.q.named.names(n.Speaker):
			res.items = append(res.items, memoryitem.EventID(n.Seq))
			res.scales = append(res.scales, afterStatements)
		}
	}
	if afterStatements == 0 {
		res.scales = nil // every item at the lane's weight
	}
	res.err = err
	return res
}

// followedSeqs are the seqs of the event items among the keyword lane's k best, best first:
// what the reply and remedy lanes follow.
func followedSeqs(keyword []string, k int) []int64 {
	var seqs []int64
	for _, id := range keyword[:min(len(keyword), k)] {
		if seq := seqOfItem(id); seq > 0 {
			seqs = append(seqs, seq)
		}
	}
	return seqs
}
