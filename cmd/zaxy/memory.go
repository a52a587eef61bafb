package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
)

// chat returns the optional LLM's chat client and the model@version its output is recorded
// under, or nil when no LLM is configured (ZAXY_LLM_URL, ZAXY_LLM_MODEL, ZAXY_LLM_VERSION).
func (c memoryConfig) chat() (*extract.OpenAIChat, string, error) {
	if c.llm.BaseURL == "" {
		return nil, "", nil
	}
	llm, err := extract.NewOpenAIChat(c.llm)
	return llm, c.llm.Model + "@" + c.llmVersion, err
}

// inferrer returns the LLM-assisted extractor's Inferrer, or nil when it is off.
func (c memoryConfig) inferrer(pool *pgxpool.Pool) (*projection.Inferrer, error) {
	llm, model, err := c.chat()
	if llm == nil || err != nil {
		return nil, err
	}
	return projection.NewInferrer(pool, llm, model), nil
}

// summaries returns the LLM-assisted episode summaries' writer (the same model as the
// extractor), or nil when no LLM is configured.
func (c memoryConfig) summaries(pool *pgxpool.Pool) (*latent.SummaryWriter, error) {
	llm, model, err := c.chat()
	if llm == nil || err != nil {
		return nil, err
	}
	return latent.NewSummaryWriter(pool, llm, model)
}

// defaultModelDir is where make models installs pretrained weights (ZAXY_MODEL_DIR).
const defaultModelDir = "/var/cache/zaxy/models"

// wordVecPath is where the word-vector embedder's weights are expected.
func (c memoryConfig) wordVecPath() string {
	return filepath.Join(c.modelDir, embedding.WordVecPackage, "wordvec.bin")
}

// usePath is the directory of the Universal Sentence Encoder's files (ZAXY_EMBEDDER=use).
func (c memoryConfig) usePath() string {
	return filepath.Join(c.modelDir, embedding.USEPackage)
}

// embedProvider returns the configured embedding provider, or nil when embedding is off.
func (c memoryConfig) embedProvider() (embedding.Embedder, error) {
	p, _, err := c.embedProviderWhy()
	return p, err
}

// embedProviderWhy is embedProvider with a sentence saying why this provider is active.
// ZAXY_EMBEDDER=auto (the default) picks the word-vector embedder when its weights are in
// the model cache and the hashing embedder otherwise (the word vectors helped fused retrieval
// and the vector lane on both dev sets: docs/embeddings.md); weights that are present but
// broken are an error, never a silent fallback.
func (c memoryConfig) embedProviderWhy() (embedding.Embedder, string, error) {
	switch c.embedder {
	case "off":
		return nil, "ZAXY_EMBEDDER=off", nil
	case "openai":
		p, err := embedding.NewOpenAI(c.openai)
		if err != nil {
			return nil, "", fmt.Errorf("embedding provider: %w", err)
		}
		return p, "ZAXY_EMBEDDER=openai", nil
	case "offline":
		return embedding.NewOffline(), "ZAXY_EMBEDDER=offline", nil
	case "use":
		dir := c.usePath()
		p, err := embedding.NewUSE(dir)
		if err != nil {
			return nil, "", fmt.Errorf("embedding provider: %w", err)
		}
		return p, "ZAXY_EMBEDDER=use: universal sentence encoder found at " + dir, nil
	}
	path := c.wordVecPath()
	if _, err := os.Stat(path); err != nil && c.embedder == "auto" {
		return embedding.NewOffline(), "no word vectors at " + path + " (run 'make models'), so the hashing embedder", nil
	}
	p, err := embedding.NewWordVec(path)
	if err != nil {
		return nil, "", fmt.Errorf("embedding provider: %w (run 'make models', or set ZAXY_EMBEDDER=offline)", err)
	}
	return p, "word vectors found at " + path, nil
}

// openMemory builds the projector and the embedder (nil when embedding is off) on pool.
func openMemory(ctx context.Context, pool *pgxpool.Pool, c memoryConfig, logger *slog.Logger) (*projection.Projector, *projection.Embedder, error) {
	pcfg, err := c.projection(logger)
	if err != nil {
		return nil, nil, err
	}
	proj, err := projection.New(ctx, pool, pcfg)
	if err != nil {
		return nil, nil, err
	}
	provider, err := c.embedProvider()
	if err != nil || provider == nil {
		return proj, nil, err
	}
	return proj, projection.NewEmbedder(pool, provider, 0), nil
}

