package mcp

import (
	"net/http"
	"reflect"

	"github.com/zaxy/zaxy/vocab"
)

// tool is one MCP tool: what it is for, the HTTP operation a call becomes, and the Go type its
// input schema is inferred from.
type tool struct {
	name, title, description string
	// core tools are listed by the core profile; the full profile lists every tool.
	core bool
	// method and route are the HTTP operation under /v1/spaces/{space}; method is "" for a
	// tool answered here (memory_capabilities).
	method, route string
	// pathArgs maps each {param} of route to the argument that fills it.
	pathArgs map[string]string
	// input is the arguments' Go type: the request type the API decodes, plus space and the
	// arguments that travel in the path or a header.
	input reflect.Type
	// eventType, when set, makes the call an append of one event of that type: the envelope
	// arguments (session_id, actor, content) go on the event, data's fields (dataType's) into
	// its data.
	eventType string
	dataType  reflect.Type
	// required are the arguments the schema marks required (inference would guess from
	// omitempty; the API's validation is the judge either way).
	required []string
	// readOnly tools change nothing; the others append to the log (never update or delete).
	readOnly bool
	// docs describe this tool's arguments where the common descriptions (schema.go) do not fit.
	docs map[string]string
	// text, when set, renders a success body as the result's text content (otherwise the JSON).
	text func(body []byte) string
}

// http is the tool's operation as "METHOD /v1/spaces/{space}/route", or "" when it has none.
func (t *tool) http() string {
	if t.method == "" {
		return ""
	}
	return t.method + " /v1/spaces/{space}" + t.route
}

// reviewDecideTool is the tool that appends one kind of decision about a proposal.
func reviewDecideTool(decision, title, effect string) *tool {
	return &tool{
		name: "memory_review_" + decision, title: title,
		description: effect + " Name the proposal by proposal_seq (memory_review_list). A proposal already " +
			"accepted or rejected answers 409 proposal_not_pending, an unknown one 404; neither appends anything.",
		method: http.MethodPost, route: "/proposals/{seq}/" + decision, pathArgs: map[string]string{"seq": "proposal_seq"},
		input: reflect.TypeFor[reviewDecideInput](), required: []string{"space", "proposal_seq"},
		docs: map[string]string{
			"proposal_seq": "The seq of the proposal.created event.",
			"actor":        "Who decides (the decision event's actor); default reviewer.",
			"reason":       "Why, recorded in the decision event.",
		},
	}
}

// actionRecordDocs describe the record arguments of the reading memory actions.
var actionRecordDocs = map[string]string{
	"session_id": "Your session: what the action answered is recorded there (memory_action.surfaced), and the " +
		"session's outcome credits or blames it.",
	"no_record": "Do not record what this call answered (the memory_action.surfaced event); for dry runs.",
}

// withLimitDoc is actionRecordDocs plus limit's doc and more name, doc pairs.
func withLimitDoc(limit string, more ...string) map[string]string {
	out := map[string]string{"limit": limit}
	for k, v := range actionRecordDocs {
		out[k] = v
	}
	for i := 0; i+1 < len(more); i += 2 {
		out[more[i]] = more[i+1]
	}
	return out
}

