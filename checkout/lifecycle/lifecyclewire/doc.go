// Package lifecyclewire holds the context lifecycle's types that cross HTTP: assemble and after-
// turn requests and answers, handoff bundles with their tail, chain status and session summary, a
// subagent's cleanup and a recovery packet. Package lifecycle keeps their names through type
// aliases; package client imports this package instead, so a client program links no database code.
//
// Each domain's wire types live in a leaf beside the domain (<domain>/<domain>wire, as
// eventloom/eventloomwire explains). This one must never import pgx, a domain package or anything
// that does I/O: only the standard library and other leaves.
package lifecyclewire
