// Package checkout retrieves memory for an agent: lanes that each rank a space's memory items
// one way (exact, keyword, vector, graph, verbatim, recent, topic, reply), fused by weighted reciprocal
// rank into a cited, token-budgeted packet (docs/checkout.md); the session lifecycle built on
// it is the subpackage lifecycle. It reads projections and the log, and appends only its own
// bookkeeping (checkout.surfaced).
package checkout
