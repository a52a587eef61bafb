// Package latent is the latent layer's foundation: derived artifacts (episodes, procedures,
// failures, preferences, causal links) computed deterministically from a space's log and projections, each
// content-addressed, citing the events it rests on (seq and hash), labelled non-authoritative,
// and mirrored into the space's AGE graph. The artifacts are a projection: discarded with the
// others, rebuilt by replay with the same rows, and covered by the projection checksum
// (docs/latent.md).
//
// Builder brings a space's artifacts up to its projection watermark (the latent_rebuild job).
// It must never let a stale artifact pass as current (readers use the latent_current view), never
// write to the log except the proposal.created events that put mined procedures, failures and
// causal links up for review, and never need a model: an LLM-assisted method is a label for optional
// producers, not a requirement.
package latent