// tools are every tool, core ones first, in the order they are listed.
var tools = []*tool{
	{
		name: "memory_checkout", title: "Check out memory (call first)", core: true,
		description: "Call this first, before you plan or act: it returns what memory holds that bears on the task, as a " +
			"small, cited, token-budgeted packet (stable facts, this session, relevant memory), each claim " +
			"marked with the seq and hash of the events it came from, plus warnings (stale, superseded, " +
			"invalidated). Events you appended a moment ago are already found. Pass your session_id so the " +
			"packet includes this session's recent events; max_tokens bounds it (default 2000).",
		method: http.MethodPost, route: "/checkout", input: reflect.TypeFor[checkoutInput](),
		required: []string{"space", "query"}, text: packetText,
	},
	{
		name: "memory_append", title: "Remember an event", core: true,
		description: "Append one event to the space's log: a message, a note, a decision (decision.recorded), a fact " +
			"(fact.asserted), a task update (task.updated), a preference (preference.stated), a tool call " +
			"(tool_call.completed) ... Typed events need their data fields (see type). The log is append-only " +
			"and hash-chained; the receipt gives the event's seq and hash. An idempotency_key makes a retry " +
			"append nothing twice.",
		method: http.MethodPost, route: "/events", input: reflect.TypeFor[appendInput](),
		required: []string{"space", "type"},
	},
	{
		name: "memory_query", title: "Query memory (ranked)", core: true,
		description: "The raw ranked search behind checkout: memory items with their score components per lane " +
			"(exact, keyword, vector, graph, verbatim, recent, topic, reply), labels and citations, without packing them " +
			"into a budgeted packet. Use it to look further than a packet showed; use memory_checkout to " +
			"get context to act on.",
		method: http.MethodPost, route: "/query", input: reflect.TypeFor[checkoutInput](),
		required: []string{"space", "query"}, readOnly: true,
		docs: map[string]string{"limit": "How many ranked items to return, 1–200 (default 50)."},
	},
	{
		name: "memory_feeling_of_knowing", title: "Does memory know about this?", core: true,
		description: "A quick, cheap check before you retrieve: is memory likely to hold something on the query? " +
			"Answers likely, possible or unlikely with a probability and the signals behind it (which query " +
			"words the space knows and how rare they are, entity names it knows). No retrieval is run; call " +
			"memory_checkout when the answer is likely or possible, and do not expect memory to help when unlikely.",
		method: http.MethodPost, route: "/feeling-of-knowing", input: reflect.TypeFor[feelingInput](),
		required: []string{"space", "query"}, readOnly: true,
		docs: map[string]string{"query": "The question or task you are about to work on (1–4000 characters)."},
	},
	{
		name: "context_assemble", title: "Assemble context for the next step", core: true,
		description: "The context for your next step within one budget: this session's recent replay, ranked memory " +
			"for the query and your working set (included verbatim), plus a recovery packet (open tasks, " +
			"findings, decisions, unknowns) right after a session was resumed.",
		method: http.MethodPost, route: "/context/assemble", input: reflect.TypeFor[assembleInput](),
		required: []string{"space", "query"}, text: assembledText,
	},
	{
		name: "memory_feedback", title: "Give feedback on memory", core: true,
		description: "Say whether events memory gave you were helpful, unhelpful, wrong or outdated (a " +
			"feedback.recorded event). Cite them by seq (target_seqs) or by item id (item_ids, e.g. a fact:<id>) " +
			"and, when they came from a checkout, pass its surfaced_seq as checkout_seq. Feedback from real use is " +
			"what salience learns from: helpful memories rank higher and are kept from fading, misleading ones sink.",
		method: http.MethodPost, route: "/events", input: reflect.TypeFor[feedbackInput](),
		eventType: vocab.TypeFeedbackRecorded, dataType: reflect.TypeFor[vocab.FeedbackRecorded](),
		required: []string{"space", "signal"},
		docs:     map[string]string{"content": "Optional text kept with the feedback."},
	},
	{
		name: "memory_invalidate", title: "Mark a memory as wrong", core: true,
		description: "Record that something memory holds is wrong (a memory.invalidated event): an earlier event by " +
			"target_seq, or a fact or entity by target_id (give exactly one). Nothing is erased: the target " +
			"leaves default ranking, its facts close as invalidated, and it stays reachable and labelled.",
		method: http.MethodPost, route: "/events", input: reflect.TypeFor[invalidateInput](),
		eventType: vocab.TypeMemoryInvalidated, dataType: reflect.TypeFor[vocab.MemoryInvalidated](),
		required: []string{"space", "reason"},
		docs:     map[string]string{"content": "Optional text: what is wrong, in your words."},
	},
	{
		name: "memory_capabilities", title: "What this memory server can do", core: true,
		description: "Describes every tool this server has (listed or not in the current profile), the HTTP " +
			"operation each one calls, the scope it needs, and how to switch profile to list them all. " +
			"Call it when the listed tools do not cover what you need.",
		input: reflect.TypeFor[capabilitiesInput](), readOnly: true,
	},
	{
		name: manageTool, title: "Any other memory operation",
		description: "Runs any tool the compact profile does not list, by name: operation is the tool, arguments " +
			"its own arguments (without space, which goes beside operation). memory_capabilities lists each " +
			"tool's arguments; the call is checked and answered exactly as a call of that tool is.",
		input: reflect.TypeFor[manageInput](), required: []string{"space", "operation"},
	},

	// Full profile only.
	{
		name: "memory_pin", title: "Pin memories",
		description: "Keep memories from fading (a memory.pinned event): a pinned item never falls below the " +
			"salience floor, and a pinned fact or preference is not replaced without review (a contradicting " +
			"statement becomes a proposal). Name them by seq (target_seqs) or item id (item_ids, e.g. a fact:<id>).",
		method: http.MethodPost, route: "/events", input: reflect.TypeFor[pinInput](),
		eventType: vocab.TypeMemoryPinned, dataType: reflect.TypeFor[vocab.MemoryPinned](),
		required: []string{"space"},
		docs:     map[string]string{"content": "Optional text: why these matter."},
	},
	{
		name: "memory_unpin", title: "Unpin memories",
		description: "Lift earlier pins (a memory.unpinned event): the items fade by disuse again and can be " +
			"replaced like any other. Name them by seq (target_seqs) or item id (item_ids).",
		method: http.MethodPost, route: "/events", input: reflect.TypeFor[pinInput](),
		eventType: vocab.TypeMemoryUnpinned, dataType: reflect.TypeFor[vocab.MemoryUnpinned](),
		required: []string{"space"},
		docs:     map[string]string{"content": "Optional text: why."},
	},
	{
		name: "memory_replay", title: "Replay the log",
		description: "The space's events in seq order, one page at a time (next_after_seq is the next page's " +
			"after_seq), optionally one session's or those recorded before a time.",
		method: http.MethodGet, route: "/events", input: reflect.TypeFor[replayInput](),
		required: []string{"space"}, readOnly: true,
		docs: map[string]string{"session_id": "Only this session's events.", "limit": "Page size, 1–1000 (default 100)."},
	},
	{
		name: "memory_verify", title: "Verify the hash chain",
		description: "Recompute the space's hash chain: ok with the head seq and hash, or the first broken seq and why.",
		method:      http.MethodGet, route: "/verify", input: reflect.TypeFor[verifyInput](),
		required: []string{"space"}, readOnly: true,
	},
	{
		name: "memory_ingest_documents", title: "Ingest documents",
		description: "Chunk documents (markdown or text) into document.chunk events, secrets redacted. Re-ingesting an " +
			"unchanged document appends nothing.",
		method: http.MethodPost, route: "/documents", input: reflect.TypeFor[documentsInput](),
		required: []string{"space", "documents"},
	},
	{
		name: "memory_ingest_transcript", title: "Import a transcript",
		description: "Import conversation turns as message events, secrets redacted, all or nothing per batch; " +
			"importing the same transcript again appends nothing.",
		method: http.MethodPost, route: "/transcripts", input: reflect.TypeFor[transcriptInput](),
		required: []string{"space", "turns"},
		docs:     map[string]string{"session_id": "The session of turns that do not name one."},
	},
	{
		name: "memory_facts", title: "Facts of the temporal graph",
		description: "Facts with their versions, validity windows, status, labels and evidence (seq and hash of the " +
			"events that asserted them): current ones, those valid at a time (at), or what memory said " +
			"right after a seq (as_of_seq).",
		method: http.MethodGet, route: "/facts", input: reflect.TypeFor[factsInput](),
		required: []string{"space"}, readOnly: true,
		docs: map[string]string{"limit": "How many facts at most, 1–10000 (default 1000)."},
	},
	{
		name: "memory_entity", title: "An entity and its facts",
		description: "One entity, by id or name, with its current facts.",
		method:      http.MethodGet, route: "/entities/{entity}", pathArgs: map[string]string{"entity": "entity"},
		input: reflect.TypeFor[entityInput](), required: []string{"space", "entity"}, readOnly: true,
		docs: map[string]string{"entity": "The entity's id or name."},
	},
	{
		name: "memory_projection", title: "Projection lag",
		description: "How far the projections (graph, full text, embeddings) are behind the log: head_seq, " +
			"projected_seq, lag.",
		method: http.MethodGet, route: "/projection", input: reflect.TypeFor[spaceArg](),
		required: []string{"space"}, readOnly: true,
	},
	{
		name: "memory_salience", title: "Salience histogram",
		description: "How the space's memory items spread over salience (10 equal steps of [0, 1]) and how many are " +
			"attenuated (out of default ranking), as the salience_decay job last materialised it.",
		method: http.MethodGet, route: "/salience", input: reflect.TypeFor[spaceArg](),
		required: []string{"space"}, readOnly: true,
	},
	{
		name: "memory_cypher", title: "Cypher on the graph",
		description: "A read-only Cypher query on the space's Apache AGE graph (labels Entity and Value, edge FACT), " +
			"with a statement timeout. Give patterns a direction: undirected matches can take minutes.",
		method: http.MethodPost, route: "/cypher", input: reflect.TypeFor[cypherInput](),
		required: []string{"space", "query"}, readOnly: true,
		docs: map[string]string{
			"query": "The Cypher query, e.g. MATCH (a:Entity)-[f:FACT]->(b:Entity) RETURN a.name, f.predicate, b.name.",
			"limit": "How many rows at most, 1–10000.",
		},
	},
	{
		name: "weave_memory", title: "Weave memory for one reasoning step",
		description: "A memory weave for the step you are about to take (goal, reasoning_phase orient/plan/act/reflect, " +
			"purpose): latent artifacts (episodes, procedures, failures, preferences, causal links) bearing on the goal, " +
			"each shown with the events it derives from, verified against the log now. Evidence lines (seq and hash) may " +
			"back claims; the inferred context is suggestive only and never a source. Stale or superseded artifacts are " +
			"left out with the reason. Records a checkout.surfaced event carrying the weave.",
		method: http.MethodPost, route: "/weave", input: reflect.TypeFor[stepInput](),
		required: []string{"space", "goal"}, text: weaveText,
		docs: map[string]string{"goal": "What the step is for (1–4000 characters).", "max_tokens": "The weave's budget, 200–32000 (default 1000)."},
	},
	{
		name: "memory_prospective", title: "Prospective pass before a step",
		description: "Before a step: the memory weave plus procedure priors (tool sequences that worked across sessions), " +
			"failure priors (how it failed the last times and what fixed it), causal context and explicit " +
			"missing-evidence warnings, each citing verified events, with a token estimate. Priors are suggestive.",
		method: http.MethodPost, route: "/prospective", input: reflect.TypeFor[stepInput](),
		required: []string{"space", "goal"}, text: weaveText,
		docs: map[string]string{"goal": "What the step is for (1–4000 characters).", "max_tokens": "The pass's budget, 200–32000 (default 1500)."},
	},
	{
		name: "memory_index", title: "What the space holds",
		description: "An index of the space: entities, predicates, event types and sessions, each with the token " +
			"cost of its detail (fetch one with memory_item).",
		method: http.MethodGet, route: "/index", input: reflect.TypeFor[indexInput](),
		required: []string{"space"}, readOnly: true,
		docs: map[string]string{"max_tokens": "The view's budget, 20–20000 (default 100)."},
	},
	{
		name: "memory_timeline", title: "Recent actions and decisions",
		description: "Recent actions and decisions, newest first, each cited by seq and hash.",
		method:      http.MethodGet, route: "/timeline", input: reflect.TypeFor[timelineInput](),
		required: []string{"space"}, readOnly: true,
		docs: map[string]string{
			"session_id": "Only this session's entries.",
			"max_tokens": "The view's budget, 20–20000 (default 500).",
		},
	},
	{
		name: "memory_item", title: "One item in full",
		description: "One item in full with its token cost: an event (ev:<seq>), a fact (fact:<id>), an entity (its " +
			"id), session:<id>, type:<event type> or predicate:<name>.",
		method: http.MethodGet, route: "/items/{id}", pathArgs: map[string]string{"id": "id"},
		input: reflect.TypeFor[itemInput](), required: []string{"space", "id"}, readOnly: true,
	},
	{
		name: "memory_item_salience", title: "An item's salience over time",
		description: "How an item's salience (what multiplies its ranking) moved: each reinforcing event (surfaced, " +
			"recalled, helpful, unhelpful, wrong, outdated, invalidated, pinned, unpinned, repeated) with the " +
			"reinforcement, decay and salience it left, and the salience now. in_memory is false for an id that is " +
			"no memory item.",
		method: http.MethodGet, route: "/items/{id}/salience", pathArgs: map[string]string{"id": "id"},
		input: reflect.TypeFor[itemInput](), required: []string{"space", "id"}, readOnly: true,
		docs: map[string]string{"id": "A memory item: ev:<seq> or fact:<id>."},
	},
	{
		name: "memory_checkout_record", title: "What a checkout handed out",
		description: "A recorded checkout (its surfaced_seq) with its packet text re-rendered from the log and whether " +
			"it matches the text handed out (status matches, differs, not_recorded_as_rendered); an item erased " +
			"since is named by its erasure, never shown.",
		method: http.MethodGet, route: "/checkouts/{seq}", pathArgs: map[string]string{"seq": "surfaced_seq"},
		input: reflect.TypeFor[recordedCheckoutInput](), required: []string{"space", "surfaced_seq"}, readOnly: true,
		docs: map[string]string{"surfaced_seq": "The seq of the checkout.surfaced event (a packet's surfaced_seq)."},
	},
	{
		name: "context_after_turn", title: "Record a finished turn, get the next context",
		description: "Append the finished turn's events (all or nothing, in session_id) and get the context for the " +
			"next one, as context_assemble would give it. Without a query, the turn's last message is the query.",
		method: http.MethodPost, route: "/context/after-turn", input: reflect.TypeFor[afterTurnInput](),
		required: []string{"space", "session_id", "events"}, text: afterTurnText,
		docs: map[string]string{"query": "What the next step is about; default the turn's last message."},
	},
	{
		name: "memory_handoff", title: "Handoff bundle",
		description: "A bundle another agent can resume a session from: summary, replay tail, chain status, " +
			"recovery (open tasks, findings, decisions, unknowns) and a checkout for the query.",
		method: http.MethodPost, route: "/handoff", input: reflect.TypeFor[handoffInput](),
		required: []string{"space", "session_id"},
		docs: map[string]string{
			"session_id": "The session to hand off.",
			"query":      "What the next agent will work on; default the session's open work.",
		},
	},
	{
		name: "subagent_cleanup", title: "Clean up a subagent",
		description: "Record that a subagent finished (a subagent.cleaned_up event in its session) and get a handoff " +
			"bundle of its session to continue from.",
		method: http.MethodPost, route: "/subagents/{id}/cleanup", pathArgs: map[string]string{"id": "subagent_id"},
		input: reflect.TypeFor[cleanupInput](), required: []string{"space", "subagent_id", "outcome"},
		docs: map[string]string{
			"session_id": "The subagent's session; default subagent:<subagent_id>.",
			"query":      "What the parent continues with; default the session's open work.",
		},
	},
	{
		name: "session_resume", title: "Resume a session after compaction",
		description: "Call after your context was compacted: records session.resumed and returns the recovery packet " +
			"(open tasks, accepted findings, recent decisions, known unknowns), read from the log alone.",
		method: http.MethodPost, route: "/sessions/{session}/resume", pathArgs: map[string]string{"session": "session_id"},
		input: reflect.TypeFor[resumeInput](), required: []string{"space", "session_id"},
		docs: map[string]string{"session_id": "The session being resumed."},
	},
	{
		name: "memory_review_list", title: "Proposals awaiting review",
		description: "Proposed changes to memory (belief updates, skills, consolidations) with their cited evidence, " +
			"confidence and status, in seq order. Interference detection proposes here when a model's statement " +
			"contradicts an asserted fact. Decide them with memory_review_accept, _reject or _defer.",
		method: http.MethodGet, route: "/proposals", input: reflect.TypeFor[reviewListInput](),
		required: []string{"space"}, readOnly: true,
		docs: map[string]string{
			"status":    "pending, accepted, rejected, deferred, or open (pending and deferred); default all.",
			"after_seq": "The cursor: only proposals after it (a page's next_after_seq).",
			"limit":     "Page size, 1–1000 (default 100).",
		},
	},
	{
		name: "memory_review_get", title: "One proposal",
		description: "One proposal by proposal_seq, with its status, cited evidence, confidence and the last decision.",
		method:      http.MethodGet, route: "/proposals/{seq}", pathArgs: map[string]string{"seq": "proposal_seq"},
		input: reflect.TypeFor[reviewGetInput](), required: []string{"space", "proposal_seq"}, readOnly: true,
		docs: map[string]string{"proposal_seq": "The seq of the proposal.created event."},
	},
	{
		name: "memory_artifacts", title: "Latent artifacts",
		description: "The space's learned artifacts (episodes, procedures, failures, preferences, causal links), each " +
			"with the events it cites, the entities it covers, its confidence, review status, staleness and the " +
			"checkouts whose memory weave used it. Derived, non-authoritative: only the cited events authorise a " +
			"claim. Appends nothing.",
		method: http.MethodGet, route: "/artifacts", input: reflect.TypeFor[artifactsInput](),
		required: []string{"space"}, readOnly: true,
		docs: map[string]string{
			"type":          "episode, procedure, failure, preference or causal; default all.",
			"entity":        "Keep artifacts covering this entity id.",
			"include_stale": "List stale artifacts too, with stale_at and stale_reason (default false: current only).",
			"after":         "The cursor: a page's next_after.",
			"limit":         "Page size, 1–200 (default 50).",
		},
	},
	// Memory actions (docs/latent.md): reads that cite events, writes that append one event.
	{
		name: "memory_simulate_forward", title: "Simulate a plan before running it",
		description: "Walk a candidate plan (steps: its tools in order) against what memory learned: the recurring " +
			"procedures it follows, the risks at each step (remembered failures of its tools and their fixes, causal " +
			"links) and the evidence it needs first, each citing the events it rests on. Derived, non-authoritative: " +
			"it steers planning; only the cited events authorise a claim. Records what it answered (memory_action.surfaced, in session_id) so the outcome can credit or blame it; no_record skips that.",
		method: http.MethodPost, route: "/actions/simulate-forward", input: reflect.TypeFor[simulateInput](),
		required: []string{"space", "steps"}, docs: actionRecordDocs,
	},
	{
		name: "memory_reflect_backward", title: "Reflect on a session",
		description: "Look back on a session: what checkout surfaced, the feedback it got, how it ended (success, " +
			"failure, partial or unknown, with the event that says so) and which learned artifacts apply, all cited. " +
			"Records what it answered (memory_action.surfaced) in that session; no_record skips that.",
		method: http.MethodPost, route: "/actions/reflect-backward", input: reflect.TypeFor[reflectInput](),
		required: []string{"space", "session_id"},
		docs:     map[string]string{"session_id": "The session to look back on (the record goes there too).", "no_record": actionRecordDocs["no_record"]},
	},
	{
		name: "memory_procedure_prior", title: "Procedures that worked before",
		description: "Recurring successful tool sequences (procedures mined from past sessions) ranked for a goal or " +
			"a planned tool sequence, each with its confidence and the events it cites. Never a stale one. Records what it answered (memory_action.surfaced, in session_id) so the outcome can credit or blame it; no_record skips that.",
		method: http.MethodPost, route: "/actions/retrieve-procedure-prior", input: reflect.TypeFor[priorInput](),
		required: []string{"space"}, docs: withLimitDoc("How many priors, 1-50 (default 5)."),
	},
	{
		name: "memory_failure_prior", title: "How this failed before",
		description: "Repeated failures of tools (with the error and the fix that followed) ranked for a goal or a " +
			"planned tool sequence, each with its confidence and the events it cites. Never a stale one. Records what it answered (memory_action.surfaced, in session_id) so the outcome can credit or blame it; no_record skips that.",
		method: http.MethodPost, route: "/actions/retrieve-failure-prior", input: reflect.TypeFor[priorInput](),
		required: []string{"space"}, docs: withLimitDoc("How many priors, 1-50 (default 5)."),
	},
	{
		name: "memory_causal_neighborhood", title: "Causes and effects around something",
		description: "Causal links (a decision followed by a tool failing, and the fix) around an event (seq), a tool " +
			"or an entity name, with both ends cited. Hypotheses for review, not facts. Records what it answered (memory_action.surfaced, in session_id) so the outcome can credit or blame it; no_record skips that.",
		method: http.MethodPost, route: "/actions/query-causal-neighborhood", input: reflect.TypeFor[neighborhoodInput](),
		required: []string{"space"},
		docs: withLimitDoc("How many links, 1-50 (default 5).", "seq", "An event the links cite (as cause, effect, fix or a step between).",
			"entity", "A name the link's decision, tool or error mentions."),
	},
	{
		name: "memory_propose_update", title: "Propose a memory update for review",
		description: "Propose a change to memory (kind belief_update with a fact, or consolidation, optionally of an " +
			"artifact) citing evidence seqs; appends one proposal.created that a reviewer accepts or rejects " +
			"(memory_review_*). An idempotency_key makes a retry append nothing twice.",
		method: http.MethodPost, route: "/actions/propose-memory-update", input: reflect.TypeFor[proposeInput](),
		required: []string{"space", "kind", "evidence"},
	},
	{
		name: "memory_revise_confidence", title: "Revise how far to trust an artifact",
		description: "Set a new confidence (0–1) for a learned artifact (artifact_id from a prior or simulation) with " +
			"the reason and optional evidence: appends one memory.confidence_revised; priors rank by it from then on.",
		method: http.MethodPost, route: "/actions/revise-confidence", input: reflect.TypeFor[reviseInput](),
		required: []string{"space", "artifact_id", "confidence", "reason"},
		docs:     map[string]string{"reason": "Why the confidence changes.", "evidence": "Seqs of events that justify it (optional)."},
	},
	{
		name: "memory_record_known_unknown", title: "Record what memory does not know",
		description: "Record a question memory could not answer (a memory.known_unknown event): it becomes a memory " +
			"item later checkouts find, and simulations and reflections list it.",
		method: http.MethodPost, route: "/actions/record-known-unknown", input: reflect.TypeFor[knownUnknownInput](),
		required: []string{"space", "question"},
	},
	{
		name: "memory_score_action", title: "Say whether a memory action helped",
		description: "Judge a memory action (action: its name) helpful, unhelpful, wrong or outdated: appends one " +
			"feedback.recorded naming the event the action appended (action_seq) and/or the events its answer cited " +
			"(cited_seqs).",
		method: http.MethodPost, route: "/actions/score-memory-action", input: reflect.TypeFor[scoreInput](),
		required: []string{"space", "action", "signal"},
		docs:     map[string]string{"comment": "Why, in a few words."},
	},
	reviewDecideTool("accept", "Accept a proposal",
		"Accept a proposal: appends proposal.accepted and, for a belief_update, the fact.asserted it proposes, citing the proposal and its evidence."),
	reviewDecideTool("reject", "Reject a proposal", "Reject a proposal: appends proposal.rejected; no fact changes."),
	reviewDecideTool("defer", "Defer a proposal", "Defer a proposal: appends proposal.deferred; it stays open."),
	{
		name: "memory_policy_list", title: "Retrieval policies",
		description: "The space's retrieval policies (lane weights and boosts checkout ranks with): the built-in ones (builtin-1, builtin-2, builtin-3, builtin-4, builtin-5, builtin-6, builtin-7) and every " +
			"fitted version with its fit diagnostics, which is current, and what a rollback restores. Every packet " +
			"names the version it was ranked with (diagnostics.policy_version).",
		method: http.MethodGet, route: "/policies", input: reflect.TypeFor[spaceArg](),
		required: []string{"space"}, readOnly: true,
	},
	{
		name: "memory_policy_fit", title: "Fit a retrieval policy",
		description: "Fit lane weights offline to the space's judged checkouts (checkouts with helpful and negative " +
			"feedback) and propose them (policy.proposed); ranking does not change until a promotion. 422 " +
			"nothing_to_learn when nothing was judged both ways. Needs an admin token.",
		method: http.MethodPost, route: "/policies/fit", input: reflect.TypeFor[policyActionInput](),
		required: []string{"space"},
		docs:     map[string]string{"actor": "Who fits (the event's actor); default admin.", "reason": "Unused by a fit."},
	},
	{
		name: "memory_policy_promote", title: "Promote a retrieval policy",
		description: "Make a proposed version the space's current retrieval policy if it replays at least as well as the " +
			"current one on the space's own judged checkouts (409 policy_gate_failed with both numbers otherwise); " +
			"appends policy.promoted. Needs an admin token.",
		method: http.MethodPost, route: "/policies/{version}/promote", pathArgs: map[string]string{"version": "version"},
		input: reflect.TypeFor[policyPromoteInput](), required: []string{"space", "version"},
		docs: map[string]string{
			"version": "builtin-1, builtin-2, builtin-3, builtin-4, builtin-5, builtin-6, builtin-7 or fit-<12 hex digits> (memory_policy_list).",
			"actor":   "Who promotes (the event's actor); default admin.",
			"reason":  "Unused by a promotion.",
		},
	},
	{
		name: "memory_policy_rollback", title: "Roll back the retrieval policy",
		description: "Restore the retrieval policy the last promotion replaced (policy.rolled_back); packets are then " +
			"ranked as before that promotion. 409 nothing_to_roll_back on the policy the space started with. " +
			"Needs an admin token.",
		method: http.MethodPost, route: "/policies/rollback", input: reflect.TypeFor[policyActionInput](),
		required: []string{"space"},
		docs:     map[string]string{"actor": "Who rolls back (the event's actor); default admin.", "reason": "Why, recorded in the event."},
	},
}