// defaultPoolConns is the pool size when the URL does not set pool_max_conns: checkout runs
// its lanes on several connections at once. zaxy serve's hot-path pool (ZAXY_DB_POOL_CONNS)
// and the CLI's pools have this size.
const defaultPoolConns = 16

// Defaults of the other pools zaxy serve opens.
const (
	// defaultAnalyticsConns is the analytics pool's size (ZAXY_DB_ANALYTICS_CONNS).
	defaultAnalyticsConns = 4
	// workerConnsExtra is what the worker pool (ZAXY_DB_WORKER_CONNS) has beyond ZAXY_WORKERS:
	// River's producer, LISTEN notifier, leader election and maintenance need their own.
	workerConnsExtra = 4
)

// poolSizes are the connections of each pool zaxy serve opens, so that one kind of work cannot
// take the connections another needs: hot (appends, replay, checkout, token checks), analytics
// (Cypher, facts, entities, the disclosure views, verify) and worker (River and its jobs).
// hot 0 means the URL's pool_max_conns or defaultPoolConns.
type poolSizes struct {
	hot, analytics, worker int
}

// readPoolSizes reads ZAXY_DB_POOL_CONNS, ZAXY_DB_ANALYTICS_CONNS and ZAXY_DB_WORKER_CONNS
// (default workers + workerConnsExtra).
func readPoolSizes(r envReader, workers int) (poolSizes, error) {
	var p poolSizes
	for _, v := range []struct {
		name string
		def  int
		dst  *int
	}{
		{"ZAXY_DB_POOL_CONNS", 0, &p.hot},
		{"ZAXY_DB_ANALYTICS_CONNS", 0, &p.analytics}, // the table's default
		{"ZAXY_DB_WORKER_CONNS", workers + workerConnsExtra, &p.worker},
	} {
		n, err := r.positive(v.name, int64(v.def))
		if err != nil {
			return p, err
		}
		if n > 10000 {
			return p, fmt.Errorf("%s must be at most 10000, got %d", v.name, n)
		}
		*v.dst = int(n)
	}
	if p.worker < 2 {
		return p, fmt.Errorf("ZAXY_DB_WORKER_CONNS must be at least 2 (River keeps one for LISTEN), got %d", p.worker)
	}
	return p, nil
}

// newPool opens a pool on dbURL with defaultPoolConns unless the URL says otherwise.
func newPool(ctx context.Context, dbURL string) (*pgxpool.Pool, error) {
	return newPoolSized(ctx, dbURL, 0, "")
}

// newPoolSized opens a pool on dbURL of conns connections; 0 means the URL's pool_max_conns or
// defaultPoolConns. name, unless the URL sets application_name, is the connections'
// application_name (zaxy-hot, zaxy-analytics, zaxy-worker), so that pg_stat_activity shows
// which pool a backend belongs to.
func newPoolSized(ctx context.Context, dbURL string, conns int, name string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	if _, set := cfg.ConnConfig.RuntimeParams["application_name"]; name != "" && !set {
		cfg.ConnConfig.RuntimeParams["application_name"] = name
	}
	switch {
	case conns > 0:
		cfg.MaxConns = int32(conns)
	case !strings.Contains(dbURL, "pool_max_conns"):
		cfg.MaxConns = defaultPoolConns
	}
	if cfg.MinConns > cfg.MaxConns {
		cfg.MinConns = cfg.MaxConns
	}
	pgexec.Configure(cfg)
	return pgxpool.NewWithConfig(ctx, cfg)
}

// openPool connects to the database, waiting at most a short while.
func openPool(ctx context.Context, dbURL string) (*pgxpool.Pool, error) {
	if dbURL == "" {
		return nil, errNoDatabaseURL
	}
	pool, err := newPool(ctx, dbURL)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		// A database that cannot be reached is a failure (exit 1), not a usage error.
		return nil, &exitError{code: 1, err: fmt.Errorf("connect to database: %w", err)}
	}
	return pool, nil
}

// benchEmbedder is the configured embedding provider, the hashing embedder when embedding is
// off (zaxy bench checkout times its query embedding).
func (c memoryConfig) benchEmbedder() (embedding.Embedder, error) {
	p, err := c.embedProvider()
	if p == nil && err == nil {
		p = embedding.NewOffline()
	}
	return p, err
}
