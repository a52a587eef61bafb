package checkout

import (
	"context"

	"github.com/pgvector/pgvector-go"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/topic"
)

// topicLane ranks the space's sessions by how close their topic (the latent vector of their
// first message, package topic) is to the question's, and returns those first messages. It
// finds the conversation a question is about when the two share no words ("a show to watch
// tonight" and "stand-up comedy specials on Netflix"), which the keyword lane and the offline
// vector lane, both lexical, cannot. A space without a latent model yet (fewer than
// topic.DefaultParams.MinDocs items, or not built) gives no candidates.
type topicLane struct{}

func (topicLane) name() string    { return LaneTopic }
func (topicLane) after() []string { return nil }

func (topicLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LaneTopic}
	vec, err := topic.QueryVector(ctx, in.db, in.req.SpaceID, in.svc.cfg.TextSearchConfig, in.q.text)
	if err != nil || vec == nil {
		res.err = err
		return res
	}
	qv := pgvector.NewVector(vec)
	res.items, res.err = queries.LaneTopic(ctx, in.db, dbsqlc.LaneTopicParams{SpaceID: in.req.SpaceID, QueryVec: &qv, AsOf: in.asOf, MaxRows: int32(in.mech.TopicK)})
	return res
}
