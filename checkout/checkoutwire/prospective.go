package checkoutwire

// Prior is a procedure or causal link offered before a step: suggestive, cited, verified.
type Prior struct {
	ArtifactID string `json:"artifact_id"`
	Type       string `json:"type"`
	Summary    string `json:"summary"`
	// Confidence is what the prior is ranked by: the artifact's latest confidence revision
	// (revise_confidence, or the retrospective pass), else ProducedConfidence, the producer's.
	Confidence         float64 `json:"confidence"`
	ProducedConfidence float64 `json:"produced_confidence"`
	// Steps are a procedure's tool sequence.
	Steps []string `json:"steps,omitempty"`
	// Sessions counts the sessions a procedure recurred in.
	Sessions int `json:"sessions,omitempty"`
	// Match is the goal words the prior shares (why it was chosen).
	Match     []string   `json:"match"`
	Label     string     `json:"label"`
	Citations []Citation `json:"citations"`
}

// FailurePrior is a repeated failure offered before a step: how it failed the last times,
// and what fixed it.
type FailurePrior struct {
	ArtifactID string `json:"artifact_id"`
	Tool       string `json:"tool"`
	Error      string `json:"error"`
	// Confidence and ProducedConfidence as a Prior's.
	Confidence         float64 `json:"confidence"`
	ProducedConfidence float64 `json:"produced_confidence"`
	// Last are the latest occurrences (at most Mechanism.PriorFailureLast), newest first.
	Last []FailureOccurrence `json:"last"`
	// Fix is the most common sequence of calls that fixed it (empty: simply retried).
	Fix []string `json:"fix"`
	// Text says it in a sentence: "last 3 times this failed because ...".
	Text      string     `json:"text"`
	Match     []string   `json:"match"`
	Label     string     `json:"label"`
	Citations []Citation `json:"citations"`
}

// FailureOccurrence is one cited failure and its fix.
type FailureOccurrence struct {
	FailureSeq int64 `json:"failure_seq"`
	// Error is the failed call's own error message (the artifact groups them normalized).
	Error  string   `json:"error,omitempty"`
	FixSeq int64    `json:"fix_seq,omitempty"`
	Steps  []string `json:"steps"`
}

// Skill is a reviewed skill entry offered before a step: a skill.recorded event, made by
// accepting a mined skill, a failure prior or a procedure revision in review.
type Skill struct {
	// Seq is the skill.recorded event; ProposalSeq the proposal its acceptance decided.
	Seq         int64  `json:"seq"`
	ProposalSeq int64  `json:"proposal_seq"`
	Kind        string `json:"kind"`
	Text        string `json:"text"`
	// ArtifactID is the latent artifact a mined skill was proposed from, if any.
	ArtifactID string   `json:"artifact_id,omitempty"`
	Steps      []string `json:"steps,omitempty"`
	Tool       string   `json:"tool,omitempty"`
	Error      string   `json:"error,omitempty"`
	Fix        []string `json:"fix,omitempty"`
	// Match is the goal words the entry shares (why it was chosen).
	Match []string `json:"match"`
	// Label is "reviewed": a person accepted it; it is still no fact.
	Label     string     `json:"label"`
	Citations []Citation `json:"citations"`
}

// Prospective is a prospective pass's answer: the weave plus the priors for the step.
type Prospective struct {
	SpaceID         string         `json:"space_id"`
	Goal            string         `json:"goal"`
	ReasoningPhase  string         `json:"reasoning_phase"`
	Purpose         string         `json:"purpose"`
	Weave           *Weave         `json:"weave"`
	ProcedurePriors []Prior        `json:"procedure_priors"`
	FailurePriors   []FailurePrior `json:"failure_priors"`
	CausalContext   []Prior        `json:"causal_context"`
	// Skills are the reviewed skill entries the goal's words match, most matching first.
	Skills []Skill `json:"skills"`
	// MissingEvidence are explicit warnings of what memory does not know for this step.
	MissingEvidence []Warning `json:"missing_evidence"`
	// Rejected are priors left out because a cited event no longer verifies.
	Rejected []RejectedArtifact `json:"rejected"`
	// TokenEstimate is Text's tokens under Tokenizer.
	TokenEstimate int `json:"token_estimate"`
	// Tokenizer is what TokenEstimate and max_tokens count in (Request.Tokenizer).
	Tokenizer   string  `json:"tokenizer"`
	Text        string  `json:"text"`
	SurfacedSeq int64   `json:"surfaced_seq,omitempty"`
	TotalMS     float64 `json:"total_ms"`
}
