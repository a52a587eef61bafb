package topic

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/sql"
	"github.com/zaxy/zaxy/topic/internal/dbsqlc"
)

// MaxDocs caps the documents a model is built from: the newest event items. Older items
// still get vectors by folding in their terms.
const MaxDocs = 20000

// rebuildGrowth is the share of new event items since the build (relative to the documents
// it was built from) that makes a model stale.
const rebuildGrowth = 0.2

// Refresher keeps the spaces' latent models (tables latent_models, latent_terms,
// latent_topics) up to date with their projections.
type Refresher struct {
	db     pgexec.Executor
	params Params
}

// NewRefresher returns a Refresher building with params (zero fields take DefaultParams').
// db is a pool (or a connection or transaction; its writes then run in savepoints).
func NewRefresher(db pgexec.Executor, params Params) *Refresher {
	return &Refresher{db: db, params: params.withDefaults()}
}

// queries are this package's generated queries (topic/internal/dbsqlc, from sql/topic).
var queries = dbsqlc.New()

// Hand-written: the writes unnest several arrays in one call, which sqlc's catalog cannot
// type (topic vectors travel as pgvector.Vector arrays, term vectors as blocks, block.go);
// query_terms runs on the checkout lanes' narrower querier and is read by name into queryTerm.
var (
	qTermsInsert  = sql.Query("topic/terms_insert")
	qTopicsUpsert = sql.Query("topic/topics_upsert")
	qQueryTerms   = sql.Query("topic/query_terms")
)

// termsInsertArgs are terms_insert.sql's parameters: a model's term vectors in SpaceID, as
// blocks (block.go): each block's first lexeme and its bytes, in the same order.
type termsInsertArgs struct {
	SpaceID string
	Firsts  []string
	Blocks  [][]byte
}

// execTermsInsert runs terms_insert.sql.
func execTermsInsert(ctx context.Context, tx pgx.Tx, a termsInsertArgs) error {
	_, err := tx.Exec(ctx, qTermsInsert, a.SpaceID, a.Firsts, a.Blocks)
	return err
}

// topicsUpsertArgs are topics_upsert.sql's parameters: session topics of SpaceID, one session,
// opener seq, time and vector per position.
type topicsUpsertArgs struct {
	SpaceID  string
	Sessions []string
	Seqs     []int64
	Times    []time.Time
	Vecs     []pgvector.Vector
}

// execTopicsUpsert runs topics_upsert.sql.
func execTopicsUpsert(ctx context.Context, tx pgx.Tx, a topicsUpsertArgs) error {
	_, err := tx.Exec(ctx, qTopicsUpsert, a.SpaceID, a.Sessions, a.Seqs, a.Times, a.Vecs)
	return err
}

// queryTermsArgs are query_terms.sql's parameters: the lexemes of Query (text search
// configuration TSConfig) that SpaceID's model knows.
type queryTermsArgs struct {
	SpaceID, Query, TSConfig string
}

// queryQueryTerms runs query_terms.sql.
func queryQueryTerms(ctx context.Context, q Querier, a queryTermsArgs) ([]queryTerm, error) {
	rows, err := q.Query(ctx, qQueryTerms, a.SpaceID, a.Query, a.TSConfig)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByName[queryTerm])
}

// queryTerm is a row of query_terms: a lexeme of the query, its frequency there and the block
// of the model that would hold its vector (block.go).
type queryTerm struct {
	Lexeme string `db:"lexeme"`
	Count  int32  `db:"count"`
	Block  []byte `db:"block"`
}

// PendingSpaces returns up to limit spaces whose topics or model are behind their projection
// (projected past the model's seen seq, or without a model and with at least MinDocs event
// items), in space order.
func (r *Refresher) PendingSpaces(ctx context.Context, limit int) ([]string, error) {
	spaces, err := queries.SpacesPending(ctx, r.db, dbsqlc.SpacesPendingParams{MinDocs: int64(r.MinDocs()), MaxRows: int32(max(min(limit, math.MaxInt32), 0))})
	if err != nil {
		return nil, fmt.Errorf("read spaces pending a topic model refresh: %w", err)
	}
	return spaces, nil
}

// MinDocs is the fewest event items a space needs for a model.
func (r *Refresher) MinDocs() int { return r.params.MinDocs }

// Result says what a refresh did.
type Result struct {
	// Rebuilt is true when the model was (re)built, false when only new topics were folded in.
	Rebuilt bool
	// Docs, Dims and Terms describe the model (zero when the space has none).
	Docs, Dims, Terms int
	// Topics is how many session topics were written.
	Topics int
	// Took is the refresh's wall time.
	Took time.Duration
}

