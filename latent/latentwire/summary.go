package latentwire

import (
	"time"
)

// LLMSummary is an LLM-assisted summary of an artifact, as the artifact listing reports it:
// labelled, never evidence.
type LLMSummary struct {
	Model   string `json:"model"`
	Summary string `json:"summary"`
	// Method is always "llm-assisted" and Authority "non_authoritative".
	Method    string    `json:"method"`
	Authority string    `json:"authority"`
	CreatedAt time.Time `json:"created_at"`
}
