// Package checkout retrieves memory for an agent: lanes that each rank a space's memory items
// one way (exact, keyword, vector, graph, verbatim, recent, topic, reply), fused by weighted reciprocal
// rank into a cited, token-budgeted packet, and the context lifecycle built on it
// (docs/checkout.md). It reads projections and the log, and appends only its own bookkeeping
// (checkout.surfaced) and the lifecycle's events.
package checkout
