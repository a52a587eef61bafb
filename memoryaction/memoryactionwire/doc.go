// Package memoryactionwire holds the memory actions' types that cross HTTP: the answers of prior,
// simulate, reflect and neighborhood, the artifacts and records they carry, and what a memory-
// action write appended. Package memoryaction keeps their names through type aliases; package
// client imports this package instead, so a client program links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire, as
// eventloom/eventloomwire explains). This one must never import pgx, a domain package or anything
// that does I/O: only the standard library and other leaves.
package memoryactionwire
