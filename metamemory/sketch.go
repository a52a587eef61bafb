package metamemory

import (
	"context"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/metamemory/internal/dbsqlc"
	"github.com/zaxy/zaxy/sql"
)

// Limits bound what the feeling of knowing keeps in the process.
type Limits struct {
	// Lexemes is how many lexemes a space's sketch keeps with their exact document frequency:
	// the most frequent. The rest go to a Bloom filter that knows them but not their
	// frequency (taken as at most the smallest one kept). Default 65536 (about 5 MiB).
	Lexemes int
	// TailBits caps the Bloom filter of the rarest lexemes, in bits. Default 1<<23 (1 MiB,
	// about 840,000 lexemes at 1 % false positives).
	TailBits int
	// Entities is how many entity names a sketch keeps: the most mentioned. Default 16384.
	Entities int
	// Spaces is how many spaces' sketches the process keeps; the least recently asked is
	// dropped first. Default 128.
	Spaces int
	// DeltaItems is the most items projected since a sketch was built that are added to it;
	// past that it is rebuilt from the term statistics. Default 20000.
	DeltaItems int
}

// WithDefaults returns a copy with zero fields set to their defaults.
func (l Limits) WithDefaults() Limits {
	if l.Lexemes <= 0 {
		l.Lexemes = 65536
	}
	if l.TailBits <= 0 {
		l.TailBits = 1 << 23
	}
	if l.Entities <= 0 {
		l.Entities = 16384
	}
	if l.Spaces <= 0 {
		l.Spaces = 128
	}
	if l.DeltaItems <= 0 {
		l.DeltaItems = 20000
	}
	return l
}

// sketch is what the feeling of knowing knows of one space, as of a projection watermark: its
// lexemes with their document frequencies, its entity names and, when a source is wired, its
// salience histogram. It is built from the projections the projector keeps (term_stats,
// term_totals, entities) and brought forward by what the projector added since (memory_items
// past the watermark).
type sketch struct {
	watermark, items, tokens int64
	// df holds the most frequent lexemes with their document frequency.
	df map[string]int32
	// tail knows the rest, each with a document frequency of at most tailDF.
	tail   *bloom
	tailDF int32
	// entities maps an entity key (graph.Key of its name) to its mentions.
	entities map[string]int32
	// speakers are the names that speak in the space (lower-cased actor or data.name of its
	// event items), and spoken counts the items in which each of them used each lexeme
	// (speakerTerm pairs).
	speakers map[string]bool
	spoken   *countMin
	// salience is the space's salience histogram, nil without a salience projection.
	salience *SalienceHistogram
	// rebuild is set when a delta left the sketch past its bounds (the tail filter is full).
	rebuild bool
}

// speakerTerm is the key of a (speaker, lexeme) pair in sketch.spoken.
func speakerTerm(speaker, lexeme string) string { return speaker + "\x00" + lexeme }

// lookup returns a lexeme's document frequency in the space, 0 when unknown.
func (s *sketch) lookup(lexeme string) int32 {
	if df, ok := s.df[lexeme]; ok {
		return df
	}
	if s.tail != nil && s.tail.has(lexeme) {
		return s.tailDF
	}
	return 0
}

// idf is the keyword lane's BM25 inverse document frequency of a lexeme with document
// frequency df among the space's items (checkout/keyword.go); df 0 gives the largest value.
func (s *sketch) idf(df int32) float64 {
	n := float64(s.items)
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// bytes estimates the sketch's memory: map entries at about 48 bytes plus the key.
func (s *sketch) bytes() int {
	b := 0
	for k := range s.df {
		b += 48 + len(k)
	}
	for k := range s.entities {
		b += 48 + len(k)
	}
	if s.tail != nil {
		b += s.tail.bytes()
	}
	b += s.spoken.bytes()
	return b
}

// qDeltaTerms is the hand-written query of the lexemes projected since a sketch was built
// (sqlc cannot type unnest over a tsvector).
var qDeltaTerms = sql.Query("metamemory/delta_terms")

// qSpeakerTerms is the hand-written query of the (speaker, lexeme) pairs of the items projected
// in a range of seqs (unnest over a tsvector too).
var qSpeakerTerms = sql.Query("metamemory/speaker_terms")

// seqSpanArgs are the parameters of delta_terms.sql and speaker_terms.sql: the items of the
// space projected from events with seq in (After, Upto].
type seqSpanArgs struct {
	SpaceID     string
	After, Upto int64
}

// queryDeltaTerms runs delta_terms.sql.
func queryDeltaTerms(ctx context.Context, db pgexec.Executor, a seqSpanArgs) ([]deltaTerm, error) {
	rows, err := db.Query(ctx, qDeltaTerms, a.SpaceID, a.After, a.Upto)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByName[deltaTerm])
}

