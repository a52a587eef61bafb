package checkout

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
)

// ReadingFrom returns a Service that ranks from pool (a standby's) and log (the event log
// read through the same pool) and records what it surfaced through s's store, on the
// primary: every lane, the space check, the policy and the not-yet-projected tail the
// verbatim lane reads come from one server, so they agree with each other. It shares s's
// configuration; build it once per standby (it keeps its own cache of decoded policies).
func (s *Service) ReadingFrom(pool *pgxpool.Pool, log *eventloom.Store) *Service {
	return &Service{pool: pool, store: s.store, log: log, cfg: s.cfg}
}

// reads is the log requireSpace reads: log when ReadingFrom set one, else store.
func (s *Service) reads() *eventloom.Store {
	if s.log != nil {
		return s.log
	}
	return s.store
}
