package checkout

import (
	"context"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/graph"
)

// exactLane ranks the items that mention an entity the question names (lane_exact.sql), each
// scaled by the entity's specificity, and returns the matched entities for the graph and PPR
// lanes. It runs lane_exact.sql with a generic plan (generic_plan.sql): planning it for each
// question's array of candidate keys costs about as much as running it. One round trip.
type exactLane struct{}

func (exactLane) name() string    { return LaneExact }
func (exactLane) after() []string { return nil }

func (exactLane) run(ctx context.Context, in *laneInput) laneResult {
	res := laneResult{name: LaneExact}
	b := &pgx.Batch{}
	dbsqlc.QueueGenericPlan(b)
	a := laneExactArgs{SpaceID: in.req.SpaceID, Keys: in.q.keys, AsOf: in.asOf, K: in.mech.LaneK, SpeakerTail: in.mech.SpeakerTail}
	queueLaneExact(b, a, func(hits []entityHit, err error) error {
		seen := map[string]bool{}
		for _, h := range hits {
			res.items = append(res.items, h.Item)
			res.scales = append(res.scales, h.Spec)
			if !seen[h.Entity] {
				seen[h.Entity] = true
				res.entities = append(res.entities, h.Entity)
				res.specs = append(res.specs, h.Spec)
			}
		}
		return err
	})
	res.err = in.db.SendBatch(ctx, b).Close()
	return res
}

// queryKeys are the candidate entity keys of a query: every window of one to maxWords words,
// normalized, plus tokens that look like ids, handles or paths.
func queryKeys(query string, maxWords int) []string {
	words := strings.FieldsFunc(query, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:!?\"()[]{}", r)
	})
	for i, w := range words {
		words[i] = strings.TrimRight(w, ".'")
	}
	seen := map[string]bool{}
	var keys []string
	for n := 1; n <= maxWords; n++ {
		for i := 0; i+n <= len(words); i++ {
			k := graph.Key(strings.Join(words[i:i+n], " "))
			if k != "" && !seen[k] && !stopword[k] {
				seen[k] = true
				keys = append(keys, k, words[i])
			}
		}
	}
	return keys
}

// stopword holds single words never worth an exact entity match, a content word or a speaker's
// name. It is a fixed list, the question's vocabulary: a mechanism record does not carry it.
var stopword = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with from as is are was were be been
		it its this that these those i me my we our you your he she they them his her their what which who whom when
		where why how do does did done have has had not no yes can could should would will shall may might must about
		into over under again than then so too very just also any all some each more most other such only own same
		there here out up down off`) {
		stopword[w] = true
	}
}
