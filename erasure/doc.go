// Package erasure removes one event's content and data from Zaxy while its space's hash chain
// stays verifiable (docs/eventloom.md, "Erasure"): in one transaction it appends an
// erasure.recorded event naming the seq and reason, replaces the event's content and data with
// the tombstone through zaxy_erase (the one UPDATE the log allows), and purges everything
// derived from the event: model inferences, the proposals interference detection derived
// from them (erased too, each with its own erasure.recorded), the space's latent model, and every projection
// (memory items and their full-text vectors, embeddings, mentions, entities, facts and the AGE
// mirror) by rebuilding the space from the log.
//
// It must never be reachable without the admin scope, and never write the erased text
// anywhere, the erasure event and its logs included.
package erasure
