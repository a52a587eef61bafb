// Package memoryaction holds the memory actions an agent calls between its steps
// (docs/latent.md, "Memory actions"): reads that walk the latent artifacts and the log for a
// plan or a session (simulate_forward, reflect_backward, retrieve_procedure_prior,
// retrieve_failure_prior, query_causal_neighborhood), each answer citing the events it rests
// on, and writes that append exactly one event each (propose_memory_update,
// revise_confidence, record_known_unknown, score_memory_action). weave_memory is checkout's.
//
// It reads artifacts only from latent_current (never a stale one) and never writes a table:
// everything it changes is an event in the log. What it says is derived and
// non-authoritative; only the cited events authorise a claim.
package memoryaction
