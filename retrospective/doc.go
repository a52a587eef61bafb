// Package retrospective is the retrospective pass of the latent layer (docs/latent.md,
// "Retrospective credit"): it binds an outcome.recorded event to what was checked out into
// that session, classifies the outcome (success, partial, failure, unknown), attributes
// credit or blame to the surfaced memories and memory actions by deterministic rules, and
// appends the resulting feedback.recorded and proposal.created events, each citing the trace.
//
// It must never judge an item that was not surfaced into the outcome's session, never invent
// a cause the trace does not show (an unexplained outcome is recorded as a known unknown), and
// never append the same judgement twice: every event it appends carries an idempotency key
// derived from the outcome's seq and the item or proposal kind.
package retrospective
