package latent

import "github.com/zaxy/zaxy/latent/latentwire"

// The types that cross HTTP live in the leaf package latentwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// LLMSummary is an LLM-assisted summary of an artifact, as the artifact listing reports it
	// (latentwire.LLMSummary).
	LLMSummary = latentwire.LLMSummary
	// Listed is one artifact as GET /v1/spaces/{space}/artifacts returns it (latentwire.Listed).
	Listed = latentwire.Listed
	// Page is one page of the artifact listing (latentwire.Page).
	Page = latentwire.Page
	// Relation is one edge between an artifact and another, a cited event or an entity
	// (latentwire.Relation).
	Relation = latentwire.Relation
	// SourceRef cites one event (latentwire.SourceRef).
	SourceRef = latentwire.SourceRef
)
