// Package checkoutwire holds checkout's types that cross HTTP: the request, the packet with its
// tiers, items, budget, diagnostics and memory weave, a raw query's result, the prospective pass's
// answer and the retrieval policy. Package checkout keeps their names through type aliases; package
// client imports this package instead, so a client program links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire, as
// eventloom/eventloomwire explains). This one must never import pgx, a domain package or anything
// that does I/O: only the standard library and other leaves.
package checkoutwire