// Refresh brings space's model up to date: it builds the model when there is none or when
// the space's event items grew by a fifth since the build, and otherwise folds in the topics
// of sessions that have none yet. A space with fewer than MinDocs event items gets no model
// (Result is zero, error nil).
func (r *Refresher) Refresh(ctx context.Context, space string) (Result, error) {
	start := time.Now()
	state, err := queries.State(ctx, r.db, space)
	docs, built := int(state.Docs), state.BuiltSeq
	hasModel := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return Result{}, fmt.Errorf("topic refresh %q: %w", space, err)
	}
	progress, err := queries.Progress(ctx, r.db, dbsqlc.ProgressParams{SpaceID: space, BuiltSeq: built})
	if err != nil {
		return Result{}, fmt.Errorf("topic refresh %q: %w", space, err)
	}
	projected, newer, total := progress.ProjectedSeq, progress.Newer, progress.Total
	var res Result
	switch {
	case !hasModel || float64(newer) >= rebuildGrowth*float64(docs):
		if total < int64(r.params.MinDocs) {
			return Result{}, nil
		}
		res, err = r.rebuild(ctx, space, projected)
	default:
		res, err = r.foldTopics(ctx, space, projected)
	}
	if err != nil {
		return Result{}, fmt.Errorf("topic refresh %q: %w", space, err)
	}
	res.Took = time.Since(start)
	return res, nil
}

// rebuild builds the model from the newest MaxDocs event items and replaces the stored one,
// with every session's topic, in one transaction.
func (r *Refresher) rebuild(ctx context.Context, space string, projected int64) (Result, error) {
	start := time.Now()
	rows, err := queries.Docs(ctx, r.db, dbsqlc.DocsParams{SpaceID: space, MaxDocs: MaxDocs})
	if err != nil {
		return Result{}, err
	}
	docs := make([]Doc, 0, len(rows))
	var lastSeq int64
	for _, row := range rows {
		docs = append(docs, docOf(row.Lexemes, row.Counts))
		lastSeq = max(lastSeq, row.Seq)
	}
	m, err := Build(docs, r.params)
	if errors.Is(err, ErrTooFewDocs) {
		return Result{}, nil
	}
	if err != nil {
		return Result{}, err
	}
	// The topics are folded from the term vectors as they read back from storage, so a
	// rebuild's topics equal the ones folded later from the stored terms.
	coded := make([]termCode, 0, len(m.Terms))
	for t, v := range m.Terms {
		scale, codes := narrow(quantize(v))
		coded = append(coded, termCode{lexeme: t, scale: scale, codes: codes})
		m.Terms[t] = dequantize(scale, codes)
	}
	slices.SortFunc(coded, func(a, b termCode) int { return strings.Compare(a.lexeme, b.lexeme) })
	blocks := packBlocks(m.Dims, coded)
	firsts := make([]string, len(blocks))
	datas := make([][]byte, len(blocks))
	for i, b := range blocks {
		firsts[i], datas[i] = b.first, b.data
	}
	topics, err := r.openers(ctx, space, true, m.Terms)
	if err != nil {
		return Result{}, err
	}
	buildMS := time.Since(start).Milliseconds()
	err = pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		if err := queries.Lock(ctx, tx, space); err != nil {
			return err
		}
		if err := checkNotErased(ctx, tx, space, projected); err != nil {
			return err
		}
		if err := queries.Clear(ctx, tx, space); err != nil {
			return err
		}
		if err := queries.ModelReplace(ctx, tx, dbsqlc.ModelReplaceParams{SpaceID: space, Dims: int32(m.Dims), Docs: int32(m.Docs),
			Terms: int32(len(m.Terms)), BuiltSeq: lastSeq, SeenSeq: projected, BuildMs: int32(buildMS)}); err != nil {
			return err
		}
		if err := execTermsInsert(ctx, tx, termsInsertArgs{SpaceID: space, Firsts: firsts, Blocks: datas}); err != nil {
			return err
		}
		return topics.write(ctx, tx, space)
	})
	if errors.Is(err, errErasedMeanwhile) {
		return Result{}, nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Rebuilt: true, Docs: m.Docs, Dims: m.Dims, Terms: len(m.Terms), Topics: len(topics.sessions)}, nil
}

// foldTopics folds the first messages of sessions without a topic into the stored model.
func (r *Refresher) foldTopics(ctx context.Context, space string, projected int64) (Result, error) {
	topics, err := r.openers(ctx, space, false, nil)
	if err != nil {
		return Result{}, err
	}
	err = pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		if err := queries.Lock(ctx, tx, space); err != nil {
			return err
		}
		if err := checkNotErased(ctx, tx, space, projected); err != nil {
			return err
		}
		if err := topics.write(ctx, tx, space); err != nil {
			return err
		}
		return queries.SeenSet(ctx, tx, dbsqlc.SeenSetParams{SpaceID: space, SeenSeq: projected})
	})
	if errors.Is(err, errErasedMeanwhile) {
		return Result{}, nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Topics: len(topics.sessions)}, nil
}

