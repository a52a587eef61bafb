// Package jobs adapts Zaxy's background work to River: job argument types, workers, the
// River client and the transactional outbox that appends use. It holds no domain logic of its
// own; workers call into the domain packages.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/maintenance"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/topic"
)

// Config configures the River client.
type Config struct {
	// Workers is how many jobs run at once in this process. Defaults to 10.
	Workers int
	// Logger receives River's and the workers' logs. Defaults to discarding.
	Logger *slog.Logger
	// Projector applies events to the projections. Required.
	Projector *projection.Projector
	// Embedder computes embeddings of memory items; nil turns embedding off.
	Embedder *projection.Embedder
	// Inferrer runs the optional LLM-assisted extractor; nil (the default) turns it off.
	Inferrer *projection.Inferrer
	// Topic keeps the spaces' topic models (the latent semantic models of the checkout topic lane); nil turns it off.
	Topic *topic.Refresher
	// Latent derives the spaces' latent artifacts (the latent_rebuild job); nil turns it off.
	Latent *latent.Builder
	// Retrospective judges recorded outcomes (the retrospective_credit job); nil turns it off.
	Retrospective *retrospective.Assigner
	// Summaries keeps the optional LLM-assisted episode summaries (the episode_summarize job);
	// nil (the default) turns it off.
	Summaries *latent.SummaryWriter
	// JobTimeout cancels a job's context after this long. Defaults to DefaultJobTimeout.
	JobTimeout time.Duration
	// RescueStuckJobsAfter is how long a job may stay running before the leader's rescuer
	// takes it back (its process was killed, or it hangs) and retries it. Must be at least
	// JobTimeout. Defaults to DefaultRescueStuckJobsAfter (River's own default is an hour).
	RescueStuckJobsAfter time.Duration
	// ReindexInterval is how often the reindex job rebuilds half-empty indexes
	// (maintenance.Reindex, with Reindex's thresholds); 0 turns it off.
	ReindexInterval time.Duration
	// Reindex are the reindex job's thresholds and logger (the Logger above when unset).
	Reindex maintenance.Config
}

// Defaults of Config's job timing.
const (
	// DefaultJobTimeout is how long one job may run: 10 minutes.
	DefaultJobTimeout = 10 * time.Minute
	// DefaultRescueStuckJobsAfter is how long a job may stay running before it is rescued:
	// 15 minutes.
	DefaultRescueStuckJobsAfter = 15 * time.Minute
)

// WithDefaults returns a copy with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.Workers == 0 {
		c.Workers = 10
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.JobTimeout == 0 {
		c.JobTimeout = DefaultJobTimeout
	}
	if c.RescueStuckJobsAfter == 0 {
		c.RescueStuckJobsAfter = max(DefaultRescueStuckJobsAfter, c.JobTimeout)
	}
	return c
}

func (c Config) validate() error {
	if c.Workers < 1 || c.Workers > 10000 {
		return fmt.Errorf("jobs config: Workers must be between 1 and 10000, got %d", c.Workers)
	}
	if c.Projector == nil {
		return errors.New("jobs config: Projector is required")
	}
	if c.JobTimeout < 0 {
		return fmt.Errorf("jobs config: JobTimeout must be positive, got %s", c.JobTimeout)
	}
	if c.ReindexInterval < 0 {
		return fmt.Errorf("jobs config: ReindexInterval must not be negative (0 is off), got %s", c.ReindexInterval)
	}
	if err := c.Reindex.WithDefaults().Validate(); err != nil {
		return fmt.Errorf("jobs config: %w", err)
	}
	if c.RescueStuckJobsAfter < c.JobTimeout {
		return fmt.Errorf("jobs config: RescueStuckJobsAfter (%s) must be at least JobTimeout (%s), or running jobs would be rescued while they still work", c.RescueStuckJobsAfter, c.JobTimeout)
	}
	return nil
}

