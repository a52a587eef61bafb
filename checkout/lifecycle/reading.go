package lifecycle

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
)

// ReadingFrom returns a Service whose reads run on pool (a standby's) and log (the event log
// read through the same pool, for the handoff's chain check), retrieving memory through co (a
// checkout.Service ReadingFrom the same standby), and whose appends still go through s's store,
// on the primary. Assemble and HandoffBundle, which append nothing of their own, are what it is
// for; the routes that append (after-turn, the subagent cleanup, the session resume) use s.
func (s *Service) ReadingFrom(pool *pgxpool.Pool, log *eventloom.Store, co *checkout.Service) *Service {
	return &Service{pool: pool, store: s.store, log: log, checkout: co}
}

// reads is the log the handoff's chain check reads: log when ReadingFrom set one, else store.
func (s *Service) reads() *eventloom.Store {
	if s.log != nil {
		return s.log
	}
	return s.store
}
