package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zaxy/zaxy/placement"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/internal/tracing/otlp"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/tokenize"
)

// config is zaxy's environment, read once by the runner (readConfig) through the options
// table and handed to every command; nothing below cmd/ reads the environment.
type config struct {
	// databaseURL is ZAXY_DATABASE_URL, else DATABASE_URL; "" when neither is set.
	databaseURL     string
	addr            string
	http            api.Config
	shutdownTimeout time.Duration
	workers         int
	memory          memoryConfig
	// authOff serves without bearer tokens (ZAXY_AUTH=off, loopback addresses only).
	authOff bool
	// mcpProfile is the tools /mcp and zaxy mcp list by default (ZAXY_MCP_PROFILE).
	mcpProfile string
	// mcpToken is the bearer token zaxy mcp acts as (ZAXY_MCP_TOKEN); "" trusts the process.
	mcpToken string
	// url and token are the server the memory commands talk to and the bearer token they
	// send (ZAXY_URL, ZAXY_TOKEN; --url and --token win); "" url uses the database.
	url, token string
	// space is zaxy ingest's default --space (ZAXY_SPACE).
	space string
	// pools are the sizes of the hot-path, analytics and worker pools.
	pools poolSizes
	// jobTimeout and rescueAfter are River's JobTimeout and RescueStuckJobsAfter
	// (ZAXY_JOB_TIMEOUT, ZAXY_RESCUE_STUCK_JOBS_AFTER).
	jobTimeout, rescueAfter time.Duration
	// reindex is the reindex job's schedule and thresholds (ZAXY_REINDEX_*).
	reindex reindexConfig
	// tracing is where spans go (the standard OTEL_* variables); off without an endpoint.
	tracing otlp.Config
	// sharedBudgets keeps the per-caller budgets in the database (ZAXY_SHARED_BUDGETS=on).
	sharedBudgets bool
	// replicas are the standbys zaxy serve reads from (ZAXY_REPLICA_*).
	replicas replicaConfig
	// clusters are the primaries spaces are placed on (ZAXY_CLUSTERS), the home cluster
	// first among them; nil serves every space from ZAXY_DATABASE_URL.
	clusters []placement.Cluster
}

// errNoDatabaseURL is the error of a command that needs the database when none is configured.
var errNoDatabaseURL = errors.New("ZAXY_DATABASE_URL is not set (run 'make db' to get one)")

// readConfig parses every option of the table from getenv and checks the ones that depend on
// each other; an error names the variable.
func readConfig(getenv func(string) string) (*config, error) {
	r := envReader{getenv: getenv}
	c := &config{databaseURL: r.str("ZAXY_DATABASE_URL"), addr: r.str("ZAXY_ADDR"), mcpToken: r.str("ZAXY_MCP_TOKEN"), space: r.str("ZAXY_SPACE"),
		url: r.str("ZAXY_URL"), token: r.str("ZAXY_TOKEN")}
	if c.databaseURL == "" {
		c.databaseURL = r.str("DATABASE_URL")
	}
	var err error
	if c.http, err = readAPIConfig(r); err != nil {
		return nil, err
	}
	n, err := r.positive("ZAXY_WORKERS", 0)
	if err != nil {
		return nil, err
	}
	c.workers = int(n)
	if c.pools, err = readPoolSizes(r, c.workers); err != nil {
		return nil, err
	}
	if err := c.readJobTiming(r); err != nil {
		return nil, err
	}
	if c.reindex, err = readReindexConfig(r); err != nil {
		return nil, err
	}
	if c.shutdownTimeout, err = r.duration("ZAXY_SHUTDOWN_TIMEOUT", 0); err != nil {
		return nil, err
	}
	if c.memory, err = readMemoryConfig(r); err != nil {
		return nil, err
	}
	if c.mcpProfile, err = mcp.ParseProfile(r.str("ZAXY_MCP_PROFILE"), "ZAXY_MCP_PROFILE"); err != nil {
		return nil, err
	}
	if c.tracing, err = readTracingConfig(r); err != nil {
		return nil, err
	}
	if c.sharedBudgets, err = readSharedBudgets(r); err != nil {
		return nil, err
	}
	if c.replicas, err = readReplicaConfig(r); err != nil {
		return nil, err
	}
	if c.clusters, err = readClusters(r, c); err != nil {
		return nil, err
	}
	switch v := r.str("ZAXY_AUTH"); v {
	case "on":
	case "off":
		if !loopback(c.addr) {
			return nil, fmt.Errorf("ZAXY_AUTH=off is only allowed on a loopback address, not %s; create tokens with 'zaxy token create' instead", c.addr)
		}
		c.authOff = true
	default:
		return nil, fmt.Errorf("ZAXY_AUTH must be on or off, got %q", v)
	}
	return c, nil
}