// querySpeakerTerms runs speaker_terms.sql.
func querySpeakerTerms(ctx context.Context, db pgexec.Executor, a seqSpanArgs) ([]speakerPair, error) {
	rows, err := db.Query(ctx, qSpeakerTerms, a.SpaceID, a.After, a.Upto)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByName[speakerPair])
}

// speakerPair is a row of speaker_terms.sql.
type speakerPair struct {
	Speaker string `db:"speaker"`
	Lexeme  string `db:"lexeme"`
	Items   int32  `db:"items"`
}

// readSpeakerTerms reads the (speaker, lexeme) pairs of the items projected in (after, upto].
func readSpeakerTerms(ctx context.Context, tx pgx.Tx, space string, after, upto int64) ([]speakerPair, error) {
	pairs, err := querySpeakerTerms(ctx, tx, seqSpanArgs{SpaceID: space, After: after, Upto: upto})
	if err != nil {
		return nil, fmt.Errorf("feeling of knowing: speaker terms: %w", err)
	}
	return pairs, nil
}

// addSpoken adds (speaker, lexeme) pairs to the sketch.
func (s *sketch) addSpoken(pairs []speakerPair) {
	for _, p := range pairs {
		s.speakers[p.Speaker] = true
		s.spoken.add(speakerTerm(p.Speaker, p.Lexeme), uint32(p.Items))
	}
}

// queries runs the package's queries compiled by sqlc (sql/metamemory).
var queries = dbsqlc.New()

