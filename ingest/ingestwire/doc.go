// Package ingestwire holds the ingest operations' types that cross HTTP: the documents and
// transcript turns a client imports and the answers that report them. Package ingest keeps their
// names through type aliases; package client imports this package instead, so a client program
// links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire, as
// eventloom/eventloomwire explains). This one must never import pgx, a domain package or anything
// that does I/O: only the standard library and other leaves.
package ingestwire
