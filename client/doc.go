// Package client is the Go client of Zaxy's HTTP API (/v1): one typed method per operation of
// the OpenAPI document (api/openapi.json), retries with backoff for calls that are safe to
// repeat, and Idempotency-Key support for appends. docs/client.md shows it in use.
//
// Requests and answers are the server's own types, from the wire leaves beside the domains
// (eventloomwire.NewEvent, checkoutwire.Request, checkoutwire.Packet, graphwire.Fact,
// reviewwire.Proposal, ...), so the two cannot disagree about a field, and a client program links
// no database code; this package defines only the shapes the server keeps inside its api package
// (query parameters, a few bodies and answers). Tests run every method
// against a real server, fail when the OpenAPI document gains an operation without a method
// here, and compare this package's request shapes with the server's field by field.
//
// It never retries a call that could append twice: a POST is retried only when it is a read
// (query, cypher, handoff, a checkout or assemble with NoRecord), is deduplicated by the
// server (document and transcript ingest), or carries an Idempotency-Key (WithIdempotencyKey).
package client
