package memoryaction

import "github.com/zaxy/zaxy/memoryaction/memoryactionwire"

// The types that cross HTTP live in the leaf package memoryactionwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// ActionRecord is one reading memory action of the session (memoryactionwire.ActionRecord).
	ActionRecord = memoryactionwire.ActionRecord
	// Appended is what a writing memory action appended (memoryactionwire.Appended).
	Appended = memoryactionwire.Appended
	// Artifact is a current latent artifact as a memory action returns it
	// (memoryactionwire.Artifact).
	Artifact = memoryactionwire.Artifact
	// CausalLink is one causal artifact read as cause → effect (→ fix), each end cited
	// (memoryactionwire.CausalLink).
	CausalLink = memoryactionwire.CausalLink
	// EvidenceNeed is evidence the plan should gather before relying on a step, and what in memory
	// (an artifact or a known unknown, with its events) says so (memoryactionwire.EvidenceNeed).
	EvidenceNeed = memoryactionwire.EvidenceNeed
	// Judgement is one feedback.recorded of the session (memoryactionwire.Judgement).
	Judgement = memoryactionwire.Judgement
	// KnownUnknown is a memory.known_unknown event (memoryactionwire.KnownUnknown).
	KnownUnknown = memoryactionwire.KnownUnknown
	// Neighborhood is query_causal_neighborhood's answer (memoryactionwire.Neighborhood).
	Neighborhood = memoryactionwire.Neighborhood
	// RelatedArtifact is an artifact a causal neighbourhood's relations reach
	// (memoryactionwire.RelatedArtifact).
	RelatedArtifact = memoryactionwire.RelatedArtifact
	// Relation is one edge of a causal neighbourhood (memoryactionwire.Relation).
	Relation = memoryactionwire.Relation
	// Outcome is how the session ended, as far as its events say (memoryactionwire.Outcome).
	Outcome = memoryactionwire.Outcome
	// Priors is a ranked list of artifacts, best first, with every event they cite
	// (memoryactionwire.Priors).
	Priors = memoryactionwire.Priors
	// Reflection is reflect_backward's answer (memoryactionwire.Reflection).
	Reflection = memoryactionwire.Reflection
	// Risk is something memory says may go wrong at a step (memoryactionwire.Risk).
	Risk = memoryactionwire.Risk
	// Simulation is simulate_forward's answer (memoryactionwire.Simulation).
	Simulation = memoryactionwire.Simulation
	// Surfacing is one checkout of the session (memoryactionwire.Surfacing).
	Surfacing = memoryactionwire.Surfacing
)
