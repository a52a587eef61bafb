// Package doctor checks a Zaxy installation and says, for each problem, what to do about it:
// database reachable, schema current, extensions, the AGE mirror, every space's hash chain,
// projection lag, spaces whose projection cannot advance, River jobs and the embedding setup.
// It only reads.
package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/doctor/internal/dbsqlc"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/migrations"
)

// Status of one check.
const (
	StatusOK   = "ok"
	StatusWarn = "warn" // works, but something is off or optional and missing
	StatusFail = "fail" // something is broken
)

// Check is the result of one check.
type Check struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
	// Remedy says what to do; empty when nothing needs doing.
	Remedy string `json:"remedy,omitempty"`
}

// Options configure the checks.
type Options struct {
	// Embedder is the configured embedding provider; nil means embedding is off.
	Embedder embedding.Embedder
	// EmbedderReason says why Embedder is the active provider (for example where its
	// weights were found, or why the fallback is used); printed with the embedder check.
	EmbedderReason string
	// ProbeEmbedder calls the provider once to check it answers with the right dimension.
	ProbeEmbedder bool
	// FullChains verifies every event of every space instead of each space's recent tail.
	FullChains bool
	// StallAfter is how long a space's projection may stand before one event before the
	// stalled_projection check fails naming it. Defaults to DefaultStallAfter.
	StallAfter time.Duration
	// Standbys are the primary's standbys reads are served from, each checked for its lag.
	Standbys []Standby
	// MaxStandbyLag is the lag past which a standby's check warns (DefaultMaxStandbyLag when
	// zero).
	MaxStandbyLag time.Duration
}

// queries are this package's generated queries (doctor/internal/dbsqlc, from sql/doctor).
var queries = dbsqlc.New()

// Report is every check, in order.
type Report struct {
	Checks []Check `json:"checks"`
	// OK is false when any check failed.
	OK bool `json:"ok"`
}

// Run performs the checks. It stops early only when the database is unreachable.
func Run(ctx context.Context, pool *pgxpool.Pool, opts Options) *Report {
	r := &Report{}
	if err := pool.Ping(ctx); err != nil {
		r.add(Check{Name: "database", Status: StatusFail, Message: "cannot reach the database: " + err.Error(),
			Remedy: "check ZAXY_DATABASE_URL, or run 'make db' for a local one"})
		return r.done()
	}
	r.add(Check{Name: "database", Status: StatusOK, Message: "reachable"})
	if err := migrations.Check(ctx, pool); err != nil {
		r.add(Check{Name: "schema", Status: StatusFail, Message: err.Error(), Remedy: "run 'zaxy migrate' as the schema owner"})
		return r.done()
	}
	r.add(Check{Name: "schema", Status: StatusOK, Message: fmt.Sprintf("at version %d", migrations.Latest())})
	r.extensions(ctx, pool)
	r.chains(ctx, pool, opts.FullChains)
	r.lag(ctx, pool)
	if opts.StallAfter <= 0 {
		opts.StallAfter = DefaultStallAfter
	}
	r.stalled(ctx, pool, opts.StallAfter)
	r.jobs(ctx, pool)
	r.standbys(ctx, pool, opts.Standbys, opts.MaxStandbyLag)
	r.embeddings(ctx, pool, opts)
	return r.done()
}

func (r *Report) add(c Check) { r.Checks = append(r.Checks, c) }

func (r *Report) done() *Report {
	r.OK = true
	for _, c := range r.Checks {
		if c.Status == StatusFail {
			r.OK = false
		}
	}
	return r
}

func (r *Report) extensions(ctx context.Context, pool *pgxpool.Pool) {
	rows, err := queries.Extensions(ctx, pool)
	if err != nil {
		r.add(Check{Name: "extensions", Status: StatusFail, Message: err.Error()})
		return
	}
	for _, row := range rows {
		name, installed, available := row.Name, row.Installed, row.Available
		switch {
		case name == "vector" && installed == "":
			r.add(Check{Name: "vector", Status: StatusFail, Message: "pgvector is not installed",
				Remedy: "install postgresql-17-pgvector and run 'zaxy migrate'"})
		case name == "vector":
			r.add(Check{Name: "vector", Status: StatusOK, Message: "pgvector " + installed})
		case name == "age" && installed == "" && available == "":
			r.add(Check{Name: "age", Status: StatusWarn, Message: "AGE is off: Apache AGE is not available, so the Cypher mirror and /cypher are off (the relational graph works)",
				Remedy: "install postgresql-17-age and run 'zaxy migrate' to turn the Cypher mirror on"})
		case name == "age" && installed == "":
			r.add(Check{Name: "age", Status: StatusWarn, Message: "AGE is off: Apache AGE " + available + " is available but not created in this database",
				Remedy: "run 'zaxy migrate' as a superuser (CREATE EXTENSION age), then 'zaxy rebuild --all' to fill the mirror"})
		default:
			r.add(Check{Name: "age", Status: StatusOK, Message: "AGE " + installed + " is on: the graph is mirrored per space"})
			r.ageLoadable(ctx, pool)
			r.ageMirror(ctx, pool)
		}
	}
}

