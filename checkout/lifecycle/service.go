package lifecycle

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// Context lifecycle event types.
const (
	// SessionResumedType marks that an agent's context was compacted and it resumes the
	// session; assembling context after it returns a recovery packet.
	SessionResumedType = "session.resumed"
	// SubagentCleanedUpType records that a subagent finished and was cleaned up.
	SubagentCleanedUpType = "subagent.cleaned_up"
)

// Service runs the context lifecycle of a session: it reads the log through pool, appends
// through store and retrieves memory through checkout.
type Service struct {
	pool  *pgxpool.Pool
	store *eventloom.Store
	// log is where the handoff's chain check reads the log: store, or a standby's log for a
	// Service ReadingFrom it.
	log      *eventloom.Store
	checkout *checkout.Service
}

// New returns a Service reading sessions through pool, appending through store (on the same
// database) and retrieving memory through co.
func New(pool *pgxpool.Pool, store *eventloom.Store, co *checkout.Service) *Service {
	return &Service{pool: pool, store: store, checkout: co}
}
