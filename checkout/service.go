package checkout

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/tokenize"
	"github.com/zaxy/zaxy/validation"
)

// Config configures a Service.
type Config struct {
	// TextSearchConfig must match the projector's. Defaults to "english".
	TextSearchConfig string
	// Embedder embeds queries for the vector lane; nil switches the lane off.
	Embedder embedding.Embedder
	// EfSearch is HNSW's candidate list size for the vector lane. Defaults to DefaultEfSearch.
	EfSearch int
	// Logger defaults to discarding.
	Logger *slog.Logger
	// PPRWeight is the personalized PageRank lane's fusion weight (ppr.go), for every purpose.
	// Defaults to 0: the lane does not run.
	PPRWeight float64
	// Policy, when set, is the retrieval policy every checkout ranks with, whatever the space's
	// current one is: benchmarks and the policy regression gate measure a candidate with it.
	// Defaults to nil: each checkout reads its space's current policy (built-in when none).
	Policy *Policy
	// Tokenizer counts a request's max_tokens when the request names no tokenizer. Defaults
	// to tokenize.Default (chars4).
	Tokenizer tokenize.Counter
}

// Service answers checkouts and raw queries.
type Service struct {
	// pool serves the lanes, which run concurrently.
	pool  *pgxpool.Pool
	store *eventloom.Store
	// log is where requireSpace reads whether a space exists: store, or a standby's log for a
	// Service ReadingFrom it.
	log *eventloom.Store
	cfg Config
	// decoded holds the fitted policies read so far, by version (CurrentPolicy).
	decoded sync.Map
}

// New returns a Service reading through pool and recording surfacing through store. It takes
// a pool, not a connection or a transaction: a checkout's lanes run concurrently, each on a
// connection of its own, and one connection serves one query at a time.
func New(pool *pgxpool.Pool, store *eventloom.Store, cfg Config) *Service {
	if cfg.TextSearchConfig == "" {
		cfg.TextSearchConfig = "english"
	}
	if cfg.EfSearch == 0 {
		cfg.EfSearch = DefaultEfSearch
	}
	if cfg.Tokenizer == nil {
		cfg.Tokenizer = tokenize.Default
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{pool: pool, store: store, cfg: cfg}
}

// spaceExists reports whether space has events. A space with none is an empty space: it is
// ranked like any other (every lane finds nothing), and nothing is recorded in it, so that a
// read never creates a space (docs/api.md, Spaces).
func (s *Service) spaceExists(ctx context.Context, space string) (bool, error) {
	ok, err := s.reads().SpaceExists(ctx, space)
	if err != nil {
		return false, fmt.Errorf("checkout %q: %w", space, err)
	}
	return ok, nil
}

// Tokenizer returns the counter a request naming tokenizer name is budgeted with: the named
// one, or the service's default when name is empty. An unknown name is a validation error on
// the field tokenizer.
func (s *Service) Tokenizer(name string) (tokenize.Counter, error) {
	if name == "" {
		return s.cfg.Tokenizer, nil
	}
	c, err := tokenize.Get(name)
	if err != nil {
		return nil, &validation.Error{Field: "tokenizer", Message: "must be one of " + strings.Join(tokenize.Names, ", ") + ", got " + name}
	}
	return c, nil
}
