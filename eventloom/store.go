package eventloom

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Outbox enqueues background work in the same transaction as an append, so the work exists
// if and only if the events do. jobs.Outbox is the River implementation.
type Outbox interface {
	// EnqueueTx records that spaceID has new events up to headSeq.
	EnqueueTx(ctx context.Context, tx pgx.Tx, spaceID string, headSeq int64) error
}

// Store appends to, replays and verifies the log.
type Store struct {
	pool   *pgxpool.Pool
	outbox Outbox
	logger *slog.Logger
}

// NewStore returns a Store over pool. outbox may be nil only for tools that must not schedule
// projection (such as benchmarks of the bare log); the service always passes one.
func NewStore(pool *pgxpool.Pool, outbox Outbox, logger *slog.Logger) *Store {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Store{pool: pool, outbox: outbox, logger: logger}
}

// Pool returns the pool the store uses.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }
