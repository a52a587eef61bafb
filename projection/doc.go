// Package projection turns a space's Eventloom into its projections: entities, mentions, the
// temporal fact graph, invalidations and the memory items that full-text and vector search
// read. The projector applies events strictly in seq order and writes each space's watermark
// in the same transaction as the projection rows, so every event is applied exactly once even
// with many workers, retries and crashes. Everything here can be discarded and rebuilt from
// the log with the same result (Rebuild, Checksum).
//
// The projector never writes to the log and never calls a model inside a projection
// transaction except through the optional, cached LLM extractor. The Inferrer, which runs
// outside projection transactions, appends one kind of event: the proposal.created that puts
// an inferred statement contradicting an asserted fact up for review (review.Interference).
package projection
