// Package policy learns, versions, promotes and rolls back a space's retrieval policy: the
// lane weights and boosts checkout ranks with (checkout.Policy; docs/checkout.md, "Retrieval
// policy"). A fit is an offline, deterministic coordinate search over the space's own log: it
// replays the recorded checkouts (checkout.surfaced, with each surfaced item's lane ranks and
// weights) against the feedback they received, and proposes a version (policy.proposed) only
// when it replays better than the current one. Promotion passes a regression gate on the same
// replay (and, when the caller measures them, the dev benchmarks) before policy.promoted is
// appended; rollback appends policy.rolled_back and restores the version the last promotion
// replaced. The projector turns these events into the tables checkout reads.
//
// It must never change ranking except through those events (so a rebuild reproduces the
// current policy), never tune for one question (the fit sees the whole log at once), and never
// promote a version whose replay is worse than the current one's.
package policy
