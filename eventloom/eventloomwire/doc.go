// Package eventloomwire holds the event log's types that cross HTTP: the events a client
// appends (NewEvent), the events replay returns (Event), the receipts, and the answers of
// append, replay, verify and erase, with the hex JSON form of hashes. Package eventloom keeps
// their names through type aliases; package client imports this package instead, so a client
// program links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire) rather
// than in one shared wire package: the names stay the ones the server uses (Page, Request,
// Result and Status each exist in several domains), and each domain still owns its types.
//
// It must never import pgx, a domain package or anything that does I/O: only the standard
// library and other leaves (vocab, validation, memoryitem, the other *wire packages).
package eventloomwire
