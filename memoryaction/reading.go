package memoryaction

import "github.com/zaxy/zaxy/internal/pgexec"

// ReadingFrom returns Actions that read through db (a standby's pool) and still append
// through a's store, on the primary: the reading actions answer from the standby and record
// what they surfaced (memory_action.surfaced) on the primary, as their last step. The writing
// actions, which check what they cite before appending, are for a itself.
func (a *Actions) ReadingFrom(db pgexec.Executor) *Actions {
	return &Actions{db: db, store: a.store}
}