// readOnlySnapshot is how a sketch is read: one snapshot, so the totals, the lexemes and the
// entities agree with the watermark they are read at.
var readOnlySnapshot = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// refresh brings s (nil for none yet) to the space's current projection and returns the sketch
// to use: s itself brought forward by a delta when that is exact and small, otherwise a new one
// built from the term statistics.
func refresh(ctx context.Context, db pgexec.Executor, space string, s *sketch, lim Limits) (*sketch, error) {
	tx, err := pgexec.BeginTx(ctx, db, readOnlySnapshot)
	if err != nil {
		return nil, fmt.Errorf("feeling of knowing: begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	st, err := queries.State(ctx, tx, dbsqlc.StateParams{SpaceID: space, TsConfig: "simple", Query: ""})
	if err != nil {
		return nil, fmt.Errorf("feeling of knowing: state: %w", err)
	}
	if s != nil && !s.rebuild && st.Watermark >= s.watermark {
		ok, err := s.applyDelta(ctx, tx, space, st, lim)
		if err != nil {
			return nil, err
		}
		if ok {
			return s, nil
		}
	}
	n, err := build(ctx, tx, space, st, lim)
	if err != nil {
		return nil, err
	}
	if n.salience, err = readSalience(ctx, tx, space); err != nil {
		return nil, err
	}
	return n, nil
}

// build reads a space's whole sketch.
func build(ctx context.Context, tx pgx.Tx, space string, st dbsqlc.StateRow, lim Limits) (*sketch, error) {
	s := &sketch{watermark: st.Watermark, items: st.Items, tokens: st.Tokens,
		df: map[string]int32{}, entities: map[string]int32{}, speakers: map[string]bool{}}
	if err := queries.BuildSettings(ctx, tx); err != nil {
		return nil, fmt.Errorf("feeling of knowing: settings: %w", err)
	}
	terms, err := queries.SketchTerms(ctx, tx, space)
	if err != nil {
		return nil, fmt.Errorf("feeling of knowing: terms: %w", err)
	}
	head := terms[:min(len(terms), lim.Lexemes)]
	for _, t := range head {
		s.df[t.Lexeme] = t.Df
	}
	if rest := terms[len(head):]; len(rest) > 0 || len(head) == lim.Lexemes {
		// Room for as many again as the tail holds, so deltas fit until the next rebuild.
		s.tail = newBloom(2*len(rest)+1024, lim.TailBits)
		for _, t := range rest {
			s.tail.add(t.Lexeme)
		}
		s.tailDF = max(head[len(head)-1].Df, 1)
	}
	ents, err := queries.SketchEntities(ctx, tx, dbsqlc.SketchEntitiesParams{SpaceID: space, MaxEntities: int32(lim.Entities)})
	if err != nil {
		return nil, fmt.Errorf("feeling of knowing: entities: %w", err)
	}
	for _, e := range ents {
		s.entities[e.Key] = e.Mentions
	}
	pairs, err := readSpeakerTerms(ctx, tx, space, 0, st.Watermark)
	if err != nil {
		return nil, err
	}
	// Room for as many again, so deltas fit until the next rebuild.
	s.spoken = newCountMin(2*len(pairs)+1024, lim.TailBits)
	s.addSpoken(pairs)
	return s, nil
}

// applyDelta adds to s what was projected between its watermark and st's. It reports false,
// changing nothing, when that is not exact (the space's totals are not s's plus the delta's:
// a rebuild or an erasure changed items already counted) or too large to be worth it.
func (s *sketch) applyDelta(ctx context.Context, tx pgx.Tx, space string, st dbsqlc.StateRow, lim Limits) (bool, error) {
	span := dbsqlc.DeltaTotalsParams{SpaceID: space, After: s.watermark, Upto: st.Watermark}
	d, err := queries.DeltaTotals(ctx, tx, span)
	if err != nil {
		return false, fmt.Errorf("feeling of knowing: delta totals: %w", err)
	}
	if s.items+d.Items != st.Items || s.tokens+d.Tokens != st.Tokens || d.Items > int64(lim.DeltaItems) {
		return false, nil
	}
	terms, err := queryDeltaTerms(ctx, tx, seqSpanArgs{SpaceID: space, After: s.watermark, Upto: st.Watermark})
	if err != nil {
		return false, fmt.Errorf("feeling of knowing: delta terms: %w", err)
	}
	ents, err := queries.DeltaEntities(ctx, tx, dbsqlc.DeltaEntitiesParams{SpaceID: space, After: s.watermark, Upto: st.Watermark})
	if err != nil {
		return false, fmt.Errorf("feeling of knowing: delta entities: %w", err)
	}
	pairs, err := readSpeakerTerms(ctx, tx, space, s.watermark, st.Watermark)
	if err != nil {
		return false, err
	}
	s.addSpoken(pairs)
	for _, t := range terms {
		switch _, inHead := s.df[t.Lexeme]; {
		case inHead || len(s.df) < lim.Lexemes:
			s.df[t.Lexeme] += t.DF
		case s.tail != nil:
			if !s.tail.has(t.Lexeme) {
				s.tail.add(t.Lexeme)
			}
		default:
			// The head was not full when built, so there is no tail yet.
			s.tail = newBloom(1024, lim.TailBits)
			s.tailDF = 1
			s.tail.add(t.Lexeme)
		}
	}
	for _, e := range ents {
		_, known := s.entities[e.Key]
		switch {
		case e.Dropped:
			delete(s.entities, e.Key)
		case known || len(s.entities) < lim.Entities:
			s.entities[e.Key] = e.Mentions
		}
	}
	s.watermark, s.items, s.tokens = st.Watermark, st.Items, st.Tokens
	s.rebuild = s.tail != nil && s.tail.full() || s.spoken.full()
	return true, nil
}

// deltaTerm is a row of delta_terms.sql.
type deltaTerm struct {
	Lexeme string `db:"lexeme"`
	DF     int32  `db:"df"`
}