// errErasedMeanwhile means an event of the space was erased after the text was read: what
// was derived from it is dropped, and the next refresh starts from the purged text.
var errErasedMeanwhile = errors.New("an event was erased meanwhile")

// checkNotErased takes the space's erasure lock shared (waiting for an erasure in progress)
// and returns errErasedMeanwhile when the space was erased after the projection stood at
// projected, which is when the text was read.
func checkNotErased(ctx context.Context, tx pgx.Tx, space string, projected int64) error {
	if err := eventloom.LockErasureShared(ctx, tx, space); err != nil {
		return err
	}
	erased, err := eventloom.ErasedSince(ctx, tx, space, projected)
	if err != nil {
		return err
	}
	if erased {
		return errErasedMeanwhile
	}
	return nil
}

// topicRows are session topics ready to store.
type topicRows struct {
	sessions []string
	seqs     []int64
	times    []time.Time
	vecs     []pgvector.Vector
}

func (t *topicRows) write(ctx context.Context, tx pgx.Tx, space string) error {
	if len(t.sessions) == 0 {
		return nil
	}
	return execTopicsUpsert(ctx, tx, topicsUpsertArgs{SpaceID: space, Sessions: t.sessions, Seqs: t.seqs, Times: t.times, Vecs: t.vecs})
}

// openers folds each session's first message (all sessions, or those without a topic) into
// terms; with terms nil, the stored vectors of the messages' lexemes are looked up.
func (r *Refresher) openers(ctx context.Context, space string, all bool, terms map[string][]float32) (*topicRows, error) {
	rows, err := queries.Openers(ctx, r.db, dbsqlc.OpenersParams{SpaceID: space, AllSessions: all})
	if err != nil {
		return nil, err
	}
	type opener struct {
		session string
		seq     int64
		at      time.Time
		doc     Doc
	}
	found := make([]opener, len(rows))
	for i, row := range rows {
		found[i] = opener{session: row.SessionID, seq: row.Seq, at: row.OccurredAt, doc: docOf(row.Lexemes, row.Counts)}
	}
	if terms == nil && len(found) > 0 {
		need := map[string]bool{}
		var list []string
		for _, f := range found {
			for t := range f.doc {
				if !need[t] {
					need[t] = true
					list = append(list, t)
				}
			}
		}
		if terms, err = lookupTerms(ctx, r.db, space, list); err != nil {
			return nil, err
		}
	}
	out := &topicRows{}
	for _, f := range found {
		v := Fold(terms, f.doc)
		if v == nil {
			continue
		}
		out.sessions = append(out.sessions, f.session)
		out.seqs = append(out.seqs, f.seq)
		out.times = append(out.times, f.at)
		out.vecs = append(out.vecs, pgvector.NewVector(v))
	}
	return out, nil
}

// Querier runs a query: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// lookupTerms returns the stored vectors of the given lexemes in space's model.
func lookupTerms(ctx context.Context, q pgexec.Executor, space string, lexemes []string) (map[string][]float32, error) {
	blocks, err := queries.TermsLookup(ctx, q, dbsqlc.TermsLookupParams{SpaceID: space, Lexemes: lexemes})
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(lexemes))
	for _, l := range lexemes {
		want[l] = true
	}
	terms := make(map[string][]float32, len(lexemes))
	if err := termsOf(blocks, want, terms); err != nil {
		return nil, err
	}
	return terms, nil
}

// QueryVector returns the unit-length latent vector of a query in space's model (text
// search configuration tsConfig), or nil when the space has no model or the model knows
// none of the query's words.
func QueryVector(ctx context.Context, q Querier, space, tsConfig, query string) ([]float32, error) {
	found, err := queryQueryTerms(ctx, q, queryTermsArgs{SpaceID: space, Query: query, TSConfig: tsConfig})
	if err != nil {
		return nil, err
	}
	terms := make(map[string][]float32, len(found))
	doc := Doc{}
	for _, r := range found {
		doc[r.Lexeme] = int(r.Count)
		if err := termsOf([][]byte{r.Block}, map[string]bool{r.Lexeme: true}, terms); err != nil {
			return nil, err
		}
	}
	return Fold(terms, doc), nil
}

// docOf pairs a row's lexemes with their frequencies.
func docOf(lexemes []string, tfs []int32) Doc {
	d := make(Doc, len(lexemes))
	for i, t := range lexemes {
		d[t] = int(tfs[i])
	}
	return d
}
