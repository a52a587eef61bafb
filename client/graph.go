package client

import (
	"context"
	"net/http"
	"time"

	"github.com/zaxy/zaxy/disclosure/disclosurewire"
	"github.com/zaxy/zaxy/graph/graphwire"
	"github.com/zaxy/zaxy/projection/projectionwire"
)

// FactsParams selects the facts of Facts; zero fields are left out.
type FactsParams struct {
	// Entity (id or name) keeps only facts with it as subject or object.
	Entity string `json:"entity,omitempty"`
	// At asks for the versions valid at that time.
	At *time.Time `json:"at,omitempty"`
	// AsOfSeq asks what memory said right after that seq.
	AsOfSeq *int64 `json:"as_of_seq,omitempty"`
	// Limit caps the facts, 1–10000 (0: the server's default, 1000).
	Limit int `json:"limit,omitempty"`
	// IncludeInferred adds the LLM extractor's statements, labelled inferred.
	IncludeInferred bool `json:"include_inferred,omitempty"`
}

// FactsResult is the answer of Facts.
type FactsResult struct {
	// View is current, at or as_of.
	View  graphwire.View   `json:"view"`
	Facts []graphwire.Fact `json:"facts"`
	// Inferred holds the LLM extractor's statements when FactsParams.IncludeInferred.
	Inferred []graphwire.InferredFact `json:"inferred,omitempty"`
}

// Facts lists the temporal graph's facts (operation listFacts, scope read).
func (c *Client) Facts(ctx context.Context, space string, p *FactsParams, opts ...CallOption) (*FactsResult, error) {
	var res FactsResult
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "facts"), query: encodeQuery(p), safe: true}, &res, opts)
	return result(&res, err)
}

// EntityResult is the answer of Entity.
type EntityResult struct {
	Entity *graphwire.Entity `json:"entity"`
	// Facts are the entity's current facts.
	Facts []graphwire.Fact `json:"facts"`
}

// Entity returns an entity, by id or name, with its current facts (operation getEntity,
// scope read).
func (c *Client) Entity(ctx context.Context, space, entity string, opts ...CallOption) (*EntityResult, error) {
	var res EntityResult
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "entities", entity), safe: true}, &res, opts)
	return result(&res, err)
}

// Projection returns space's head seq, projected seq and lag (operation getProjection, scope
// read).
func (c *Client) Projection(ctx context.Context, space string, opts ...CallOption) (*projectionwire.Status, error) {
	var res projectionwire.Status
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "projection"), safe: true}, &res, opts)
	return result(&res, err)
}

// CypherRequest is the body of Cypher.
type CypherRequest struct {
	// Query is a read-only Cypher query on the space's AGE graph.
	Query string `json:"query"`
	// Columns is how many values each row returns.
	Columns int `json:"columns,omitempty"`
	// TimeoutMS is the statement timeout (default 5000, at most 30000).
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// Limit caps the rows (1–10000).
	Limit int `json:"limit,omitempty"`
}

// Cypher runs a read-only Cypher query on space's Apache AGE graph (operation cypher, scope
// read); a server without AGE answers 501 age_unavailable.
func (c *Client) Cypher(ctx context.Context, space string, r *CypherRequest, opts ...CallOption) (*graphwire.CypherResult, error) {
	var res graphwire.CypherResult
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "cypher"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// IndexParams sizes Index.
type IndexParams struct {
	// MaxTokens is the view's budget, 20–20000 (nil: the server's default, 100).
	MaxTokens *int64 `json:"max_tokens,omitempty"`
}

// Index returns what topics exist in space, each with the token cost of loading it
// (operation getIndex, scope read).
func (c *Client) Index(ctx context.Context, space string, p *IndexParams, opts ...CallOption) (*disclosurewire.IndexView, error) {
	var res disclosurewire.IndexView
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "index"), query: encodeQuery(p), safe: true}, &res, opts)
	return result(&res, err)
}

// TimelineParams selects and pages Timeline.
type TimelineParams struct {
	// SessionID keeps only that session's actions and decisions.
	SessionID string `json:"session_id,omitempty"`
	// MaxTokens is the view's budget, 20–20000 (nil: the server's default, 500).
	MaxTokens *int64 `json:"max_tokens,omitempty"`
	// BeforeSeq pages back: only entries before it.
	BeforeSeq *int64 `json:"before_seq,omitempty"`
}

// Timeline returns space's recent actions and decisions, newest first, cited (operation
// getTimeline, scope read).
func (c *Client) Timeline(ctx context.Context, space string, p *TimelineParams, opts ...CallOption) (*disclosurewire.TimelineView, error) {
	var res disclosurewire.TimelineView
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "timeline"), query: encodeQuery(p), safe: true}, &res, opts)
	return result(&res, err)
}

// Item returns one event, fact, entity, session, type or predicate in full, by the id the
// index and timeline views give (operation getItem, scope read).
func (c *Client) Item(ctx context.Context, space, id string, opts ...CallOption) (*disclosurewire.ItemView, error) {
	var res disclosurewire.ItemView
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "items", id), safe: true}, &res, opts)
	return result(&res, err)
}
