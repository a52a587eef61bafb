package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/vocab"
)

// RecordBody are the fields of a reading action's record, the memory_action.surfaced event it
// appends of what it answered (docs/latent.md, "Memory actions").
type RecordBody struct {
	// SessionID is your session: the record goes there, where the retrospective pass binds it
	// to the session's outcome. Optional.
	SessionID string `json:"session_id,omitempty"`
	// Actor is the record's actor (default "agent") with auth off; with tokens on the record
	// names the token ("token/<id>") and this is ignored.
	Actor string `json:"actor,omitempty"`
	// NoRecord skips the record (a dry run).
	NoRecord bool `json:"no_record,omitempty"`
}

// recording is b as the memory actions of request r take it: with tokens on, the record's
// actor is the token (recordActor), whatever b.Actor says; with auth off, b.Actor.
func (s *server) recording(r *http.Request, b RecordBody) memoryaction.Recording {
	return memoryaction.Recording{SessionID: b.SessionID, Actor: s.readActor(r, b.Actor), NoRecord: b.NoRecord}
}

// readActor is the actor of a read's record: the token with auth on (recordActor), else the
// caller's actor.
func (s *server) readActor(r *http.Request, actor string) string {
	if s.auth != nil {
		return s.recordActor(r)
	}
	return actor
}

// PriorBody is the body of POST /actions/retrieve-procedure-prior and
// /actions/retrieve-failure-prior: a goal, a tool sequence, or both.
type PriorBody struct {
	Goal  string   `json:"goal,omitempty"`
	Tools []string `json:"tools,omitempty"`
	// Limit is how many priors, 1–50 (default 5).
	Limit int `json:"limit,omitempty"`
	RecordBody
}

// SimulateBody is the body of POST /actions/simulate-forward: a candidate plan.
type SimulateBody struct {
	Goal string `json:"goal,omitempty"`
	// Steps are the plan's tools in order, 1–32. Required.
	Steps []string `json:"steps"`
	RecordBody
}

// ReflectBody is the body of POST /actions/reflect-backward.
type ReflectBody struct {
	// SessionID is the session to look back on. Required; the record goes there too.
	SessionID string `json:"session_id"`
	// Actor is the record's actor (default "agent") with auth off; with tokens on the record
	// names the token ("token/<id>") and this is ignored. NoRecord skips the record.
	Actor    string `json:"actor,omitempty"`
	NoRecord bool   `json:"no_record,omitempty"`
}

// NeighborhoodBody is the body of POST /actions/query-causal-neighborhood: at least one of
// seq, tool and entity.
type NeighborhoodBody struct {
	Seq    int64  `json:"seq,omitempty"`
	Tool   string `json:"tool,omitempty"`
	Entity string `json:"entity,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	RecordBody
}

// WhoBody are the fields every writing action takes: who appends, in which session.
type WhoBody struct {
	// Actor is the event's actor (default "agent"); SessionID, optional, its session.
	Actor     string `json:"actor,omitempty"`
	SessionID string `json:"session_id,omitempty"`
}

// ProposeBody is the body of POST /actions/propose-memory-update.
type ProposeBody struct {
	WhoBody
	// Kind is belief_update (fact required) or consolidation. Required.
	Kind string `json:"kind"`
	// Evidence are the seqs of the events the proposal rests on. Required.
	Evidence []int64 `json:"evidence"`
	// Fact is a belief_update's proposed fact, shaped as fact.asserted data.
	Fact *vocab.FactAsserted `json:"fact,omitempty"`
	// ArtifactID, optional for a consolidation, names the current artifact it consolidates.
	ArtifactID string   `json:"artifact_id,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	Rationale  string   `json:"rationale,omitempty"`
}

// ReviseBody is the body of POST /actions/revise-confidence.
type ReviseBody struct {
	WhoBody
	ArtifactID string   `json:"artifact_id"`
	Confidence *float64 `json:"confidence"`
	Reason     string   `json:"reason"`
	Evidence   []int64  `json:"evidence,omitempty"`
}

// KnownUnknownBody is the body of POST /actions/record-known-unknown.
type KnownUnknownBody struct {
	WhoBody
	Question string  `json:"question"`
	Context  string  `json:"context,omitempty"`
	Evidence []int64 `json:"evidence,omitempty"`
}

// ScoreBody is the body of POST /actions/score-memory-action.
type ScoreBody struct {
	WhoBody
	// Action names the memory action judged. Required.
	Action string `json:"action"`
	// ActionSeq is the event the action appended; CitedSeqs the events a reading action cited.
	ActionSeq int64   `json:"action_seq,omitempty"`
	CitedSeqs []int64 `json:"cited_seqs,omitempty"`
	Signal    string  `json:"signal"`
	Comment   string  `json:"comment,omitempty"`
}

// procedurePrior serves POST /v1/spaces/{space}/actions/retrieve-procedure-prior.
func (s *server) procedurePrior(r *http.Request) (any, error) {
	var b PriorBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return s.memoryActionsFor(r).ProcedurePrior(r.Context(), memoryaction.PriorParams{SpaceID: chi.URLParam(r, "space"), Goal: b.Goal, Tools: b.Tools, Limit: b.Limit,
		Recording: s.recording(r, b.RecordBody)})
}

