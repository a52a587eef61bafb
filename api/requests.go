package api

import (
	"encoding/json"
	"time"

	"github.com/zaxy/zaxy/checkout"
)

// The request shapes of the operations under /v1/spaces/{space}: the JSON bodies the handlers
// decode and the query strings they read (decodeQuery). They are exported so that the MCP
// server infers its tools' input schemas from these very types: a field added here reaches
// both surfaces at once. Bodies whose decoding lives in a domain package use that package's
// types (eventloom.NewEvent, ingest.DocumentsParams, ingest.TranscriptParams).

// CheckoutBody is the body of POST /checkout and POST /query; as_of is parsed by the handler so
// that a bad one is named.
type CheckoutBody struct {
	checkout.Request
	// AsOf asks about another time (RFC 3339); default now.
	AsOf string `json:"as_of,omitempty"`
}

// RetrievalParams are the query-string parameters every checkout-shaped request accepts; each,
// when given, overrides the body's field of the same name (checkout.Request).
type RetrievalParams struct {
	// RetrievalProfile is "salience" (the default) or "plain" (the ranking without salience).
	RetrievalProfile string `json:"retrieval_profile,omitempty"`
	// IncludeAttenuated keeps items below the salience floor, labelled attenuated.
	IncludeAttenuated *bool `json:"include_attenuated,omitempty"`
}

// AssembleBody is the body of POST /context/assemble.
type AssembleBody struct {
	CheckoutBody
	// WorkingSet is what the agent holds right now, included verbatim ahead of ranked memory.
	WorkingSet []string `json:"working_set,omitempty"`
}

// AfterTurnBody is the body of POST /context/after-turn: the finished turn's events (each
// decoded by eventloom.DecodeEvent, so errors name events[i].field) and the next context's
// request.
type AfterTurnBody struct {
	AssembleBody
	Events []json.RawMessage `json:"events"`
}

// HandoffBody is the body of POST /handoff.
type HandoffBody struct {
	CheckoutBody
	// TailEvents is how many of the session's last events the bundle replays (default 20).
	TailEvents int `json:"tail_events,omitempty"`
}

// CleanupBody is the body of POST /subagents/{id}/cleanup.
type CleanupBody struct {
	CheckoutBody
	// Outcome is success, failure or cancelled.
	Outcome string `json:"outcome"`
	// Summary is the subagent's own account, kept in the cleanup event.
	Summary string `json:"summary,omitempty"`
}

// CypherBody is the body of POST /cypher.
type CypherBody struct {
	// Query is a read-only Cypher query on the space's AGE graph.
	Query string `json:"query"`
	// Columns is how many values each row returns.
	Columns int `json:"columns,omitempty"`
	// TimeoutMS is the statement timeout (default 5000, at most 30000).
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// Limit caps the rows (1–10000).
	Limit int `json:"limit,omitempty"`
}

// ReplayQuery is the query string of GET /events.
type ReplayQuery struct {
	// SessionID keeps only that session's events.
	SessionID string `json:"session_id,omitempty"`
	// AfterSeq is the cursor: only events after it (a page's next_after_seq).
	AfterSeq int64 `json:"after_seq,omitempty"`
	// UntilSeq, when set, is the last seq to include.
	UntilSeq int64 `json:"until_seq,omitempty"`
	// RecordedBefore keeps only events recorded at or before it.
	RecordedBefore *time.Time `json:"recorded_before,omitempty"`
	// Limit is the page size, 1–1000.
	Limit *int64 `json:"limit,omitempty"`
}

// VerifyQuery is the query string of GET /verify.
type VerifyQuery struct {
	// Method is go (recompute in the server, default) or sql (zaxy_verify in Postgres).
	Method string `json:"method,omitempty"`
}

// FactsQuery is the query string of GET /facts.
type FactsQuery struct {
	// Entity (id or name) keeps only facts with it as subject or object.
	Entity string `json:"entity,omitempty"`
	// At asks for the versions valid at that time.
	At *time.Time `json:"at,omitempty"`
	// AsOfSeq asks what memory said right after that seq.
	AsOfSeq *int64 `json:"as_of_seq,omitempty"`
	// Limit caps the facts, 1–10000 (default 1000).
	Limit *int64 `json:"limit,omitempty"`
	// IncludeInferred adds the LLM extractor's statements, labelled inferred.
	IncludeInferred bool `json:"include_inferred,omitempty"`
}

// IndexQuery is the query string of GET /index.
type IndexQuery struct {
	// MaxTokens is the view's budget, 20–20000 (default 100).
	MaxTokens *int64 `json:"max_tokens,omitempty"`
}

// TimelineQuery is the query string of GET /timeline.
type TimelineQuery struct {
	// SessionID keeps only that session's actions and decisions.
	SessionID string `json:"session_id,omitempty"`
	// MaxTokens is the view's budget, 20–20000 (default 500).
	MaxTokens *int64 `json:"max_tokens,omitempty"`
	// BeforeSeq pages back: only entries before it.
	BeforeSeq *int64 `json:"before_seq,omitempty"`
}
