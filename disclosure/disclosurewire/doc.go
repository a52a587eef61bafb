// Package disclosurewire holds the disclosure views' types that cross HTTP: a space's index, its
// timeline, one item in full (event, fact or entity) and the citations and one-line summaries they
// show. Package disclosure keeps their names through type aliases; package client imports this
// package instead, so a client program links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire, as
// eventloom/eventloomwire explains). This one must never import pgx, a domain package or anything
// that does I/O: only the standard library and other leaves.
package disclosurewire
