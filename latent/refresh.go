package latent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/sql"
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
	pool   *pgxpool.Pool
	params Params
}

// NewRefresher returns a Refresher building with params (zero fields take DefaultParams').
func NewRefresher(pool *pgxpool.Pool, params Params) *Refresher {
	return &Refresher{pool: pool, params: params.withDefaults()}
}

// PendingSpaces returns up to limit spaces whose topics or model are behind their projection
// (projected past the model's seen seq, or without a model and with at least MinDocs event
// items), in space order.
func (r *Refresher) PendingSpaces(ctx context.Context, limit int) ([]string, error) {
	rows, err := r.pool.Query(ctx, sql.Query("latent/spaces_pending"), r.MinDocs(), limit)
	if err != nil {
		return nil, fmt.Errorf("read spaces pending a latent refresh: %w", err)
	}
	spaces, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("read spaces pending a latent refresh: %w", err)
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
	var docs int
	var built, seen int64
	err := r.pool.QueryRow(ctx, sql.Query("latent/state"), space).Scan(&docs, &built, &seen)
	hasModel := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return Result{}, fmt.Errorf("latent refresh %q: %w", space, err)
	}
	var projected, newer, total int64
	if err := r.pool.QueryRow(ctx, sql.Query("latent/progress"), space, built).Scan(&projected, &newer, &total); err != nil {
		return Result{}, fmt.Errorf("latent refresh %q: %w", space, err)
	}
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
		return Result{}, fmt.Errorf("latent refresh %q: %w", space, err)
	}
	res.Took = time.Since(start)
	return res, nil
}

// rebuild builds the model from the newest MaxDocs event items and replaces the stored one,
// with every session's topic, in one transaction.
func (r *Refresher) rebuild(ctx context.Context, space string, projected int64) (Result, error) {
	start := time.Now()
	rows, err := r.pool.Query(ctx, sql.Query("latent/docs"), space, MaxDocs)
	if err != nil {
		return Result{}, err
	}
	var docs []Doc
	var seq, lastSeq int64
	var lexemes []string
	var tfs []int32
	if _, err := pgx.ForEachRow(rows, []any{&seq, &lexemes, &tfs}, func() error {
		docs = append(docs, docOf(lexemes, tfs))
		lastSeq = max(lastSeq, seq)
		return nil
	}); err != nil {
		return Result{}, err
	}
	m, err := Build(docs, r.params)
	if errors.Is(err, ErrTooFewDocs) {
		return Result{}, nil
	}
	if err != nil {
		return Result{}, err
	}
	topics, err := r.openers(ctx, space, true, m.Terms)
	if err != nil {
		return Result{}, err
	}
	buildMS := time.Since(start).Milliseconds()
	terms := make([]string, 0, len(m.Terms))
	vecs := make([]string, 0, len(m.Terms))
	for t, v := range m.Terms {
		terms = append(terms, t)
		vecs = append(vecs, pgvector.NewVector(v).String())
	}
	err = pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, sql.Query("latent/lock"), space); err != nil {
			return err
		}
		if err := checkNotErased(ctx, tx, space, projected); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, sql.Query("latent/clear"), space); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, sql.Query("latent/model_replace"), space, m.Dims, m.Docs, len(m.Terms), lastSeq, projected, buildMS); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, sql.Query("latent/terms_insert"), space, terms, vecs); err != nil {
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
	err = pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, sql.Query("latent/lock"), space); err != nil {
			return err
		}
		if err := checkNotErased(ctx, tx, space, projected); err != nil {
			return err
		}
		if err := topics.write(ctx, tx, space); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, sql.Query("latent/seen_set"), space, projected)
		return err
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
	vecs     []string
}

func (t *topicRows) write(ctx context.Context, tx pgx.Tx, space string) error {
	if len(t.sessions) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, sql.Query("latent/topics_upsert"), space, t.sessions, t.seqs, t.times, t.vecs)
	return err
}

// openers folds each session's first message (all sessions, or those without a topic) into
// terms; with terms nil, the stored vectors of the messages' lexemes are looked up.
func (r *Refresher) openers(ctx context.Context, space string, all bool, terms map[string][]float32) (*topicRows, error) {
	rows, err := r.pool.Query(ctx, sql.Query("latent/openers"), space, all)
	if err != nil {
		return nil, err
	}
	type opener struct {
		session string
		seq     int64
		at      time.Time
		doc     Doc
	}
	var found []opener
	var o opener
	var lexemes []string
	var tfs []int32
	if _, err := pgx.ForEachRow(rows, []any{&o.session, &o.seq, &o.at, &lexemes, &tfs}, func() error {
		o.doc = docOf(lexemes, tfs)
		found = append(found, o)
		return nil
	}); err != nil {
		return nil, err
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
		if terms, err = lookupTerms(ctx, r.pool, space, list); err != nil {
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
		out.vecs = append(out.vecs, pgvector.NewVector(v).String())
	}
	return out, nil
}

// Querier runs a query: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// lookupTerms returns the stored vectors of the given lexemes in space's model.
func lookupTerms(ctx context.Context, q Querier, space string, lexemes []string) (map[string][]float32, error) {
	rows, err := q.Query(ctx, sql.Query("latent/terms_lookup"), space, lexemes)
	if err != nil {
		return nil, err
	}
	terms := map[string][]float32{}
	var lexeme string
	var vec pgvector.Vector
	if _, err := pgx.ForEachRow(rows, []any{&lexeme, &vec}, func() error {
		terms[lexeme] = vec.Slice()
		return nil
	}); err != nil {
		return nil, err
	}
	return terms, nil
}

// QueryVector returns the unit-length latent vector of a query in space's model (text
// search configuration tsConfig), or nil when the space has no model or the model knows
// none of the query's words.
func QueryVector(ctx context.Context, q Querier, space, tsConfig, query string) ([]float32, error) {
	rows, err := q.Query(ctx, sql.Query("latent/query_terms"), space, query, tsConfig)
	if err != nil {
		return nil, err
	}
	terms := map[string][]float32{}
	doc := Doc{}
	var lexeme string
	var tf int32
	var vec pgvector.Vector
	if _, err := pgx.ForEachRow(rows, []any{&lexeme, &tf, &vec}, func() error {
		terms[lexeme] = vec.Slice()
		doc[lexeme] = int(tf)
		return nil
	}); err != nil {
		return nil, err
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