// readTracingConfig reads the standard OpenTelemetry variables that decide whether spans are
// exported (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SDK_DISABLED)
// and the service name.
func readTracingConfig(r envReader) (otlp.Config, error) {
	c := otlp.Config{Endpoint: r.str("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), ServiceName: r.str("OTEL_SERVICE_NAME")}
	if c.Endpoint == "" {
		c.Endpoint = r.str("OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	switch v := strings.ToLower(r.str("OTEL_SDK_DISABLED")); v {
	case "true":
		c.Disabled = true
	case "false":
	default:
		return c, fmt.Errorf("OTEL_SDK_DISABLED must be true or false, got %q", v)
	}
	return c, nil
}

// minResponseBytes is the least ZAXY_MAX_RESPONSE_BYTES may be: 1 MiB holds the largest
// checkout packet (32,000 tokens), so a checkout, which records what it surfaced, is never
// answered 413 after recording.
const minResponseBytes = 1 << 20

// readAPIConfig reads the HTTP API's limits, which zaxy serve and zaxy mcp share.
func readAPIConfig(r envReader) (api.Config, error) {
	var c api.Config
	var err error
	if c.MaxBodyBytes, err = r.positive("ZAXY_MAX_BODY_BYTES", 0); err != nil {
		return c, err
	}
	n, err := r.positive("ZAXY_MAX_BATCH", 0)
	if err != nil {
		return c, err
	}
	c.MaxBatch = int(n)
	if c.RequestTimeout, err = r.duration("ZAXY_REQUEST_TIMEOUT", 0); err != nil {
		return c, err
	}
	if n, err = r.positive("ZAXY_MAX_IN_FLIGHT", 0); err != nil {
		return c, err
	}
	c.MaxInFlight = int(n)
	if n, err = r.positive("ZAXY_MAX_ANALYTICS_IN_FLIGHT", 0); err != nil {
		return c, err
	}
	c.MaxAnalyticsInFlight = int(n)
	if c.MaxAnalyticsInFlight > c.MaxInFlight {
		return c, fmt.Errorf("ZAXY_MAX_ANALYTICS_IN_FLIGHT (%d) must be at most ZAXY_MAX_IN_FLIGHT (%d)", c.MaxAnalyticsInFlight, c.MaxInFlight)
	}
	if c.MaxResponseBytes, err = r.positive("ZAXY_MAX_RESPONSE_BYTES", 0); err != nil {
		return c, err
	}
	if c.MaxResponseBytes < minResponseBytes {
		return c, fmt.Errorf("ZAXY_MAX_RESPONSE_BYTES must be at least %d, got %d", minResponseBytes, c.MaxResponseBytes)
	}
	return c, nil
}

// readJobTiming reads River's job timeout and when a stuck job is rescued.
func (c *config) readJobTiming(r envReader) error {
	var err error
	if c.jobTimeout, err = r.duration("ZAXY_JOB_TIMEOUT", 0); err != nil {
		return err
	}
	// The rescue default is the jobs package's, or the job timeout when that is longer.
	if c.rescueAfter, err = r.duration("ZAXY_RESCUE_STUCK_JOBS_AFTER", max(jobs.DefaultRescueStuckJobsAfter, c.jobTimeout)); err != nil {
		return err
	}
	if c.rescueAfter < c.jobTimeout {
		return fmt.Errorf("ZAXY_RESCUE_STUCK_JOBS_AFTER (%s) must be at least ZAXY_JOB_TIMEOUT (%s)", c.rescueAfter, c.jobTimeout)
	}
	return nil
}

// memoryConfig is the projection and embedding configuration.
type memoryConfig struct {
	textSearchConfig string
	tokenizer        string // what max_tokens counts in by default (tokenize.Names)
	gate             string // on or off: the encoding gate's server default
	gateParaphrase   string // off, wordvec or offline: the gate's paraphrase embedder
	embedder         string // auto, wordvec, use, offline, openai or off
	modelDir         string // the model cache (ZAXY_MODEL_DIR)
	openai           embedding.OpenAIConfig
	// llm is the optional LLM-assisted extractor; off when llm.BaseURL is empty.
	llm        extract.OpenAIChatConfig
	llmVersion string
}

func readMemoryConfig(r envReader) (memoryConfig, error) {
	c := memoryConfig{
		textSearchConfig: r.str("ZAXY_TEXT_SEARCH_CONFIG"),
		gate:             r.str("ZAXY_GATE"),
		gateParaphrase:   r.str("ZAXY_GATE_PARAPHRASE"),
		tokenizer:        r.str("ZAXY_TOKENIZER"),
		embedder:         r.str("ZAXY_EMBEDDER"),
		modelDir:         r.str("ZAXY_MODEL_DIR"),
		openai: embedding.OpenAIConfig{
			BaseURL: r.str("ZAXY_EMBEDDING_URL"),
			APIKey:  r.str("ZAXY_EMBEDDING_API_KEY"),
			Model:   r.str("ZAXY_EMBEDDING_MODEL"),
			Version: r.str("ZAXY_EMBEDDING_VERSION"),
		},
		llm:        extract.OpenAIChatConfig{BaseURL: r.str("ZAXY_LLM_URL"), Model: r.str("ZAXY_LLM_MODEL"), APIKey: r.str("ZAXY_LLM_API_KEY")},
		llmVersion: r.str("ZAXY_LLM_VERSION"),
	}
	if v := r.str("ZAXY_EMBEDDING_DIMENSIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("ZAXY_EMBEDDING_DIMENSIONS must be a positive integer, got %q", v)
		}
		c.openai.Dimensions = n
	}
	if !tokenize.Valid(c.tokenizer) {
		return c, fmt.Errorf("ZAXY_TOKENIZER must be one of %s, got %q", strings.Join(tokenize.Names, ", "), c.tokenizer)
	}
	if c.gate != projection.GateOn && c.gate != projection.GateOff {
		return c, fmt.Errorf("ZAXY_GATE must be on or off, got %q", c.gate)
	}
	switch c.gateParaphrase {
	case "off", "wordvec", "offline":
	default:
		return c, fmt.Errorf("ZAXY_GATE_PARAPHRASE must be off, wordvec or offline, got %q", c.gateParaphrase)
	}
	if (c.llm.BaseURL == "") != (c.llm.Model == "") {
		return c, errors.New("the LLM-assisted extractor needs both ZAXY_LLM_URL and ZAXY_LLM_MODEL (or neither, to leave it off)")
	}
	return c, c.checkEmbedder()
}

// projection is the projector configuration: the text search configuration, the encoding
// gate's default and its paraphrase embedder, which every projector of one deployment must
// share (a rebuild reproduces the incremental projection only under the same settings).
// ZAXY_GATE_PARAPHRASE=wordvec without the word vectors is an error, never a silent fallback.
func (c memoryConfig) projection(logger *slog.Logger) (projection.Config, error) {
	cfg := projection.Config{TextSearchConfig: c.textSearchConfig, Gate: c.gate, Logger: logger}
	switch c.gateParaphrase {
	case "offline":
		cfg.GateParaphrase = embedding.NewOffline()
	case "wordvec":
		e, err := loadGateWordVec(c.wordVecPath())
		if err != nil {
			return cfg, fmt.Errorf("ZAXY_GATE_PARAPHRASE=wordvec: %w (run 'make models')", err)
		}
		cfg.GateParaphrase = e
	}
	return cfg, nil
}

// gateWordVecs holds the word-vector embedders loaded for the gate, by path: a process that
// opens several projectors loads the weights once.
var gateWordVecs sync.Map

// loadGateWordVec returns the word-vector embedder of the weights at path, loading them once.
func loadGateWordVec(path string) (*embedding.WordVec, error) {
	if e, ok := gateWordVecs.Load(path); ok {
		return e.(*embedding.WordVec), nil
	}
	e, err := embedding.NewWordVec(path)
	if err != nil {
		return nil, err
	}
	got, _ := gateWordVecs.LoadOrStore(path, e)
	return got.(*embedding.WordVec), nil
}

// checkEmbedder checks the embedder's name and, for openai, that the provider is configured.
func (c memoryConfig) checkEmbedder() error {
	switch c.embedder {
	case "auto", "wordvec", "use", "offline", "off":
	case "openai":
		if c.openai.BaseURL == "" || c.openai.Model == "" || c.openai.Dimensions == 0 {
			return errors.New("ZAXY_EMBEDDER=openai needs ZAXY_EMBEDDING_URL, ZAXY_EMBEDDING_MODEL and ZAXY_EMBEDDING_DIMENSIONS")
		}
	default:
		return fmt.Errorf("ZAXY_EMBEDDER must be auto, wordvec, use, offline, openai or off, got %q", c.embedder)
	}
	return nil
}

// loopback reports whether a listen address only accepts local connections.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// counter is the tokenizer a request's max_tokens counts in when it names none (ZAXY_TOKENIZER).
func (c memoryConfig) counter() tokenize.Counter {
	if t, err := tokenize.Get(c.tokenizer); err == nil {
		return t
	}
	return tokenize.Default
}
