// Package graphwire holds the temporal graph's types that cross HTTP: entities, facts with their
// evidence, the views of a fact query, inferred facts and a Cypher query's rows. Package graph
// keeps their names through type aliases; package client imports this package instead, so a client
// program links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire, as
// eventloom/eventloomwire explains). This one must never import pgx, a domain package or anything
// that does I/O: only the standard library and other leaves.
package graphwire
