package latentwire

// Relation is one edge between a latent artifact and what it relates to (docs/latent.md,
// "Relations between artifacts"): another artifact (To), a cited event (ToSeq, kind
// derived_from) or an entity (ToEntity, kind covers).
type Relation struct {
	// Kind is one of derived_from, covers, supersedes, contradicts, occurs_in, follows,
	// explains, shares_cause, warns.
	Kind string `json:"kind"`
	// From is the artifact the edge leaves.
	From string `json:"from"`
	// To is the artifact the edge reaches (absent for derived_from and covers).
	To string `json:"to,omitempty"`
	// ToSeq is the cited event of a derived_from edge.
	ToSeq int64 `json:"to_seq,omitempty"`
	// ToEntity is the entity (entities.entity_id) of a covers edge.
	ToEntity string `json:"to_entity,omitempty"`
}
