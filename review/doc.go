// Package review is the proposal lifecycle: changes to memory put up for review as
// proposal.created events and decided by proposal.accepted, proposal.rejected and
// proposal.deferred events (docs/projections.md, "Proposals and review"). It lists and reads
// the proposals projection, decides proposals by appending to the log (accepting a
// belief_update also appends the fact.asserted it proposes, in the same transaction), decides
// which authority wins when two statements contradict each other (Precedence, with Endorsed
// defining strong positive feedback), and turns an inferred statement that contradicts an
// asserted fact into a proposal (Interference). Typed statements against pinned or endorsed
// facts become proposals in the projection itself, and are decided here like the others.
//
// It never writes a projection table and never changes a fact itself: every change it makes
// is an event in the log, which the projector applies.
package review