// ageLoadable checks that this role can load AGE for Cypher queries.
func (r *Report) ageLoadable(ctx context.Context, pool *pgxpool.Pool) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		r.add(Check{Name: "age_load", Status: StatusFail, Message: err.Error()})
		return
	}
	defer conn.Release()
	var errs []string
	for _, lib := range []string{"$libdir/plugins/age", "age"} {
		if _, err := conn.Exec(ctx, "LOAD '"+lib+"'"); err == nil {
			r.add(Check{Name: "age_load", Status: StatusOK, Message: "this role can load AGE (" + lib + ") for Cypher queries"})
			return
		} else {
			errs = append(errs, err.Error())
		}
	}
	r.add(Check{Name: "age_load", Status: StatusWarn, Message: "this role cannot load AGE, so /cypher fails: " + strings.Join(errs, "; "),
		Remedy: "link age.so into $libdir/plugins (ln -s ../age.so $(pg_config --pkglibdir)/plugins/age.so) or preload it"})
}

// LagSummary is the projection lag over all spaces.
type LagSummary struct {
	// LaggingSpaces counts the spaces whose projections are behind their log.
	LaggingSpaces int64
	// TotalLag is the events logged but not yet projected, over all spaces.
	TotalLag int64
	// MaxLag is the largest lag of any space, WorstSpace that space ("" when none lags).
	MaxLag     int64
	WorstSpace string
}

// Lag sums the projection lag of every space (the doctor's projection_lag check and the
// API's /metrics read it).
func Lag(ctx context.Context, db pgexec.Executor) (*LagSummary, error) {
	r, err := queries.Lag(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("read projection lag: %w", err)
	}
	return &LagSummary{LaggingSpaces: r.LaggingSpaces, TotalLag: r.TotalLag, MaxLag: r.MaxLag, WorstSpace: r.WorstSpace}, nil
}

func (r *Report) lag(ctx context.Context, pool *pgxpool.Pool) {
	sum, err := Lag(ctx, pool)
	if err != nil {
		r.add(Check{Name: "projection_lag", Status: StatusFail, Message: err.Error()})
		return
	}
	spaces, total, worst, worstSpace := sum.LaggingSpaces, sum.TotalLag, sum.MaxLag, sum.WorstSpace
	switch {
	case spaces == 0:
		r.add(Check{Name: "projection_lag", Status: StatusOK, Message: "every space is projected up to its head"})
	default:
		st := StatusOK
		remedy := ""
		if worst > 10000 {
			st = StatusWarn
			remedy = "make sure 'zaxy worker' or 'zaxy serve' is running; 'zaxy projection status' lists every space"
		}
		r.add(Check{Name: "projection_lag", Status: st, Remedy: remedy,
			Message: fmt.Sprintf("%d spaces lag by %d events in all; the most, %s, by %d", spaces, total, worstSpace, worst)})
	}
}

func (r *Report) embeddings(ctx context.Context, pool *pgxpool.Pool, opts Options) {
	rows, err := queries.EmbeddingModels(ctx, pool)
	if err != nil {
		r.add(Check{Name: "embeddings", Status: StatusFail, Message: err.Error()})
		return
	}
	type model struct {
		name    string
		dim     int
		vectors int64
	}
	models := make([]model, len(rows))
	for i, row := range rows {
		models[i] = model{name: row.Model, dim: int(row.Dim), vectors: row.Vectors}
	}
	if opts.Embedder == nil {
		r.add(Check{Name: "embedder", Status: StatusWarn, Message: "embedding is off (ZAXY_EMBEDDER=off): the vector lane has nothing new to search"})
	} else {
		msg := fmt.Sprintf("%s, %d dimensions", opts.Embedder.Model(), opts.Embedder.Dimensions())
		if opts.EmbedderReason != "" {
			msg += ": " + opts.EmbedderReason
		}
		r.add(Check{Name: "embedder", Status: StatusOK, Message: msg})
		for _, m := range models {
			if m.name == opts.Embedder.Model() && m.dim != opts.Embedder.Dimensions() {
				r.add(Check{Name: "embedder_dimensions", Status: StatusFail,
					Message: fmt.Sprintf("%s is recorded with %d dimensions but the provider is configured for %d", m.name, m.dim, opts.Embedder.Dimensions()),
					Remedy:  "fix ZAXY_EMBEDDING_DIMENSIONS, or give the new model a new ZAXY_EMBEDDING_VERSION"})
			}
		}
		if opts.ProbeEmbedder {
			r.probe(ctx, opts.Embedder)
		}
	}
	var withVectors []string
	for _, m := range models {
		if m.vectors > 0 {
			withVectors = append(withVectors, fmt.Sprintf("%s (%d vectors)", m.name, m.vectors))
		}
	}
	if len(withVectors) > 1 {
		r.add(Check{Name: "embedding_models", Status: StatusWarn,
			Message: "vectors of several models are stored; each is only compared with its own: " + strings.Join(withVectors, ", "),
			Remedy:  "after switching models for good, delete the old model's rows from embeddings"})
	}
}

func (r *Report) probe(ctx context.Context, e embedding.Embedder) {
	vs, err := e.Embed(ctx, []string{"zaxy doctor"})
	switch {
	case err != nil:
		r.add(Check{Name: "embedder_probe", Status: StatusFail, Message: "the embedding provider failed: " + err.Error(),
			Remedy: "check ZAXY_EMBEDDING_URL, ZAXY_EMBEDDING_MODEL and ZAXY_EMBEDDING_API_KEY"})
	case len(vs) != 1 || len(vs[0]) != e.Dimensions():
		r.add(Check{Name: "embedder_probe", Status: StatusFail, Message: "the embedding provider answered with the wrong shape",
			Remedy: "check ZAXY_EMBEDDING_DIMENSIONS against the model"})
	default:
		r.add(Check{Name: "embedder_probe", Status: StatusOK, Message: fmt.Sprintf("the provider answered with %d dimensions", len(vs[0]))})
	}
}
