package eventloom

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
)

// Outbox enqueues background work in the same transaction as an append, so the work exists
// if and only if the events do. jobs.Outbox is the River implementation.
type Outbox interface {
	// EnqueueTx records that spaceID has new events up to headSeq.
	EnqueueTx(ctx context.Context, tx pgx.Tx, spaceID string, headSeq int64) error
}

// Store appends to, replays and verifies the log.
type Store struct {
	db     pgexec.Executor
	q      *dbsqlc.Queries
	outbox Outbox
	logger *slog.Logger
}

// NewStore returns a Store over db: a pool (the service), or a connection or transaction
// (tests and tools that want the store's work inside their own transaction; appends then run
// in savepoints). outbox may be nil only for tools that must not schedule projection (such as
// benchmarks of the bare log); the service always passes one.
func NewStore(db pgexec.Executor, outbox Outbox, logger *slog.Logger) *Store {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Store{db: db, q: dbsqlc.New(), outbox: outbox, logger: logger}
}

// SpaceExists reports whether a space has had its first append.
func (s *Store) SpaceExists(ctx context.Context, space string) (bool, error) {
	return s.q.SpaceExists(ctx, s.db, space)
}