// newWorkers registers every worker Zaxy runs; db is the executor the workers read through.
func newWorkers(pool *pgxpool.Pool, cfg Config) *river.Workers {
	var db pgexec.Executor = pool
	workers := river.NewWorkers()
	reindex := cfg.Reindex
	if reindex.Logger == nil {
		reindex.Logger = cfg.Logger
	}
	river.AddWorker(workers, &ReindexWorker{pool: pool, cfg: reindex})
	river.AddWorker(workers, &ProjectSpaceWorker{projector: cfg.Projector, db: db, embedding: cfg.Embedder != nil, inference: cfg.Inferrer != nil, topic: cfg.Topic != nil, latent: cfg.Latent != nil, retro: cfg.Retrospective != nil, logger: cfg.Logger})
	river.AddWorker(workers, &SweepWorker{db: db, embedder: cfg.Embedder, inferrer: cfg.Inferrer, topic: cfg.Topic, latent: cfg.Latent,
		summaries: cfg.Summaries, retro: cfg.Retrospective != nil, logger: cfg.Logger})
	if cfg.Topic != nil {
		river.AddWorker(workers, &TopicSpaceWorker{refresher: cfg.Topic, logger: cfg.Logger})
	}
	river.AddWorker(workers, &SalienceDecayWorker{db: db, logger: cfg.Logger})
	if cfg.Latent != nil {
		river.AddWorker(workers, &LatentRebuildWorker{builder: cfg.Latent, summarize: cfg.Summaries != nil, logger: cfg.Logger})
	}
	if cfg.Retrospective != nil {
		river.AddWorker(workers, &RetrospectiveCreditWorker{assigner: cfg.Retrospective, logger: cfg.Logger})
	}
	if cfg.Embedder != nil {
		river.AddWorker(workers, &EmbedSpaceWorker{embedder: cfg.Embedder, logger: cfg.Logger})
	}
	if cfg.Inferrer != nil {
		river.AddWorker(workers, &InferSpaceWorker{inferrer: cfg.Inferrer, logger: cfg.Logger})
	}
	if cfg.Summaries != nil {
		river.AddWorker(workers, &EpisodeSummarizeWorker{summaries: cfg.Summaries, logger: cfg.Logger})
	}
	return workers
}

// NewClient returns a River client that works jobs (call Start) on pool.
func NewClient(pool *pgxpool.Pool, cfg Config) (*river.Client[pgx.Tx], error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	periodic := []*river.PeriodicJob{river.NewPeriodicJob(
		river.PeriodicInterval(sweepInterval),
		func() (river.JobArgs, *river.InsertOpts) { return SweepArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true},
	)}
	if job := reindexJob(cfg); job != nil {
		periodic = append(periodic, job)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:               cfg.Logger,
		Queues:               map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}},
		Workers:              newWorkers(pool, cfg),
		PeriodicJobs:         periodic,
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.RescueStuckJobsAfter,
		Middleware:           workerMiddleware,
	})
	if err != nil {
		return nil, fmt.Errorf("create river client: %w", err)
	}
	return client, nil
}

// NewInsertOnlyClient returns a River client that only inserts jobs (for the CLI).
func NewInsertOnlyClient(pool *pgxpool.Pool, logger *slog.Logger) (*river.Client[pgx.Tx], error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("create river client: %w", err)
	}
	return client, nil
}

// Outbox enqueues a projection job in an append's transaction. It implements
// eventloom.Outbox.
type Outbox struct {
	client *river.Client[pgx.Tx]
}

// NewOutbox returns an Outbox inserting through client.
func NewOutbox(client *river.Client[pgx.Tx]) *Outbox { return &Outbox{client: client} }

// EnqueueTx inserts a ProjectSpaceArgs job in tx.
func (o *Outbox) EnqueueTx(ctx context.Context, tx pgx.Tx, spaceID string, headSeq int64) error {
	if _, err := o.client.InsertTx(ctx, tx, ProjectSpaceArgs{SpaceID: spaceID, HeadSeq: headSeq}, nil); err != nil {
		return fmt.Errorf("insert project_space job: %w", err)
	}
	return nil
}
