// Package erasure removes one event's content and data from Zaxy while its space's hash chain
// stays verifiable (docs/eventloom.md, "Erasure"): in one transaction it appends an
// erasure.recorded event naming the seq and reason, replaces the event's content and data with
// the tombstone through zaxy_erase (the one UPDATE the log allows), and purges what derives
// from the event outside the projections: model inferences, the proposals interference
// detection derived from them (erased too, each with its own erasure.recorded) and the space's
// latent model. That transaction never waits for the space's projector. The projections
// (memory items and their full-text vectors, embeddings, mentions, entities, facts and the AGE
// mirror) are purged after it, by the projector rebuilding the space from the log when it
// reaches the erasure record (package projection): at once when no worker holds the space,
// otherwise by the worker that does. Until then no embedding is stored for the space, the
// latent and topic builders store nothing read before the erasure, and no read returns what the
// projections derived from the erased event: the read queries leave out the rows of
// zaxy_erased_pending (migration 000054), and Cypher and the feeling of knowing, which cannot,
// answer eventloom.ErrErasurePending.
//
// It must never be reachable without the admin scope, and never write the erased text
// anywhere, the erasure event and its logs included.
package erasure
