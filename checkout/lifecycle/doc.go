// Package lifecycle is the context lifecycle of an agent's session, built on checkout's public
// API: assembling the context of the next step (a checkout plus the working set), recording a
// finished turn, a handoff bundle another agent can resume from, the cleanup of a subagent, and
// the recovery packet read from the log after a context compaction (docs/checkout.md). It
// appends only the lifecycle's own events (session.resumed, subagent.cleaned_up) and a turn's
// events; it never ranks memory itself.
package lifecycle
