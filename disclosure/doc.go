// Package disclosure serves progressive disclosure: three cheap views of a space that let an
// agent look before it loads. The index says what topics exist (entities, fact predicates,
// event types, sessions), each with the token cost of loading its detail; the timeline lists
// recent actions and decisions, newest first; an item shows one event, fact, entity or listing
// in full. Every view is rendered as prompt-ready text with citation markers (#seq@hash) and
// reports its own token cost (EstimateTokens), never more than the caller's budget.
//
// It only reads: it never appends to the log and never writes projections. Zaxy's bookkeeping
// events (checkout.*, zaxy.*) never appear in any view. Output is deterministic: the same
// database state gives byte-identical views.
package disclosure
