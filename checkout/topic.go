package checkout

import (
	"context"
	"time"

	"github.com/pgvector/pgvector-go"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/topic"
)

// topicK is how many sessions the topic lane returns.
const topicK = 20

// laneTopic ranks the space's sessions by how close their topic (the latent vector of their
// first message, package topic) is to the query's, and returns those first messages. It
// finds the conversation a question is about when the two share no words ("a show to watch
// tonight" and "stand-up comedy specials on Netflix"), which the keyword lane and the
// offline vector lane, both lexical, cannot. A space without a latent model yet (fewer than
// topic.DefaultParams.MinDocs items, or not built) gives no candidates.
func (s *Service) laneTopic(ctx context.Context, q pgexec.Executor, r *Request, asOf time.Time) laneResult {
	res := laneResult{name: LaneTopic}
	vec, err := topic.QueryVector(ctx, q, r.SpaceID, s.cfg.TextSearchConfig, r.Query)
	if err != nil || vec == nil {
		res.err = err
		return res
	}
	qv := pgvector.NewVector(vec)
	res.items, res.err = queries.LaneTopic(ctx, q, dbsqlc.LaneTopicParams{SpaceID: r.SpaceID, QueryVec: &qv, AsOf: asOf, MaxRows: topicK})
	return res
}
