// Package extract finds what free text talks about. Mentions is the deterministic,
// dependency-free mention extractor the projector runs over message and document text: names,
// @handles, paths, URLs, e-mail addresses and code identifiers, each with its byte range and a
// normalized entity key. OpenAIChat is the optional LLM-assisted extractor that proposes
// (subject, predicate, object) triples through an OpenAI-compatible chat API.
//
// Mentions must stay a pure function of its input: no I/O, no model, no randomness, linear
// time, so replaying the log always rebuilds the same graph. Nothing here writes to the log or
// the database, and nothing an LLM proposes is ever authoritative: callers label every Triple
// inferred and keep it out of the facts that checkout cites as asserted.
//
// See docs/extraction.md.
package extract
