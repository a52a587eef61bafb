package checkoutwire

// StepRequest asks for a weave (the weave_memory action) or a prospective pass: the step an
// agent is about to take.
type StepRequest struct {
	// SpaceID is the space to read. Required.
	SpaceID string `json:"-"`
	// Goal is what the step is for, in words. Required; it is the query the lanes rank with.
	Goal string `json:"goal"`
	// ReasoningPhase is orient, plan, act or reflect. Default: the purpose's phase.
	ReasoningPhase string `json:"reasoning_phase,omitempty"`
	// Purpose is one of Purposes; empty means inferred from the goal.
	Purpose string `json:"purpose,omitempty"`
	// MaxTokens is the budget (weave: DefaultWeaveTokens; prospective: DefaultProspectiveTokens).
	MaxTokens int `json:"max_tokens,omitempty"`
	// Tokenizer is what MaxTokens counts in (Request.Tokenizer). Default: the server's.
	Tokenizer string `json:"tokenizer,omitempty"`
	// SessionID is the agent's session; the surfacing is recorded in it.
	SessionID string `json:"session_id,omitempty"`
	// Cues describe what the agent is doing (checkout/cues.go).
	Cues Cues `json:"cues,omitempty"`
	// NoRecord skips appending the checkout.surfaced event that records the weave.
	NoRecord bool `json:"no_record,omitempty"`
	// Actor is the record's actor (Request.Actor); never read from a body.
	Actor string `json:"-"`
}
