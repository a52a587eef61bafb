package checkout

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/memoryitem"
)

// laneK is how many candidates each lane returns.
const laneK = 100

// laneResult is one lane's ranked item ids, best first.
type laneResult struct {
	name     string
	items    []string
	entities []string  // exact lane: the matched entity ids
	specs    []float64 // exact lane: each matched entity's specificity (lane_exact.sql)
	// scales, when set, multiply each item's fused contribution (parallel to items): the
	// exact and graph lanes scale by the matched entity's specificity, so a match on an
	// entity most items mention adds almost nothing.
	scales []float64
	// relevance, when set, is each item's score in the lane's own measure (parallel to items;
	// the keyword lane's BM25), which fusion does not read: the remedy lane follows only the
	// keyword hits near the best one.
	relevance []float64
	err       error
	took      time.Duration
}

// queryKeys are the candidate entity keys of a query: every 1–4 word window, normalized,
// plus tokens that look like ids, handles or paths.
func queryKeys(query string) []string {
	words := strings.FieldsFunc(query, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:!?\"()[]{}", r)
	})
	for i, w := range words {
		words[i] = strings.TrimRight(w, ".'")
	}
	seen := map[string]bool{}
	var keys []string
	for n := 1; n <= 4; n++ {
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

// speakerTail is how many of a space's events past the projection watermark the exact lane
// reads for the names that speak in them (their actor and data.name), which are no entity
// matches; the projected events' speakers are in speaker_names (lane_exact.sql).
const speakerTail = 1000

// stopword holds single words never worth an exact entity match.
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

// laneExact runs lane_exact.sql with a generic plan (generic_plan.sql): planning it for each
// query's array of candidate keys cost about as much as running it. One round trip.
func (s *Service) laneExact(ctx context.Context, q pgexec.Executor, r *Request, asOf time.Time) laneResult {
	res := laneResult{name: LaneExact}
	b := &pgx.Batch{}
	dbsqlc.QueueGenericPlan(b)
	b.Queue(qLaneExact, r.SpaceID, queryKeys(r.Query), asOf, laneK, speakerTail).Query(func(rows pgx.Rows) error {
		hits, err := pgx.CollectRows(rows, pgx.RowToStructByName[entityHit])
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
	res.err = q.SendBatch(ctx, b).Close()
	return res
}

// laneKeyword ranks by BM25 (Keyword). With byScore (Policy.KeywordByScore) each hit's fused
// contribution is scaled by its score over the best hit's: a hit that shares one common word
// with the question adds less than one that shares all its rare ones, where ranks alone make
// them nearly equal.
func (s *Service) laneKeyword(ctx context.Context, q pgexec.Executor, r *Request, asOf time.Time, byScore bool) laneResult {
	res := laneResult{name: LaneKeyword}
	hits, err := Keyword(ctx, q, KeywordParams{SpaceID: r.SpaceID, Query: r.Query, TextSearchConfig: s.cfg.TextSearchConfig, AsOf: asOf, K: laneK})
	for _, h := range hits {
		res.items = append(res.items, h.ItemID)
		res.relevance = append(res.relevance, h.Score)
		if byScore && hits[0].Score > 0 {
			res.scales = append(res.scales, max(h.Score, 0)/hits[0].Score) // BM25 here is never negative (lane_keyword.sql); a scale never is
		}
	}
	res.err = err
	return res
}

// laneVector embeds the query without the names of the space's speakers in it (speaker.go:
// a name is a rare word and would pull the query's vector toward the turns that address that
// person) and ranks the nearest items.
func (s *Service) laneVector(ctx context.Context, r *Request) laneResult {
	res := laneResult{name: LaneVector}
	if s.cfg.Embedder == nil {
		return res
	}
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
	query := r.Query
	if cands := nameCandidates(query); len(cands) > 0 {
		names, err := queries.SpeakersNamed(ctx, s.pool, dbsqlc.SpeakersNamedParams{SpaceID: r.SpaceID, NameKeys: cands})
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
		Vector: vs[0], K: laneK, EfSearch: s.cfg.EfSearch, AsOf: r.AsOf, Promoted: &pr.ok,
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

func (s *Service) laneGraph(ctx context.Context, q pgexec.Executor, r *Request, seeds []string, specs []float64, asOf time.Time) laneResult {
	res := laneResult{name: LaneGraph}
	if len(seeds) == 0 {
		return res
	}
	rows, err := q.Query(ctx, qLaneGraph, r.SpaceID, seeds, asOf, laneK, specs)
	if err != nil {
		res.err = err
		return res
	}
	hits, err := pgx.CollectRows(rows, pgx.RowToStructByName[entityHit])
	for _, h := range hits {
		res.items = append(res.items, h.Item)
		res.scales = append(res.scales, h.Spec)
	}
	res.err = err
	return res
}

// laneVerbatim ranks the not-yet-projected tail of the log by how many query words each
// event contains: the events past floor when it is set (the watermark the keyword lane read
// before its query), else past the current watermark.
func (s *Service) laneVerbatim(ctx context.Context, q pgexec.Executor, r *Request, asOf time.Time, floor *int64) laneResult {
	res := laneResult{name: LaneVerbatim}
	tail, err := queries.LaneVerbatim(ctx, q, dbsqlc.LaneVerbatimParams{SpaceID: r.SpaceID, AsOf: asOf, MaxRows: 1000, Floor: floor})
	if err != nil {
		res.err = err
		return res
	}
	words := contentWords(r.Query)
	type scored struct {
		item  string
		score int
		seq   int64
	}
	var found []scored
	for _, e := range tail {
		text := strings.ToLower(e.Content + " " + e.Data)
		n := 0
		for _, w := range words {
			if strings.Contains(text, w) {
				n++
			}
		}
		if n > 0 {
			found = append(found, scored{item: memoryitem.EventID(e.Seq), score: n, seq: e.Seq})
		}
	}
	slices.SortStableFunc(found, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return cmp.Compare(b.seq, a.seq)
	})
	for i := 0; i < len(found) && i < laneK; i++ {
		res.items = append(res.items, found[i].item)
	}
	return res
}

func (s *Service) laneRecent(ctx context.Context, q pgexec.Executor, r *Request, asOf time.Time) laneResult {
	res := laneResult{name: LaneRecent}
	seqs, err := queries.LaneRecent(ctx, q, dbsqlc.LaneRecentParams{SpaceID: r.SpaceID, SessionID: r.SessionID, AsOf: asOf, MaxRows: recentK})
	for _, seq := range seqs {
		res.items = append(res.items, memoryitem.EventID(seq))
	}
	res.err = err
	return res
}

// recentK is how many recent events the recent lane (and the session tier) consider.
const recentK = 10

// contentWords are the lowercased query words of three or more letters that are not
// stopwords.
func contentWords(query string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= 3 && !stopword[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// seqOfItem returns the seq of an event item id ("ev:12"), or 0.
func seqOfItem(id string) int64 {
	seq, _ := memoryitem.ParseEventID(id)
	return seq
}

// replyK is how many of the keyword lane's best items the reply and remedy lanes follow.
const replyK = 30

// followedSeqs are the seqs of the event items among the keyword lane's replyK best, best first:
// what the reply and remedy lanes follow.
func followedSeqs(keyword []string) []int64 {
	var seqs []int64
	for _, id := range keyword[:min(len(keyword), replyK)] {
		if seq := seqOfItem(id); seq > 0 {
			seqs = append(seqs, seq)
		}
	}
	return seqs
}

// laneReply ranks the answers to the keyword lane's best items that ask something: for each of
// them that is a message ending in a question mark, the next message of its session that had
// occurred by asOf, kept only when its speaker is one the query is about (a speaker it names, or
// the asker's role of a first-person query, speaker.go). A turn that answers a question often
// shares no word with a question about it ("They were scared but we reassured them" after "How
// did they handle the accident?"); following every hit instead, or every speaker's answer,
// brought the next turns of unrelated exchanges and cost LongMemEval recall (docs/benchmarks.md).
//
// With afterStatements > 0 (Policy.ReplyAfterStatements, builtin-6) it also follows the hits
// that ask nothing, to the next message when a speaker the query names says it, at that share of
// the lane's weight: a turn that goes on about what the one before said rarely repeats it ("This
// has been great for my mental health" after "Running can really boost your mood").
func (s *Service) laneReply(ctx context.Context, q pgexec.Executor, r *Request, keyword []string, asOf time.Time, afterStatements float64) laneResult {
	res := laneResult{name: LaneReply}
	seqs := followedSeqs(keyword)
	if len(seqs) == 0 {
		return res
	}
	replies, err := queries.LaneReply(ctx, q, dbsqlc.LaneReplyParams{SpaceID: r.SpaceID, Seqs: seqs, AsOf: asOf,
		Statements: afterStatements > 0})
	named, asked := newSpeakerNamer(r.Query), speakerOf(r.Query)
	for _, n := range replies {
		switch {
		case n.Asks && (named.names(n.Speaker) || (asked != "" && n.Role == asked)):
			res.items = append(res.items, memoryitem.EventID(n.Seq))
			res.scales = append(res.scales, 1)
		case !n.Asks && afterStatements > 0 && named.names(n.Speaker):
			res.items = append(res.items, memoryitem.EventID(n.Seq))
			res.scales = append(res.scales, afterStatements)
		}
	}
	if afterStatements == 0 {
		res.scales = nil // every item at the lane's weight, as before builtin-6
	}
	res.err = err
	return res
}
