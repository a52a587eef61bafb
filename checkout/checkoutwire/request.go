package checkoutwire

import (
	"time"
)

// Purposes a checkout can be made for; each weighs the lanes and kinds of memory differently
// (checkout.Purposes).
const (
	PurposeGeneral        = "general"
	PurposePlanning       = "planning"
	PurposeExploration    = "exploration"
	PurposeImplementation = "implementation"
	PurposeDebugging      = "debugging"
	PurposeReview         = "review"
	PurposeRefactoring    = "refactoring"
)

// Purposes lists every purpose.
var Purposes = []string{PurposeGeneral, PurposePlanning, PurposeExploration, PurposeImplementation,
	PurposeDebugging, PurposeReview, PurposeRefactoring}

// Request is a checkout (or a raw query) of one space.
type Request struct {
	// SpaceID is the space to read. Required.
	SpaceID string `json:"-"`
	// Query is what the agent is about to do or asks. Required.
	Query string `json:"query"`
	// Purpose is one of Purposes; empty means inferred from the query (InferPurpose).
	Purpose string `json:"purpose,omitempty"`
	// MaxTokens is the packet's budget, MinMaxTokens..MaxMaxTokens. Default 2000.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Tokenizer is what MaxTokens counts in: o200k_base, cl100k_base or chars4
	// (ceil(characters/4)). Default: the server's (ZAXY_TOKENIZER).
	Tokenizer string `json:"tokenizer,omitempty"`
	// AsOf asks about another time: facts valid then and events that had occurred by then.
	// Default now.
	AsOf *time.Time `json:"as_of,omitempty"`
	// SessionID is the agent's session; its recent events form the session tier. At most 256
	// characters; the checkout.surfaced record carries it redacted (SurfacedEvent).
	SessionID string `json:"session_id,omitempty"`
	// Actor is who the checkout.surfaced record names as its actor; empty means "zaxy". It is
	// never read from a request body: the API sets it to the bearer token ("token/<id>"), so
	// a record says who asked, not who the caller claims to be.
	Actor string `json:"-"`
	// DisableLanes switches lanes off, for ablations.
	DisableLanes []string `json:"disable_lanes,omitempty"`
	// Limit caps the ranked results of a raw query (1–200, default 50).
	Limit int `json:"limit,omitempty"`
	// NoRecord skips appending the checkout.surfaced event (benchmarks, dry runs).
	NoRecord bool `json:"no_record,omitempty"`
	// RetrievalProfile is "salience" (the default) or "plain": the ranking without salience.
	RetrievalProfile string `json:"retrieval_profile,omitempty"`
	// IncludeAttenuated keeps items whose salience fell below the floor, labelled attenuated,
	// and ranks by relevance alone (explicit recall: forgetting is ranking, never erasure).
	IncludeAttenuated bool `json:"include_attenuated,omitempty"`
	// Cues describe what the agent is doing (task, repo, tool, phase, free keys; checkout/cues.go):
	// items whose events carry the same cues rank higher, and phase and tool steer the inferred
	// purpose.
	Cues Cues `json:"cues,omitempty"`
	// Weave asks for a memory weave (checkout/weave.go): a section built from precomputed latent
	// artifacts for this reasoning step, sharing the budget. Off by default.
	Weave bool `json:"weave,omitempty"`
	// ReasoningPhase is the step the weave serves (orient, plan, act, reflect); giving it turns
	// the weave on. Default: the purpose's phase.
	ReasoningPhase string `json:"reasoning_phase,omitempty"`
	// WhoWhen opens each event's line in the rendered text with the UTC day it happened and,
	// for a message, who said it ("2023-05-08 Caroline: "), in the tiers and the weave's
	// evidence, so a model reading the text can tell who said what and when. Off by default:
	// it costs a few tokens a line (docs/checkout.md, "Who and when").
	WhoWhen bool `json:"who_when,omitempty"`
	// PPRWeight, when set, is the personalized PageRank lane's fusion weight for this request,
	// 0 to 5 (MaxPPRWeight; 0 switches the lane off). Unset, the lane takes the retrieval
	// policy's "ppr" lane weight (its purpose's, else general's) when the policy names one,
	// else the server's, which is 0: the lane does not run (docs/checkout.md).
	PPRWeight *float64 `json:"ppr_weight,omitempty"`
}

// MaxPPRWeight is the largest PPR lane weight a request may ask for.
const MaxPPRWeight = 5.0
