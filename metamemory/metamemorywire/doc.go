// Package metamemorywire holds the feeling of knowing's types that cross HTTP: the request and the
// answer with its signals, the sketch it was read from and the salience histogram. Package
// metamemory keeps their names through type aliases; package client imports this package instead,
// so a client program links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire, as
// eventloom/eventloomwire explains). This one must never import pgx, a domain package or anything
// that does I/O: only the standard library and other leaves.
package metamemorywire