// failurePrior serves POST /v1/spaces/{space}/actions/retrieve-failure-prior.
func (s *server) failurePrior(r *http.Request) (any, error) {
	var b PriorBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return s.memoryActionsFor(r).FailurePrior(r.Context(), memoryaction.PriorParams{SpaceID: chi.URLParam(r, "space"), Goal: b.Goal, Tools: b.Tools, Limit: b.Limit,
		Recording: s.recording(r, b.RecordBody)})
}

// simulateForward serves POST /v1/spaces/{space}/actions/simulate-forward.
func (s *server) simulateForward(r *http.Request) (any, error) {
	var b SimulateBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return s.memoryActionsFor(r).SimulateForward(r.Context(), memoryaction.SimulateParams{SpaceID: chi.URLParam(r, "space"), Goal: b.Goal, Steps: b.Steps,
		Recording: s.recording(r, b.RecordBody)})
}

// reflectBackward serves POST /v1/spaces/{space}/actions/reflect-backward.
func (s *server) reflectBackward(r *http.Request) (any, error) {
	var b ReflectBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return s.memoryActionsFor(r).ReflectBackward(r.Context(), memoryaction.ReflectParams{SpaceID: chi.URLParam(r, "space"), SessionID: b.SessionID,
		Actor: s.readActor(r, b.Actor), NoRecord: b.NoRecord})
}

// causalNeighborhood serves POST /v1/spaces/{space}/actions/query-causal-neighborhood.
func (s *server) causalNeighborhood(r *http.Request) (any, error) {
	var b NeighborhoodBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return s.memoryActionsFor(r).CausalNeighborhood(r.Context(), memoryaction.NeighborhoodParams{SpaceID: chi.URLParam(r, "space"),
		Seq: b.Seq, Tool: b.Tool, Entity: b.Entity, Limit: b.Limit, Recording: s.recording(r, b.RecordBody)})
}

// who reads the actor, session and Idempotency-Key of a writing action.
func who(r *http.Request, b WhoBody) memoryaction.Who {
	return memoryaction.Who{Actor: b.Actor, SessionID: b.SessionID, IdempotencyKey: r.Header.Get("Idempotency-Key")}
}

// appended answers a writing action: 201, or 200 for an idempotent retry.
func appended(a *memoryaction.Appended, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if a.Replayed {
		return a, nil
	}
	return withStatus(http.StatusCreated, a), nil
}

// proposeMemoryUpdate serves POST /v1/spaces/{space}/actions/propose-memory-update.
func (s *server) proposeMemoryUpdate(r *http.Request) (any, error) {
	var b ProposeBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return appended(s.memoryActions.ProposeMemoryUpdate(r.Context(), memoryaction.ProposeParams{SpaceID: chi.URLParam(r, "space"),
		Kind: b.Kind, Evidence: b.Evidence, Fact: b.Fact, ArtifactID: b.ArtifactID, Confidence: b.Confidence, Rationale: b.Rationale,
		Who: who(r, b.WhoBody)}))
}

// reviseConfidence serves POST /v1/spaces/{space}/actions/revise-confidence.
func (s *server) reviseConfidence(r *http.Request) (any, error) {
	var b ReviseBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	if b.Confidence == nil {
		return nil, &apiError{status: http.StatusBadRequest, code: "invalid_request", message: "confidence: is required: a number between 0 and 1",
			details: map[string]any{"field": "confidence"}}
	}
	return appended(s.memoryActions.ReviseConfidence(r.Context(), memoryaction.ReviseParams{SpaceID: chi.URLParam(r, "space"),
		ArtifactID: b.ArtifactID, Confidence: *b.Confidence, Reason: b.Reason, Evidence: b.Evidence, Who: who(r, b.WhoBody)}))
}

// recordKnownUnknown serves POST /v1/spaces/{space}/actions/record-known-unknown.
func (s *server) recordKnownUnknown(r *http.Request) (any, error) {
	var b KnownUnknownBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return appended(s.memoryActions.RecordKnownUnknown(r.Context(), memoryaction.KnownUnknownParams{SpaceID: chi.URLParam(r, "space"),
		Question: b.Question, Context: b.Context, Evidence: b.Evidence, Who: who(r, b.WhoBody)}))
}

// scoreMemoryAction serves POST /v1/spaces/{space}/actions/score-memory-action.
func (s *server) scoreMemoryAction(r *http.Request) (any, error) {
	var b ScoreBody
	if err := readJSON(r, &b); err != nil {
		return nil, err
	}
	return appended(s.memoryActions.ScoreMemoryAction(r.Context(), memoryaction.ScoreParams{SpaceID: chi.URLParam(r, "space"),
		Action: b.Action, ActionSeq: b.ActionSeq, CitedSeqs: b.CitedSeqs, Signal: b.Signal, Comment: b.Comment, Who: who(r, b.WhoBody)}))
}
