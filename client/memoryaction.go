package client

import (
	"context"
	"net/http"

	"github.com/zaxy/zaxy/memoryaction/memoryactionwire"
	"github.com/zaxy/zaxy/vocab"
)

// Record says where a reading action records what it answered (a memory_action.surfaced
// event): your session, the record's actor, or no record at all (a dry run).
type Record struct {
	SessionID string `json:"session_id,omitempty"`
	Actor     string `json:"actor,omitempty"`
	NoRecord  bool   `json:"no_record,omitempty"`
}

// PriorRequest is the body of ProcedurePrior and FailurePrior: a goal, a tool sequence, or both.
type PriorRequest struct {
	Goal  string   `json:"goal,omitempty"`
	Tools []string `json:"tools,omitempty"`
	// Limit is how many priors, 1–50 (0: the server's default, 5).
	Limit int `json:"limit,omitempty"`
	Record
}

// SimulateRequest is the body of SimulateForward: a candidate plan's tools in order.
type SimulateRequest struct {
	Goal  string   `json:"goal,omitempty"`
	Steps []string `json:"steps"`
	Record
}

// ReflectRequest is the body of ReflectBackward.
type ReflectRequest struct {
	// SessionID is the session to look back on; the record goes there too.
	SessionID string `json:"session_id"`
	Actor     string `json:"actor,omitempty"`
	NoRecord  bool   `json:"no_record,omitempty"`
}

// NeighborhoodRequest is the body of CausalNeighborhood: at least one of Seq, Tool, Entity.
type NeighborhoodRequest struct {
	Seq    int64  `json:"seq,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Entity string `json:"entity,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Record
}

// ProposeRequest is the body of ProposeMemoryUpdate.
type ProposeRequest struct {
	// Kind is belief_update (Fact required) or consolidation.
	Kind       string              `json:"kind"`
	Evidence   []int64             `json:"evidence"`
	Fact       *vocab.FactAsserted `json:"fact,omitempty"`
	ArtifactID string              `json:"artifact_id,omitempty"`
	Confidence *float64            `json:"confidence,omitempty"`
	Rationale  string              `json:"rationale,omitempty"`
	Actor      string              `json:"actor,omitempty"`
	SessionID  string              `json:"session_id,omitempty"`
}

// ReviseRequest is the body of ReviseConfidence.
type ReviseRequest struct {
	ArtifactID string  `json:"artifact_id"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
	Evidence   []int64 `json:"evidence,omitempty"`
	Actor      string  `json:"actor,omitempty"`
	SessionID  string  `json:"session_id,omitempty"`
}

// KnownUnknownRequest is the body of RecordKnownUnknown.
type KnownUnknownRequest struct {
	Question  string  `json:"question"`
	Context   string  `json:"context,omitempty"`
	Evidence  []int64 `json:"evidence,omitempty"`
	Actor     string  `json:"actor,omitempty"`
	SessionID string  `json:"session_id,omitempty"`
}

// ScoreRequest is the body of ScoreMemoryAction.
type ScoreRequest struct {
	Action    string  `json:"action"`
	ActionSeq int64   `json:"action_seq,omitempty"`
	CitedSeqs []int64 `json:"cited_seqs,omitempty"`
	Signal    string  `json:"signal"`
	Comment   string  `json:"comment,omitempty"`
	Actor     string  `json:"actor,omitempty"`
	SessionID string  `json:"session_id,omitempty"`
}

// SimulateForward walks a candidate plan against memory (operation simulateForward, scope
// read): procedures, risks and evidence needs, all cited. It appends nothing and is retried.
func (c *Client) SimulateForward(ctx context.Context, space string, r *SimulateRequest, opts ...CallOption) (*memoryactionwire.Simulation, error) {
	var res memoryactionwire.Simulation
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "actions", "simulate-forward"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// ReflectBackward looks back on a session (operation reflectBackward, scope read).
func (c *Client) ReflectBackward(ctx context.Context, space string, r *ReflectRequest, opts ...CallOption) (*memoryactionwire.Reflection, error) {
	var res memoryactionwire.Reflection
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "actions", "reflect-backward"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// ProcedurePrior ranks the space's current procedures for a goal or tool sequence (operation
// retrieveProcedurePrior, scope read).
func (c *Client) ProcedurePrior(ctx context.Context, space string, r *PriorRequest, opts ...CallOption) (*memoryactionwire.Priors, error) {
	var res memoryactionwire.Priors
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "actions", "retrieve-procedure-prior"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// FailurePrior ranks the space's current failure patterns for a goal or tool sequence
// (operation retrieveFailurePrior, scope read).
func (c *Client) FailurePrior(ctx context.Context, space string, r *PriorRequest, opts ...CallOption) (*memoryactionwire.Priors, error) {
	var res memoryactionwire.Priors
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "actions", "retrieve-failure-prior"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// CausalNeighborhood returns the causal links around an event, tool or entity (operation
// queryCausalNeighborhood, scope read).
func (c *Client) CausalNeighborhood(ctx context.Context, space string, r *NeighborhoodRequest, opts ...CallOption) (*memoryactionwire.Neighborhood, error) {
	var res memoryactionwire.Neighborhood
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "actions", "query-causal-neighborhood"), body: r, safe: true}, &res, opts)
	return result(&res, err)
}

// ProposeMemoryUpdate appends one proposal.created for review (operation proposeMemoryUpdate,
// scope write). Pass WithIdempotencyKey to make it safe to repeat.
func (c *Client) ProposeMemoryUpdate(ctx context.Context, space string, r *ProposeRequest, opts ...CallOption) (*memoryactionwire.Appended, error) {
	return c.appendAction(ctx, space, "propose-memory-update", r, opts)
}

// ReviseConfidence appends one memory.confidence_revised (operation reviseConfidence, scope
// write).
func (c *Client) ReviseConfidence(ctx context.Context, space string, r *ReviseRequest, opts ...CallOption) (*memoryactionwire.Appended, error) {
	return c.appendAction(ctx, space, "revise-confidence", r, opts)
}

// RecordKnownUnknown appends one memory.known_unknown (operation recordKnownUnknown, scope
// write).
func (c *Client) RecordKnownUnknown(ctx context.Context, space string, r *KnownUnknownRequest, opts ...CallOption) (*memoryactionwire.Appended, error) {
	return c.appendAction(ctx, space, "record-known-unknown", r, opts)
}

// ScoreMemoryAction appends one feedback.recorded judging a memory action (operation
// scoreMemoryAction, scope write).
func (c *Client) ScoreMemoryAction(ctx context.Context, space string, r *ScoreRequest, opts ...CallOption) (*memoryactionwire.Appended, error) {
	return c.appendAction(ctx, space, "score-memory-action", r, opts)
}

// appendAction posts a writing memory action.
func (c *Client) appendAction(ctx context.Context, space, action string, body any, opts []CallOption) (*memoryactionwire.Appended, error) {
	var res memoryactionwire.Appended
	err := c.do(ctx, &call{method: http.MethodPost, path: spacePath(space, "actions", action), body: body}, &res, opts)
	return result(&res, err)
}
