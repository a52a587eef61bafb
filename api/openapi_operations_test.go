package api

import (
	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/checkout/lifecycle/lifecyclewire"
	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/disclosure/disclosurewire"
	"github.com/zaxy/zaxy/erasure/erasurewire"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
	"github.com/zaxy/zaxy/graph/graphwire"
	"github.com/zaxy/zaxy/ingest/ingestwire"
	"github.com/zaxy/zaxy/latent/latentwire"
	"github.com/zaxy/zaxy/memoryaction/memoryactionwire"
	"github.com/zaxy/zaxy/metamemory/metamemorywire"
	"github.com/zaxy/zaxy/policy/policywire"
	"github.com/zaxy/zaxy/projection/projectionwire"
	"github.com/zaxy/zaxy/review/reviewwire"
)

// AppendBatch is the batch form of POST /events' body (eventloom.DecodeAppendBody).
type AppendBatch struct {
	// Events are appended all or nothing, in order.
	Events []eventloomwire.NewEvent `json:"events"`
}

// operations describe every route of the API for api/openapi.json, keyed by method and path:
// the prose a person wrote, the parameters written by hand, and the Go types the generator
// reflects into the schemas of the body and of the answer. TestOpenAPI_IsGenerated fails when a
// route has no entry here or an entry no route.
var operations = map[string]operation{
	"GET /healthz": {
		id: "health", summary: "Liveness",
		description: "The process is up.",
		open:        true,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: client.Status{},
	},
	"GET /readyz": {
		id: "ready", summary: "Readiness",
		description: "The database answers and the schema is current; 503 otherwise.",
		open:        true,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: client.Status{},
	},
	"GET /v1/openapi.json": {
		id: "getOpenAPI", summary: "This document",
		description: "The OpenAPI 3.1 description of the API, generated from the server's routes and Go types. Served without a token: it says nothing about any space.",
		open:        true,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
	},
	"GET /v1/spaces": {
		id: "listSpaces", summary: "Spaces the token reaches",
		description: "The spaces the bearer token reaches (every space, at most 1000, for a token of '*' or with auth off), each with head_seq, head_at, projected_seq, lag, projected_at and pending_proposals; all_spaces says whether the token reaches every space. A space the token names that has no event yet is listed with head_seq 0. Nothing is said of other spaces. The web console's spaces page reads it (docs/console.md).",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: client.SpaceList{},
	},
	"POST /v1/spaces/{space}/events": {
		id: "appendEvents", summary: "Append events",
		description: "Append one event (the body is the event) or an all-or-nothing batch {\"events\":[...]}. The database assigns seq, recorded_at, prev_hash and hash. An Idempotency-Key header makes a retry return the original receipts (200) instead of appending again (201).",
		idempotent:  true, replayed: true,
		body:   oneOf(eventloomwire.NewEvent{}, AppendBatch{}),
		status: 201, success: "Success; the body is JSON (docs/api.md).",
		result: eventloomwire.AppendResult{},
		errors: []int{409},
	},
	"GET /v1/spaces/{space}/events": {
		query: ReplayQuery{},
		id:    "replayEvents", summary: "Replay events",
		description: "The space's events in seq order, filtered by session_id, after_seq, until_seq and recorded_before, paged by limit and next_after_seq.",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: eventloomwire.ReplayPage{},
	},
	"POST /v1/spaces/{space}/erasures": {
		id: "eraseEvent", summary: "Erase an event (admin)",
		description: "Needs a token with the admin scope for the space. Appends an erasure.recorded event naming the seq and reason, replaces the event's content and data with the tombstone (\"\" and {}) and purges everything derived from it (memory items, full-text, vectors, mentions, entities, facts, the AGE mirror, inferences, the latent model) in one transaction; the chain still verifies. 409 not_erasable for an event hashed under version 1, already erased, or an erasure record; 404 event_not_found. The reason is recorded in the log: never repeat the erased text in it.",
		body:        ErasureBody{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: erasurewire.Result{},
		errors: []int{404, 409},
	},
	"GET /v1/spaces/{space}/verify": {
		query: VerifyQuery{},
		id:    "verifyChain", summary: "Verify the chain",
		description: "Recompute every hash, link and seq (method=go or sql) and report ok or the first broken seq with the reason.",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: eventloomwire.VerifyResult{},
	},
	"POST /v1/spaces/{space}/documents": {
		id: "ingestDocuments", summary: "Ingest documents",
		description: "Chunk text and markdown documents into document.chunk events with byte offsets; secrets are redacted first; an unchanged document appends nothing.",
		body:        ingestwire.DocumentsParams{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: ingestwire.DocumentsResult{},
		errors: []int{409},
	},
	"POST /v1/spaces/{space}/transcripts": {
		id: "ingestTranscript", summary: "Ingest a transcript",
		description: "Import conversation turns as message events, secrets redacted, all turns validated before any batch is appended.",
		body:        ingestwire.TranscriptParams{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: ingestwire.TranscriptResult{},
		errors: []int{409},
	},
	"GET /v1/spaces/{space}/facts": {
		query: FactsQuery{},
		id:    "listFacts", summary: "Facts",
		description: "The temporal graph's facts: current (default), valid at a time (at=), or as memory recorded them right after a seq (as_of_seq=); entity= narrows to one entity; include_inferred=true adds the LLM extractor's labelled statements.",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: client.FactsResult{},
	},
	"GET /v1/spaces/{space}/entities/{entity}": {
		id: "getEntity", summary: "Entity",
		description: "An entity by id or name, with its current facts.",
		params:      `[{"name": "entity", "in": "path", "required": true, "schema": {"type": "string"}}]`,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: client.EntityResult{},
		errors: []int{404},
	},
	"GET /v1/spaces/{space}/projection": {
		id: "getProjection", summary: "Projection lag",
		description: "The space's head seq, projected seq and lag.",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: projectionwire.Status{},
	},
	"GET /v1/spaces/{space}/salience": {
		id: "getSalience", summary: "Salience histogram",
		description: "How the space's memory items spread over salience, as the salience_decay job last materialised it: buckets (10 equal steps of [0, 1]), attenuated (items out of default ranking) and materialised (false, with zero buckets, until the job has run for the space).",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: client.SalienceHistogram{},
	},
	"POST /v1/spaces/{space}/cypher": {
		id: "cypher", summary: "Read-only Cypher",
		description: "A read-only Cypher query on the space's own Apache AGE graph: read clauses and AGE's allowlisted functions only (else 400 naming query), run as the space's sandbox role in a transaction that is always rolled back, with a statement timeout, a row cap and a byte cap (truncated_reason limit or max_bytes); a value over 1 MiB is 413 response_too_large; 501 age_unavailable without AGE.",
		body:        CypherBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: graphwire.CypherResult{},
		errors: []int{404, 422},
	},
	"GET /v1/spaces/{space}/index": {
		query: IndexQuery{},
		id:    "getIndex", summary: "Index view",
		description: "What topics exist in the space (about 100 tokens), each entry with the token cost of loading it.",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: disclosurewire.IndexView{},
	},
	"GET /v1/spaces/{space}/timeline": {
		query: TimelineQuery{},
		id:    "getTimeline", summary: "Timeline view",
		description: "Recent actions and decisions (about 500 tokens), newest first, cited.",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: disclosurewire.TimelineView{},
	},
	"GET /v1/spaces/{space}/items/{id}": {
		id: "getItem", summary: "Item detail",
		description: "One event, fact, entity, session, type or predicate in full, with citations and its token cost.",
		params:      `[{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}]`,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: disclosurewire.ItemView{},
		errors: []int{404},
	},
	"POST /v1/spaces/{space}/checkout": {
		id: "checkout", summary: "Checkout",
		description: "The one call an agent makes before it acts: ranked memory from its lanes fused for the purpose (and boosted by the agent's cues), packed into a cited packet within max_tokens, with a byte-identical stable prefix; records a checkout.surfaced event.",
		params:      `[{"name": "retrieval_profile", "in": "query", "required": false, "description": "salience (the default) or plain: the ranking without salience, every item's salience taken as 1 (docs/checkout.md, Salience). Overrides the body field.", "schema": {"type": "string", "enum": ["salience", "plain"]}}, {"name": "include_attenuated", "in": "query", "required": false, "description": "Keep items whose salience fell below the space's floor, labelled attenuated (attenuated_by salience), and items the encoding gate found redundant (attenuated_by redundant, redundant_of), ranked by relevance alone. Overrides the body field.", "schema": {"type": "boolean"}}]`,
		body:        CheckoutBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: checkoutwire.Packet{},
	},
	"POST /v1/spaces/{space}/query": {
		id: "query", summary: "Query",
		description: "The raw ranked items of a checkout with their per-lane score components, without packing or recording.",
		params:      `[{"name": "retrieval_profile", "in": "query", "required": false, "description": "salience (the default) or plain: the ranking without salience, every item's salience taken as 1 (docs/checkout.md, Salience). Overrides the body field.", "schema": {"type": "string", "enum": ["salience", "plain"]}}, {"name": "include_attenuated", "in": "query", "required": false, "description": "Keep items whose salience fell below the space's floor, labelled attenuated (attenuated_by salience), and items the encoding gate found redundant (attenuated_by redundant, redundant_of), ranked by relevance alone. Overrides the body field.", "schema": {"type": "boolean"}}]`,
		body:        CheckoutBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: checkoutwire.QueryResult{},
	},
	"POST /v1/spaces/{space}/context/assemble": {
		id: "assembleContext", summary: "Assemble context",
		description: "Recent session replay, ranked memory, the verbatim lane and the caller's working set within a budget; a recovery packet right after a session.resumed.",
		params:      `[{"name": "retrieval_profile", "in": "query", "required": false, "description": "salience (the default) or plain: the ranking without salience, every item's salience taken as 1 (docs/checkout.md, Salience). Overrides the body field.", "schema": {"type": "string", "enum": ["salience", "plain"]}}, {"name": "include_attenuated", "in": "query", "required": false, "description": "Keep items whose salience fell below the space's floor, labelled attenuated (attenuated_by salience), and items the encoding gate found redundant (attenuated_by redundant, redundant_of), ranked by relevance alone. Overrides the body field.", "schema": {"type": "boolean"}}]`,
		body:        AssembleBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: lifecyclewire.Assembled{},
	},
	"POST /v1/spaces/{space}/context/after-turn": {
		id: "afterTurn", summary: "After turn",
		description: "Append the finished turn's events (all or nothing, Idempotency-Key honoured) and return the context for the next turn.",
		params:      `[{"name": "retrieval_profile", "in": "query", "required": false, "description": "salience (the default) or plain: the ranking without salience, every item's salience taken as 1 (docs/checkout.md, Salience). Overrides the body field.", "schema": {"type": "string", "enum": ["salience", "plain"]}}, {"name": "include_attenuated", "in": "query", "required": false, "description": "Keep items whose salience fell below the space's floor, labelled attenuated (attenuated_by salience), and items the encoding gate found redundant (attenuated_by redundant, redundant_of), ranked by relevance alone. Overrides the body field.", "schema": {"type": "boolean"}}]`,
		idempotent:  true,
		body:        client.AfterTurnRequest{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: lifecyclewire.AfterTurnResult{},
		errors: []int{409},
	},
	"GET /v1/spaces/{space}/artifacts": {
		id: "listArtifacts", summary: "Latent artifacts",
		description: "The space's latent artifacts (episodes, procedures, failures, preferences, causal links; docs/latent.md) in artifact_id order, each with its cited source_event_refs, entity_refs, validity, method, confidence, review and authority status, staleness, supersedes and weaves: the seqs of the latest 20 checkout.surfaced events whose memory weave cited it, newest first (docs/api.md, Latent artifacts). type= keeps one artifact_type; entity= keeps artifacts covering that entity id; include_stale=true lists stale artifacts too (with stale_at, stale_seq, stale_reason), by default only current ones; after= is the cursor (a page's next_after); limit= 1-200 (default 50). Needs a read token.",
		params:      `[{"name": "type", "in": "query", "schema": {"type": "string", "enum": ["episode", "procedure", "failure", "preference", "causal"]}}, {"name": "entity", "in": "query", "schema": {"type": "string", "maxLength": 256}}, {"name": "include_stale", "in": "query", "schema": {"type": "boolean", "default": false}}, {"name": "after", "in": "query", "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}, {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}}]`,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: latentwire.Page{},
	},
	"POST /v1/spaces/{space}/actions/simulate-forward": {
		id: "simulateForward", summary: "Simulate a plan forward",
		description: "simulate_forward: walk a candidate plan (its tools in order) against the space's current procedure, failure and causal artifacts and its known unknowns; returns the procedures it follows, the risks at each step and the evidence it needs, each citing its source events (seq, hash). Appends nothing. Read scope: a read that takes a body.",
		body:        SimulateBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: memoryactionwire.Simulation{},
	},
	"POST /v1/spaces/{space}/actions/reflect-backward": {
		id: "reflectBackward", summary: "Reflect on a session",
		description: "reflect_backward: for one session, what checkout surfaced, the feedback it got, how it ended (success, failure, partial or unknown, with the event that says so) and which current artifacts apply, each cited. Appends nothing. Read scope: a read that takes a body.",
		body:        ReflectBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: memoryactionwire.Reflection{},
	},
	"POST /v1/spaces/{space}/actions/retrieve-procedure-prior": {
		id: "retrieveProcedurePrior", summary: "Procedure priors",
		description: "retrieve_procedure_prior: the space's current (non-stale) procedure artifacts ranked by relevance to a goal and/or tool sequence times their confidence (revised confidence when revise_confidence set one), each with its source events. Read scope: a read that takes a body.",
		body:        PriorBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: memoryactionwire.Priors{},
	},
	"POST /v1/spaces/{space}/actions/retrieve-failure-prior": {
		id: "retrieveFailurePrior", summary: "Failure priors",
		description: "retrieve_failure_prior: the space's current failure patterns ranked by relevance to a goal and/or tool sequence times their confidence, each with its fix and source events. Read scope: a read that takes a body.",
		body:        PriorBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: memoryactionwire.Priors{},
	},
	"POST /v1/spaces/{space}/actions/query-causal-neighborhood": {
		id: "queryCausalNeighborhood", summary: "Causal neighbourhood",
		description: "query_causal_neighborhood: the space's current causal artifacts around an event (seq), a tool or an entity name, as cause → effect (→ fix) links with both ends cited. Read scope: a read that takes a body.",
		body:        NeighborhoodBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: memoryactionwire.Neighborhood{},
	},
	"POST /v1/spaces/{space}/actions/propose-memory-update": {
		id: "proposeMemoryUpdate", summary: "Propose a memory update",
		description: "propose_memory_update: append one proposal.created (belief_update with a fact, or consolidation, optionally of a current artifact) citing evidence that exists in the space; decided through the proposal review routes. 201 with the receipt; Idempotency-Key honoured.",
		idempotent:  true, replayed: true,
		body:   ProposeBody{},
		status: 201, success: "Appended; the body is JSON with the receipt (docs/api.md).",
		result: memoryactionwire.Appended{},
		errors: []int{404, 409},
	},
	"POST /v1/spaces/{space}/actions/revise-confidence": {
		id: "reviseConfidence", summary: "Revise an artifact's confidence",
		description: "revise_confidence: append one memory.confidence_revised naming a current artifact, its new confidence, the reason and optional evidence; the memory actions rank the artifact by its latest revision. 201 with the receipt and the previous confidence; Idempotency-Key honoured.",
		idempotent:  true, replayed: true,
		body:   ReviseBody{},
		status: 201, success: "Appended; the body is JSON with the receipt (docs/api.md).",
		result: memoryactionwire.Appended{},
		errors: []int{404, 409},
	},
	"POST /v1/spaces/{space}/actions/record-known-unknown": {
		id: "recordKnownUnknown", summary: "Record a known unknown",
		description: "record_known_unknown: append one memory.known_unknown whose content is the question (a memory item checkout finds; simulate_forward and reflect_backward list it). 201 with the receipt; Idempotency-Key honoured.",
		idempotent:  true, replayed: true,
		body:   KnownUnknownBody{},
		status: 201, success: "Appended; the body is JSON with the receipt (docs/api.md).",
		result: memoryactionwire.Appended{},
		errors: []int{409},
	},
	"POST /v1/spaces/{space}/actions/score-memory-action": {
		id: "scoreMemoryAction", summary: "Score a memory action",
		description: "score_memory_action: append one feedback.recorded judging a memory action (data.memory_action names it and the event it appended; target_seqs are that event and the cited events judged). 201 with the receipt; Idempotency-Key honoured.",
		idempotent:  true, replayed: true,
		body:   ScoreBody{},
		status: 201, success: "Appended; the body is JSON with the receipt (docs/api.md).",
		result: memoryactionwire.Appended{},
		errors: []int{404, 409},
	},
	"POST /v1/spaces/{space}/weave": {
		id: "weaveMemory", summary: "Weave memory (the weave_memory action)",
		description: "A memory weave for one reasoning step: latent artifacts read precomputed from latent_current around what the lanes rank for the goal, each source event verified against the log at query time (stale, superseded and unverifiable artifacts rejected with a diagnostic), accepted evidence, inferred context labelled suggestive, warnings, and the expected and prohibited use. Default budget 1000 tokens. Records a checkout.surfaced event carrying the weave (no items). Read scope: a read that takes a body, as checkout.",
		body:        checkoutwire.StepRequest{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: checkoutwire.Weave{},
	},
	"POST /v1/spaces/{space}/prospective": {
		id: "prospective", summary: "Prospective pass",
		description: "Before a step: the memory weave (half the budget) plus procedure priors, failure priors (the last occurrences and their fix), causal context and explicit missing-evidence warnings, each prior citing verified events, with a token estimate. Default budget 1500 tokens. Records the weave as weaveMemory does. Read scope: a read that takes a body, as checkout.",
		body:        checkoutwire.StepRequest{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: checkoutwire.Prospective{},
	},
	"POST /v1/spaces/{space}/feeling-of-knowing": {
		id: "feelingOfKnowing", summary: "Feeling of knowing",
		description: "Whether memory is likely to hold something on a query: likely, possible or unlikely, with a probability and the signals it used (known query lexemes weighted by IDF, the rarest known term's specificity, entity names), read from per-space sketches cached in the process. No embedding, graph or vector query. Read scope: a read that takes a body, as checkout.",
		body:        FeelingBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: metamemorywire.Feeling{},
	},
	"POST /v1/spaces/{space}/handoff": {
		id: "handoff", summary: "Handoff bundle",
		description: "A portable bundle another agent can resume a session from: summary, replay tail, chain status, recovery packet and retrieval.",
		params:      `[{"name": "retrieval_profile", "in": "query", "required": false, "description": "salience (the default) or plain: the ranking without salience, every item's salience taken as 1 (docs/checkout.md, Salience). Overrides the body field.", "schema": {"type": "string", "enum": ["salience", "plain"]}}, {"name": "include_attenuated", "in": "query", "required": false, "description": "Keep items whose salience fell below the space's floor, labelled attenuated (attenuated_by salience), and items the encoding gate found redundant (attenuated_by redundant, redundant_of), ranked by relevance alone. Overrides the body field.", "schema": {"type": "boolean"}}]`,
		body:        HandoffBody{},
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: lifecyclewire.Handoff{},
		errors: []int{404},
	},
	"POST /v1/spaces/{space}/subagents/{id}/cleanup": {
		id: "cleanupSubagent", summary: "Clean up a subagent",
		description: "Append a subagent.cleaned_up event in the subagent's session and return a handoff bundle of it.",
		params:      `[{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}, {"name": "retrieval_profile", "in": "query", "required": false, "description": "salience (the default) or plain: the ranking without salience, every item's salience taken as 1 (docs/checkout.md, Salience). Overrides the body field.", "schema": {"type": "string", "enum": ["salience", "plain"]}}, {"name": "include_attenuated", "in": "query", "required": false, "description": "Keep items whose salience fell below the space's floor, labelled attenuated (attenuated_by salience), and items the encoding gate found redundant (attenuated_by redundant, redundant_of), ranked by relevance alone. Overrides the body field.", "schema": {"type": "boolean"}}]`,
		body:        CleanupBody{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: lifecyclewire.Cleanup{},
	},
	"POST /v1/spaces/{space}/sessions/{session}/resume": {
		id: "resumeSession", summary: "Resume a session",
		description: "Append session.resumed after a context compaction and return the recovery packet: open tasks, accepted findings, recent decisions, known unknowns, each cited from the log.",
		params:      `[{"name": "session", "in": "path", "required": true, "schema": {"type": "string"}}]`,
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: lifecyclewire.Recovery{},
	},
	"GET /v1/spaces/{space}/proposals": {
		id: "listProposals", summary: "Proposals",
		description: "The space's proposals under review or decided, in seq order (docs/api.md, Review): status= keeps pending, accepted, rejected, deferred or open (pending and deferred); after_seq= is the cursor (a page's next_after_seq); limit= 1-1000 (default 100). Needs a read token.",
		params:      `[{"name": "status", "in": "query", "schema": {"type": "string", "enum": ["pending", "accepted", "rejected", "deferred", "open"]}}, {"name": "after_seq", "in": "query", "schema": {"type": "integer", "minimum": 0}}, {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000}}]`,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: reviewwire.Page{},
	},
	"GET /v1/spaces/{space}/proposals/{seq}": {
		id: "getProposal", summary: "One proposal",
		description: "One proposal by the seq of its proposal.created event, with its status, cited evidence, confidence and the last decision. 404 proposal_not_found when the seq is no projected proposal. Needs a read token.",
		params:      `[{"name": "seq", "in": "path", "required": true, "description": "The seq of the proposal.created event.", "schema": {"type": "integer", "minimum": 1}}]`,
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: reviewwire.Proposal{},
		errors: []int{404},
	},
	"POST /v1/spaces/{space}/proposals/{seq}/accept": {
		id: "acceptProposal", summary: "Accept a proposal",
		description: "Appends proposal.accepted and, for a belief_update, the fact.asserted it proposes (citing the proposal and its evidence), in one transaction. Body: {actor?, session_id?, reason?}. 404 proposal_not_found for a seq that is no proposal, 409 proposal_not_pending for one already accepted or rejected; neither appends anything. Needs a write token.",
		params:      `[{"name": "seq", "in": "path", "required": true, "description": "The seq of the proposal.created event.", "schema": {"type": "integer", "minimum": 1}}]`,
		body:        DecisionBody{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: reviewwire.Decision{},
		errors: []int{404, 409},
	},
	"POST /v1/spaces/{space}/proposals/{seq}/reject": {
		id: "rejectProposal", summary: "Reject a proposal",
		description: "Appends proposal.rejected; no fact changes. Body: {actor?, session_id?, reason?}. 404 proposal_not_found for a seq that is no proposal, 409 proposal_not_pending for one already accepted or rejected; neither appends anything. Needs a write token.",
		params:      `[{"name": "seq", "in": "path", "required": true, "description": "The seq of the proposal.created event.", "schema": {"type": "integer", "minimum": 1}}]`,
		body:        DecisionBody{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: reviewwire.Decision{},
		errors: []int{404, 409},
	},
	"GET /v1/spaces/{space}/policies": {
		id: "listPolicies", summary: "Retrieval policies",
		description: "The space's retrieval policies (docs/checkout.md, \"Retrieval policy\"): builtin-1 and every fitted version with its fit diagnostics and status (current, previous, proposed); current is the version the log makes current, projected the one checkout ranks with now, history the versions a rollback restores (the next one last).",
		status:      200, success: "Success; the body is JSON (docs/api.md).",
		result: policywire.Listing{},
	},
	"POST /v1/spaces/{space}/policies/fit": {
		id: "fitPolicy", summary: "Fit a retrieval policy",
		description:  "Fits lane weights offline to the space's judged checkouts (checkout.surfaced with feedback.recorded) starting from the current policy, and appends policy.proposed citing the events it learned from. 201 with {version, base, policy, diagnostics, source_seqs, seq} (seq absent when the same version was proposed before); 422 nothing_to_learn when no checkout was judged both ways or nothing replays better. Body optional: {actor?}. Needs an admin token.",
		body:         PolicyActionBody{},
		bodyOptional: true,
		status:       201, success: "Success; the body is JSON (docs/api.md).",
		result: policywire.FitResult{},
		errors: []int{404, 409, 422},
	},
	"POST /v1/spaces/{space}/policies/rollback": {
		id: "rollbackPolicy", summary: "Roll back the retrieval policy",
		description:  "Appends policy.rolled_back: the current version is withdrawn and the one its promotion replaced is current again; packets ranked afterwards are those of before the promotion. 201 with {version, restored, seq}; 409 nothing_to_roll_back on the policy the space started with. Body optional: {actor?, reason?}. Needs an admin token.",
		body:         PolicyActionBody{},
		bodyOptional: true,
		status:       201, success: "Success; the body is JSON (docs/api.md).",
		result: policywire.Rollback{},
		errors: []int{404, 409},
	},
	"POST /v1/spaces/{space}/policies/{version}/promote": {
		id: "promotePolicy", summary: "Promote a retrieval policy",
		description:  "Runs the regression gate (the version's replay metric on the space's own judged checkouts must be at least the current policy's) and appends policy.promoted. 201 with {version, previous, gate, seq}; 409 policy_gate_failed with the gate's numbers in details; 404 policy_not_found for a version never proposed. The dev-benchmark half of the gate runs only from the CLI (zaxy policy promote --dev-locomo/--dev-longmemeval). Body optional: {actor?}. Needs an admin token.",
		params:       `[{"name": "version", "in": "path", "required": true, "description": "builtin-1 or fit-<12 hex digits>.", "schema": {"type": "string", "pattern": "^(builtin-1|fit-[0-9a-f]{12})$"}}]`,
		body:         PolicyActionBody{},
		bodyOptional: true,
		status:       201, success: "Success; the body is JSON (docs/api.md).",
		result: policywire.Promotion{},
		errors: []int{404, 409},
	},
	"POST /v1/spaces/{space}/proposals/{seq}/defer": {
		id: "deferProposal", summary: "Defer a proposal",
		description: "Appends proposal.deferred; the proposal stays open and can be decided later. Body: {actor?, session_id?, reason?}. 404 proposal_not_found for a seq that is no proposal, 409 proposal_not_pending for one already accepted or rejected; neither appends anything. Needs a write token.",
		params:      `[{"name": "seq", "in": "path", "required": true, "description": "The seq of the proposal.created event.", "schema": {"type": "integer", "minimum": 1}}]`,
		body:        DecisionBody{},
		status:      201, success: "Success; the body is JSON (docs/api.md).",
		result: reviewwire.Decision{},
		errors: []int{404, 409},
	},
	"GET /metrics": {
		id: "getMetrics", summary: "Prometheus metrics",
		description: "Prometheus text: request latency histograms per route (zaxy_http_request_duration_seconds), events appended, projection lag, River jobs by kind and state, checkout lane timings, Go and process metrics. Needs a token that reaches every space (created with --space '*'), since its totals describe all spaces.",
		status:      200, success: "Prometheus text exposition format.",
	},
}
