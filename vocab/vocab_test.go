package vocab_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/vocab"
)

// validateCase is one event shape and the field Validate must name ("" = valid).
type validateCase struct {
	name    string
	typ     string
	content string
	data    string
	field   string
}

func long(n int) string { return strings.Repeat("x", n) }

// validateCases pairs every documented rule with a passing and a failing case.
var validateCases = []validateCase{
	// Unknown types and the data object itself.
	{"unknown type anything goes", "my.custom", "", `{"x":[1,2]}`, ""},
	{"unknown type without data", "my.custom", "", ``, ""},
	{"known type data not object", "fact.asserted", "", `[1]`, "data"},
	{"known type data null", "task.updated", "", `null`, "data"},
	// JSON's whitespace is space, tab, line feed and carriage return: a vertical tab before the
	// object is no JSON (a fuzz target found it accepted here and refused by Decode).
	{"known type data after a vertical tab", "memory_action.surfaced", "", "\v{\"action\":\"simulate_forward\",\"artifacts\":[]}", "data"},
	{"known type data after JSON whitespace", "memory_action.surfaced", "", " \t\r\n{\"action\":\"simulate_forward\",\"artifacts\":[]}\n", ""},
	{"known type extra keys allowed", "task.updated", "", `{"task_id":"T","status":"open","priority":3}`, ""},

	// memory.confidence_revised, memory.known_unknown and feedback.recorded's memory_action
	{"confidence revised", "memory.confidence_revised", "", `{"artifact":{"key":"procedure:a → b","id":"ab"},"confidence":0.2,"previous":0.75,"reason":"failed twice","evidence":[4]}`, ""},
	{"confidence revised without artifact", "memory.confidence_revised", "", `{"confidence":0.2,"reason":"r"}`, "data.artifact"},
	{"confidence revised without id", "memory.confidence_revised", "", `{"artifact":{"key":"k"},"confidence":0.2,"reason":"r"}`, "data.artifact.id"},
	{"confidence revised without confidence", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i"},"reason":"r"}`, "data.confidence"},
	{"confidence revised out of range", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i"},"confidence":1.5,"reason":"r"}`, "data.confidence"},
	{"confidence revised bad previous", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i"},"confidence":0.5,"previous":-1,"reason":"r"}`, "data.previous"},
	{"confidence revised without reason", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i"},"confidence":0.5}`, "data.reason"},
	{"confidence revised naming its sources", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i","sources_sha256":"` + strings.Repeat("0a", 32) + `"},"confidence":0.5,"reason":"r"}`, ""},
	{"confidence revised bad sources digest", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i","sources_sha256":"ABC"},"confidence":0.5,"reason":"r"}`, "data.artifact.sources_sha256"},
	{"confidence revised sources digest not text", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i","sources_sha256":7},"confidence":0.5,"reason":"r"}`, "data.artifact.sources_sha256"},
	{"confidence revised bad evidence", "memory.confidence_revised", "", `{"artifact":{"key":"k","id":"i"},"confidence":0.5,"reason":"r","evidence":[0]}`, "data.evidence[0]"},
	// memory_action.surfaced, a reading memory action's record
	{"action record", "memory_action.surfaced", "", `{"action":"simulate_forward","request_sha256":"ab","tools":["go vet"],"artifacts":[{"artifact_id":"p1","artifact_type":"procedure","tools":["a","b"],"confidence":0.9,"seqs":[3,4]}],"cited_seqs":[3,4]}`, ""},
	{"action record, nothing found", "memory_action.surfaced", "", `{"action":"reflect_backward","artifacts":[]}`, ""},
	{"action record without action", "memory_action.surfaced", "", `{"artifacts":[]}`, "data.action"},
	{"action record of a writing action", "memory_action.surfaced", "", `{"action":"revise_confidence","artifacts":[]}`, "data.action"},
	{"action record without artifacts", "memory_action.surfaced", "", `{"action":"simulate_forward"}`, "data.artifacts"},
	{"action record artifacts not objects", "memory_action.surfaced", "", `{"action":"simulate_forward","artifacts":["p1"]}`, "data.artifacts[0]"},
	{"action record artifact without id", "memory_action.surfaced", "", `{"action":"simulate_forward","artifacts":[{"artifact_id":"p1","artifact_type":"procedure"},{"artifact_type":"failure"}]}`, "data.artifacts[1].artifact_id"},
	{"action record artifact bad tools", "memory_action.surfaced", "", `{"action":"simulate_forward","artifacts":[{"artifact_id":"p1","artifact_type":"procedure","tools":["a",2]}]}`, "data.artifacts[0].tools[1]"},
	{"action record artifact bad seq", "memory_action.surfaced", "", `{"action":"simulate_forward","artifacts":[{"artifact_id":"p1","artifact_type":"procedure","seqs":[-3]}]}`, "data.artifacts[0].seqs[0]"},
	{"action record artifact bad confidence", "memory_action.surfaced", "", `{"action":"simulate_forward","artifacts":[{"artifact_id":"p1","artifact_type":"procedure","confidence":2}]}`, "data.artifacts[0].confidence"},
	{"action record bad cited seqs", "memory_action.surfaced", "", `{"action":"simulate_forward","artifacts":[],"cited_seqs":[1,"x"]}`, "data.cited_seqs[1]"},
	{"action record bad tools", "memory_action.surfaced", "", `{"action":"simulate_forward","artifacts":[],"tools":"go vet"}`, "data.tools"},
	{"known unknown", "memory.known_unknown", "Which region hosts ledger-7?", `{"question":"Which region hosts ledger-7?","context":"deploy","evidence":[3]}`, ""},
	{"known unknown without question", "memory.known_unknown", "", `{"context":"deploy"}`, "data.question"},
	{"feedback on a memory action", "feedback.recorded", "", `{"target_seqs":[5],"signal":"helpful","memory_action":{"action":"retrieve_procedure_prior","seq":5}}`, ""},
	{"feedback on an unknown memory action", "feedback.recorded", "", `{"target_seqs":[5],"signal":"helpful","memory_action":{"action":"guess"}}`, "data.memory_action.action"},

	// redaction.configured
	{"redaction off", "redaction.configured", "", `{"mode":"off","reason":"public test data"}`, ""},
	{"redaction on", "redaction.configured", "", `{"mode":"on"}`, ""},
	{"redaction without mode", "redaction.configured", "", `{}`, "data.mode"},
	{"redaction bad mode", "redaction.configured", "", `{"mode":"OFF"}`, "data.mode"},
	{"redaction mode not a string", "redaction.configured", "", `{"mode":false}`, "data.mode"},

	// outcome.recorded
	{"outcome full", "outcome.recorded", "", `{"session_id":"run-42","status":"failure","summary":"tests still fail","evidence":[7,9],"task_id":"t1","weave_id":"w1"}`, ""},
	{"outcome without status", "outcome.recorded", "", `{"session_id":"run-42","summary":"done"}`, ""},
	{"outcome without session", "outcome.recorded", "", `{"status":"success","summary":"done"}`, "data.session_id"},
	{"outcome blank session", "outcome.recorded", "", `{"session_id":" ","summary":"done"}`, "data.session_id"},
	{"outcome bad status", "outcome.recorded", "", `{"session_id":"s","status":"won","summary":"done"}`, "data.status"},
	{"outcome without summary", "outcome.recorded", "", `{"session_id":"s","status":"success"}`, "data.summary"},
	{"outcome empty evidence", "outcome.recorded", "", `{"session_id":"s","summary":"x","evidence":[]}`, "data.evidence"},
	{"outcome bad evidence", "outcome.recorded", "", `{"session_id":"s","summary":"x","evidence":[0]}`, "data.evidence[0]"},
	{"outcome blank task", "outcome.recorded", "", `{"session_id":"s","summary":"x","task_id":""}`, "data.task_id"},
	{"proposal known unknown", "proposal.created", "", `{"kind":"known_unknown","evidence":[4]}`, ""},
	// proposal.created and its decisions
	{"proposal belief update", "proposal.created", "", `{"kind":"belief_update","evidence":[3,4],"confidence":0.6,"fact":{"subject":"Alice","predicate":"works at","object":"Beta"}}`, ""},
	{"proposal belief update with value", "proposal.created", "", `{"kind":"belief_update","evidence":[3],"fact":{"subject":"Alice","predicate":"age","value":31},"contradicts":"fabc","inference":{"seq":3,"model":"m@1","ordinal":1}}`, ""},
	{"proposal skill", "proposal.created", "", `{"kind":"skill","evidence":[1],"rationale":"run make generate after editing sql"}`, ""},
	{"proposal without kind", "proposal.created", "", `{"evidence":[1]}`, "data.kind"},
	{"proposal bad kind", "proposal.created", "", `{"kind":"belief","evidence":[1]}`, "data.kind"},
	{"proposal without evidence", "proposal.created", "", `{"kind":"skill"}`, "data.evidence"},
	{"proposal empty evidence", "proposal.created", "", `{"kind":"skill","evidence":[]}`, "data.evidence"},
	{"proposal bad evidence seq", "proposal.created", "", `{"kind":"skill","evidence":[1,0]}`, "data.evidence[1]"},
	{"proposal bad confidence", "proposal.created", "", `{"kind":"skill","evidence":[1],"confidence":2}`, "data.confidence"},
	{"proposal belief update without fact", "proposal.created", "", `{"kind":"belief_update","evidence":[1]}`, "data.fact"},
	{"proposal skill with fact", "proposal.created", "", `{"kind":"skill","evidence":[1],"fact":{"subject":"A","predicate":"p","value":1}}`, "data.fact"},
	{"proposal fact not object", "proposal.created", "", `{"kind":"belief_update","evidence":[1],"fact":"Alice works at Beta"}`, "data.fact"},
	{"proposal fact without subject", "proposal.created", "", `{"kind":"belief_update","evidence":[1],"fact":{"predicate":"p","value":1}}`, "data.fact.subject"},
	{"proposal fact without object", "proposal.created", "", `{"kind":"belief_update","evidence":[1],"fact":{"subject":"A","predicate":"p"}}`, "data.fact.object"},
	{"proposal fact with proposal seq", "proposal.created", "", `{"kind":"belief_update","evidence":[1],"fact":{"subject":"A","predicate":"p","value":1,"proposal_seq":2}}`, "data.fact.proposal_seq"},
	{"proposal blank contradicts", "proposal.created", "", `{"kind":"skill","evidence":[1],"contradicts":" "}`, "data.contradicts"},
	{"proposal inference without model", "proposal.created", "", `{"kind":"skill","evidence":[1],"inference":{"seq":1,"ordinal":1}}`, "data.inference.model"},
	{"proposal accepted", "proposal.accepted", "", `{"proposal_seq":5,"reason":"checked with Alice"}`, ""},
	{"proposal rejected", "proposal.rejected", "", `{"proposal_seq":5}`, ""},
	{"proposal deferred", "proposal.deferred", "", `{"proposal_seq":5,"reason":"ask next week"}`, ""},
	{"proposal decision without seq", "proposal.accepted", "", `{}`, "data.proposal_seq"},
	{"proposal decision bad seq", "proposal.rejected", "", `{"proposal_seq":0}`, "data.proposal_seq"},
	{"fact with proposal seq", "fact.asserted", "", `{"subject":"Alice","predicate":"works at","object":"Beta","proposal_seq":7}`, ""},
	{"fact with bad proposal seq", "fact.asserted", "", `{"subject":"Alice","predicate":"works at","object":"Beta","proposal_seq":-1}`, "data.proposal_seq"},

	// message
	{"message ok", "message", "hello", `{"role":"user","name":"Ann"}`, ""},
	{"message every role", "message", "hi", `{"role":"tool"}`, ""},
	{"message without role", "message", "hello", `{}`, "data.role"},
	{"message without data", "message", "hello", ``, "data.role"},
	{"message bad role", "message", "hello", `{"role":"robot"}`, "data.role"},
	{"message role not string", "message", "hello", `{"role":5}`, "data.role"},
	{"message name not string", "message", "hello", `{"role":"user","name":["Ann"]}`, "data.name"},
	{"message name at limit", "message", "hello", fmt.Sprintf(`{"role":"user","name":%q}`, long(512)), ""},
	{"message name too long", "message", "hello", fmt.Sprintf(`{"role":"user","name":%q}`, long(513)), "data.name"},
	{"message empty content", "message", "", `{"role":"user"}`, "content"},
	{"message blank content", "message", " \n", `{"role":"user"}`, "content"},

	// fact.asserted
	{"fact with object", "fact.asserted", "", `{"subject":"Alice","predicate":"works at","object":"Acme"}`, ""},
	{"fact with number value", "fact.asserted", "", `{"subject":"Alice","predicate":"age","value":31}`, ""},
	{"fact with object value", "fact.asserted", "", `{"subject":"Alice","predicate":"address","value":{"city":"Oslo"}}`, ""},
	{"fact with array value", "fact.asserted", "", `{"subject":"Alice","predicate":"langs","value":["go","sql"]}`, ""},
	{"fact with false value", "fact.asserted", "", `{"subject":"Alice","predicate":"retired","value":false}`, ""},
	{"fact full", "fact.asserted", "", `{"subject":"Alice","predicate":"age","value":31,"confidence":0.9,"valid_from":"2024-01-01T00:00:00Z","valid_to":"2025-01-01T00:00:00+01:00"}`, ""},
	{"fact without subject", "fact.asserted", "", `{"predicate":"p","value":1}`, "data.subject"},
	{"fact blank subject", "fact.asserted", "", `{"subject":" ","predicate":"p","value":1}`, "data.subject"},
	{"fact subject not string", "fact.asserted", "", `{"subject":7,"predicate":"p","value":1}`, "data.subject"},
	{"fact subject at limit", "fact.asserted", "", fmt.Sprintf(`{"subject":%q,"predicate":"p","value":1}`, strings.Repeat("é", 512)), ""},
	{"fact subject too long", "fact.asserted", "", fmt.Sprintf(`{"subject":%q,"predicate":"p","value":1}`, long(513)), "data.subject"},
	{"fact without predicate", "fact.asserted", "", `{"subject":"s","value":1}`, "data.predicate"},
	{"fact predicate too long", "fact.asserted", "", fmt.Sprintf(`{"subject":"s","predicate":%q,"value":1}`, long(513)), "data.predicate"},
	{"fact without object or value", "fact.asserted", "", `{"subject":"s","predicate":"p"}`, "data.object"},
	{"fact null value", "fact.asserted", "", `{"subject":"s","predicate":"p","value":null}`, "data.object"},
	{"fact object and value", "fact.asserted", "", `{"subject":"s","predicate":"p","object":"o","value":1}`, "data.value"},
	{"fact object not string", "fact.asserted", "", `{"subject":"s","predicate":"p","object":{"a":1}}`, "data.object"},
	{"fact object empty", "fact.asserted", "", `{"subject":"s","predicate":"p","object":""}`, "data.object"},
	{"fact object too long", "fact.asserted", "", fmt.Sprintf(`{"subject":"s","predicate":"p","object":%q}`, long(513)), "data.object"},
	{"fact valid_from only", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":"2024-01-01T10:00:00.123Z"}`, ""},
	{"fact bad valid_from", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":"yesterday"}`, "data.valid_from"},
	{"fact valid_from without zone", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":"2024-01-01T00:00:00"}`, "data.valid_from"},
	{"fact valid_from not string", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":1700000000}`, "data.valid_from"},
	{"fact bad valid_to", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_to":"2024-13-01T00:00:00Z"}`, "data.valid_to"},
	{"fact window backwards", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":"2024-02-01T00:00:00Z","valid_to":"2024-01-01T00:00:00Z"}`, "data.valid_to"},
	{"fact window empty", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"valid_from":"2024-02-01T00:00:00Z","valid_to":"2024-02-01T01:00:00+01:00"}`, "data.valid_to"},
	{"fact confidence bounds", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"confidence":0}`, ""},
	{"fact confidence one", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"confidence":1}`, ""},
	{"fact confidence too high", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"confidence":1.5}`, "data.confidence"},
	{"fact confidence negative", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"confidence":-0.1}`, "data.confidence"},
	{"fact confidence not number", "fact.asserted", "", `{"subject":"s","predicate":"p","value":1,"confidence":"high"}`, "data.confidence"},

	// fact.retracted
	{"retraction ok", "fact.retracted", "", `{"subject":"s","predicate":"p","reason":"wrong"}`, ""},
	{"retraction narrowed by object", "fact.retracted", "", `{"subject":"s","predicate":"p","object":"o"}`, ""},
	{"retraction narrowed by value", "fact.retracted", "", `{"subject":"s","predicate":"p","value":{"a":1}}`, ""},
	{"retraction without subject", "fact.retracted", "", `{"predicate":"p"}`, "data.subject"},
	{"retraction without predicate", "fact.retracted", "", `{"subject":"s"}`, "data.predicate"},
	{"retraction object and value", "fact.retracted", "", `{"subject":"s","predicate":"p","object":"o","value":2}`, "data.value"},
	{"retraction object empty", "fact.retracted", "", `{"subject":"s","predicate":"p","object":""}`, "data.object"},
	{"retraction reason not string", "fact.retracted", "", `{"subject":"s","predicate":"p","reason":false}`, "data.reason"},

	// memory.invalidated
	{"invalidation by seq", "memory.invalidated", "", `{"target_seq":3,"reason":"wrong"}`, ""},
	{"invalidation by id", "memory.invalidated", "", `{"target_id":"f123","reason":"wrong"}`, ""},
	{"invalidation without target", "memory.invalidated", "", `{"reason":"wrong"}`, "data.target_seq"},
	{"invalidation both targets", "memory.invalidated", "", `{"target_seq":3,"target_id":"x","reason":"r"}`, "data.target_id"},
	{"invalidation seq zero", "memory.invalidated", "", `{"target_seq":0,"reason":"r"}`, "data.target_seq"},
	{"invalidation seq fractional", "memory.invalidated", "", `{"target_seq":1.5,"reason":"r"}`, "data.target_seq"},
	{"invalidation seq with exponent", "memory.invalidated", "", `{"target_seq":1e3,"reason":"r"}`, "data.target_seq"},
	{"invalidation seq as string", "memory.invalidated", "", `{"target_seq":"3","reason":"r"}`, "data.target_seq"},
	{"invalidation seq overflows", "memory.invalidated", "", `{"target_seq":99999999999999999999,"reason":"r"}`, "data.target_seq"},
	{"invalidation id empty", "memory.invalidated", "", `{"target_id":"","reason":"r"}`, "data.target_id"},
	{"invalidation id not string", "memory.invalidated", "", `{"target_id":12,"reason":"r"}`, "data.target_id"},
	{"invalidation without reason", "memory.invalidated", "", `{"target_seq":3}`, "data.reason"},
	{"invalidation blank reason", "memory.invalidated", "", `{"target_seq":3,"reason":"  "}`, "data.reason"},

	// decision.recorded
	{"decision ok", "decision.recorded", "we talked", `{"decision":"use pgx","rationale":"fast","alternatives":["lib/pq"],"subject":"driver"}`, ""},
	{"decision minimal", "decision.recorded", "", `{"decision":"use pgx"}`, ""},
	{"decision missing", "decision.recorded", "use pgx", `{"rationale":"x"}`, "data.decision"},
	{"decision blank", "decision.recorded", "", `{"decision":""}`, "data.decision"},
	{"decision rationale not string", "decision.recorded", "", `{"decision":"d","rationale":1}`, "data.rationale"},
	{"decision alternatives not array", "decision.recorded", "", `{"decision":"d","alternatives":"a"}`, "data.alternatives"},
	{"decision bad alternative", "decision.recorded", "", `{"decision":"d","alternatives":["a",3]}`, "data.alternatives[1]"},
	{"decision subject too long", "decision.recorded", "", fmt.Sprintf(`{"decision":"d","subject":%q}`, long(513)), "data.subject"},

	// task.updated
	{"task ok", "task.updated", "", `{"task_id":"T-1","status":"in_progress","title":"Ship"}`, ""},
	{"task cancelled", "task.updated", "", `{"task_id":"T-1","status":"cancelled"}`, ""},
	{"task without id", "task.updated", "", `{"status":"open"}`, "data.task_id"},
	{"task id not string", "task.updated", "", `{"task_id":1,"status":"open"}`, "data.task_id"},
	{"task without status", "task.updated", "", `{"task_id":"T-1"}`, "data.status"},
	{"task bad status", "task.updated", "", `{"task_id":"T-1","status":"finished"}`, "data.status"},
	{"task title not string", "task.updated", "", `{"task_id":"T-1","status":"open","title":{}}`, "data.title"},

	// preference.stated
	{"preference ok", "preference.stated", "", `{"holder":"Ann","topic":"editor","preference":"vim"}`, ""},
	{"preference without holder", "preference.stated", "", `{"topic":"editor","preference":"vim"}`, ""},
	{"preference holder not string", "preference.stated", "", `{"holder":true,"topic":"editor","preference":"vim"}`, "data.holder"},
	{"preference without topic", "preference.stated", "", `{"preference":"vim"}`, "data.topic"},
	{"preference without preference", "preference.stated", "", `{"topic":"editor"}`, "data.preference"},

	// tool_call.completed
	{"tool failure with error", "tool_call.completed", "", `{"tool":"go test","arguments":"./...","outcome":"failure","error":"exit 1","duration_ms":1200}`, ""},
	{"tool success", "tool_call.completed", "", `{"tool":"go test","outcome":"success","duration_ms":0}`, ""},
	{"tool success empty error", "tool_call.completed", "", `{"tool":"x","outcome":"success","error":""}`, ""},
	{"tool without tool", "tool_call.completed", "", `{"outcome":"success"}`, "data.tool"},
	{"tool arguments at limit", "tool_call.completed", "", fmt.Sprintf(`{"tool":"x","outcome":"success","arguments":%q}`, long(4096)), ""},
	{"tool arguments too long", "tool_call.completed", "", fmt.Sprintf(`{"tool":"x","outcome":"success","arguments":%q}`, long(4097)), "data.arguments"},
	{"tool arguments not string", "tool_call.completed", "", `{"tool":"x","outcome":"success","arguments":{"a":1}}`, "data.arguments"},
	{"tool without outcome", "tool_call.completed", "", `{"tool":"x"}`, "data.outcome"},
	{"tool bad outcome", "tool_call.completed", "", `{"tool":"x","outcome":"maybe"}`, "data.outcome"},
	{"tool error on success", "tool_call.completed", "", `{"tool":"x","outcome":"success","error":"boom"}`, "data.error"},
	{"tool error not string", "tool_call.completed", "", `{"tool":"x","outcome":"failure","error":{"code":1}}`, "data.error"},
	{"tool negative duration", "tool_call.completed", "", `{"tool":"x","outcome":"success","duration_ms":-1}`, "data.duration_ms"},
	{"tool fractional duration", "tool_call.completed", "", `{"tool":"x","outcome":"success","duration_ms":1.5}`, "data.duration_ms"},

	// document.chunk
	{"chunk ok", "document.chunk", "héllo", `{"document_id":"d","path":"a.md","start":10,"end":16,"chunk_index":2,"document_sha256":"` + strings.Repeat("ab", 32) + `"}`, ""},
	{"chunk minimal", "document.chunk", "hello", `{"document_id":"d","start":0,"end":5}`, ""},
	{"chunk without document", "document.chunk", "hello", `{"start":0,"end":5}`, "data.document_id"},
	{"chunk document id too long", "document.chunk", "hello", fmt.Sprintf(`{"document_id":%q,"start":0,"end":5}`, long(1025)), "data.document_id"},
	{"chunk path not string", "document.chunk", "hello", `{"document_id":"d","path":5,"start":0,"end":5}`, "data.path"},
	{"chunk without start", "document.chunk", "hello", `{"document_id":"d","end":5}`, "data.start"},
	{"chunk negative start", "document.chunk", "hello", `{"document_id":"d","start":-1,"end":4}`, "data.start"},
	{"chunk without end", "document.chunk", "hello", `{"document_id":"d","start":0}`, "data.end"},
	{"chunk end equals start", "document.chunk", "hello", `{"document_id":"d","start":5,"end":5}`, "data.end"},
	{"chunk offsets past text", "document.chunk", "hello", `{"document_id":"d","start":0,"end":50}`, "data.end"},
	{"chunk offsets short of text", "document.chunk", "hello", `{"document_id":"d","start":0,"end":4}`, "data.end"},
	{"chunk counts characters not bytes", "document.chunk", "héllo", `{"document_id":"d","start":0,"end":5}`, "data.end"},
	{"chunk empty text", "document.chunk", "", `{"document_id":"d","start":0,"end":1}`, "data.end"},
	{"chunk invalid utf8", "document.chunk", "\xff\xfe", `{"document_id":"d","start":0,"end":2}`, "content"},
	{"chunk negative index", "document.chunk", "hello", `{"document_id":"d","start":0,"end":5,"chunk_index":-1}`, "data.chunk_index"},
	{"chunk bad sha256", "document.chunk", "hello", `{"document_id":"d","start":0,"end":5,"document_sha256":"ABC"}`, "data.document_sha256"},
	{"chunk uppercase sha256", "document.chunk", "hello", `{"document_id":"d","start":0,"end":5,"document_sha256":"` + strings.Repeat("AB", 32) + `"}`, "data.document_sha256"},

	// feedback.recorded
	// policy.*
	{"policy proposed ok", "policy.proposed", "", `{"version":"fit-0123456789ab","base":"builtin-1","policy":{"lane_weights":{"general":{"keyword":1.5}}},"source_seqs":[3,4]}`, ""},
	{"policy proposed builtin version", "policy.proposed", "", `{"version":"builtin-1","base":"builtin-1","policy":{"lane_weights":{"general":{}}}}`, "data.version"},
	{"policy proposed without general", "policy.proposed", "", `{"version":"fit-0123456789ab","base":"builtin-1","policy":{"lane_weights":{}}}`, "data.policy"},
	{"policy proposed negative weight", "policy.proposed", "", `{"version":"fit-0123456789ab","base":"builtin-1","policy":{"lane_weights":{"general":{"vector":-1}}}}`, "data.policy.lane_weights"},
	{"policy proposed bad source", "policy.proposed", "", `{"version":"fit-0123456789ab","base":"builtin-1","policy":{"lane_weights":{"general":{}}},"source_seqs":[0]}`, "data.source_seqs[0]"},
	{"policy promoted ok", "policy.promoted", "", `{"version":"fit-0123456789ab","previous":"builtin-1"}`, ""},
	{"policy promoted bad version", "policy.promoted", "", `{"version":"v2","previous":"builtin-1"}`, "data.version"},
	{"policy rolled back ok", "policy.rolled_back", "", `{"version":"fit-0123456789ab","restored":"builtin-1","reason":"recall dropped"}`, ""},
	{"policy rolled back without restored", "policy.rolled_back", "", `{"version":"fit-0123456789ab"}`, "data.restored"},
	{"policy promoted to builtin-2", "policy.promoted", "", `{"version":"builtin-2","previous":"builtin-1"}`, ""},
	{"policy promoted unknown builtin", "policy.promoted", "", `{"version":"builtin-11","previous":"builtin-10"}`, "data.version"},
	{"policy promoted padded builtin", "policy.promoted", "", `{"version":"fit-0123456789ab","previous":"builtin-02"}`, "data.previous"},
	{"policy promoted upper-case builtin", "policy.promoted", "", `{"version":"BUILTIN-1","previous":"builtin-2"}`, "data.version"},
	{"policy proposed as a builtin", "policy.proposed", "", `{"version":"builtin-2","base":"builtin-1","policy":{"lane_weights":{"general":{}}}}`, "data.version"},
	{"policy rolled back to unknown builtin", "policy.rolled_back", "", `{"version":"fit-0123456789ab","restored":"builtin-0"}`, "data.restored"},
	{"feedback ok", "feedback.recorded", "", `{"target_seqs":[4,5],"signal":"helpful","comment":"spot on","checkout_seq":9}`, ""},
	{"feedback minimal", "feedback.recorded", "", `{"target_seqs":[4],"signal":"outdated"}`, ""},
	{"feedback without targets", "feedback.recorded", "", `{"signal":"helpful"}`, "data.target_seqs"},
	{"feedback targets not array", "feedback.recorded", "", `{"target_seqs":4,"signal":"helpful"}`, "data.target_seqs"},
	{"feedback empty targets", "feedback.recorded", "", `{"target_seqs":[],"signal":"helpful"}`, "data.target_seqs"},
	{"feedback bad target", "feedback.recorded", "", `{"target_seqs":[4,-2],"signal":"helpful"}`, "data.target_seqs[1]"},
	{"feedback target not integer", "feedback.recorded", "", `{"target_seqs":["4"],"signal":"helpful"}`, "data.target_seqs[0]"},
	{"feedback without signal", "feedback.recorded", "", `{"target_seqs":[4]}`, "data.signal"},
	{"feedback bad signal", "feedback.recorded", "", `{"target_seqs":[4],"signal":"meh"}`, "data.signal"},
	{"feedback comment not string", "feedback.recorded", "", `{"target_seqs":[4],"signal":"wrong","comment":1}`, "data.comment"},
	{"feedback by item id", "feedback.recorded", "", `{"item_ids":["fact:f0a1","ev:3"],"signal":"helpful"}`, ""},
	{"feedback bad item id", "feedback.recorded", "", `{"item_ids":["ev:0"],"signal":"helpful"}`, "data.item_ids[0]"},
	{"feedback item id not string", "feedback.recorded", "", `{"item_ids":[3],"signal":"helpful"}`, "data.item_ids[0]"},
	{"pin by seq", "memory.pinned", "", `{"target_seqs":[7],"reason":"the deploy runbook"}`, ""},
	{"pin by item id", "memory.pinned", "", `{"item_ids":["fact:f12"]}`, ""},
	{"pin without targets", "memory.pinned", "", `{"reason":"x"}`, "data.target_seqs"},
	{"pin bad item id", "memory.pinned", "", `{"item_ids":["latent:3"]}`, "data.item_ids[0]"},
	{"unpin by seq", "memory.unpinned", "", `{"target_seqs":[7]}`, ""},
	{"unpin bad seq", "memory.unpinned", "", `{"target_seqs":[0]}`, "data.target_seqs[0]"},
	{"salience configured", "salience.configured", "", `{"half_life_days":14,"floor":0.05}`, ""},
	{"salience floor only", "salience.configured", "", `{"floor":0}`, ""},
	{"salience nothing", "salience.configured", "", `{"reason":"x"}`, "data.half_life_days"},
	{"salience half-life zero", "salience.configured", "", `{"half_life_days":0}`, "data.half_life_days"},
	{"salience half-life too long", "salience.configured", "", `{"half_life_days":4000}`, "data.half_life_days"},
	{"salience floor one", "salience.configured", "", `{"floor":1}`, "data.floor"},
	{"gate on", "gate.configured", "", `{"mode":"on","reason":"dedupe"}`, ""},
	{"gate no mode", "gate.configured", "", `{"reason":"x"}`, "data.mode"},
	{"gate bad mode", "gate.configured", "", `{"mode":"maybe"}`, "data.mode"},
	{"feedback bad checkout seq", "feedback.recorded", "", `{"target_seqs":[4],"signal":"wrong","checkout_seq":0}`, "data.checkout_seq"},
}

func TestValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range validateCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := vocab.Validate(tc.typ, tc.content, json.RawMessage(tc.data))
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			var fe *vocab.FieldError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, tc.field, fe.Field, fe.Message)
			require.NotEmpty(t, fe.Message)
			require.Equal(t, fe.Field+": "+fe.Message, err.Error())
		})
	}
}

// decodeAs decodes data into T, for checking that valid data always decodes.
func decodeAs[T any](data json.RawMessage) error {
	_, err := vocab.Decode[T](data)
	return err
}

var decoders = map[string]func(json.RawMessage) error{
	vocab.TypeMessage:                 decodeAs[vocab.Message],
	vocab.TypeFactAsserted:            decodeAs[vocab.FactAsserted],
	vocab.TypeFactRetracted:           decodeAs[vocab.FactRetracted],
	vocab.TypeMemoryInvalidated:       decodeAs[vocab.MemoryInvalidated],
	vocab.TypeDecisionRecorded:        decodeAs[vocab.DecisionRecorded],
	vocab.TypeTaskUpdated:             decodeAs[vocab.TaskUpdated],
	vocab.TypePreferenceStated:        decodeAs[vocab.PreferenceStated],
	vocab.TypeToolCallCompleted:       decodeAs[vocab.ToolCallCompleted],
	vocab.TypeDocumentChunk:           decodeAs[vocab.DocumentChunk],
	vocab.TypeFeedbackRecorded:        decodeAs[vocab.FeedbackRecorded],
	vocab.TypeRedactionConfigured:     decodeAs[vocab.RedactionConfigured],
	vocab.TypeProposalCreated:         decodeAs[vocab.ProposalCreated],
	vocab.TypeProposalAccepted:        decodeAs[vocab.ProposalDecided],
	vocab.TypeProposalRejected:        decodeAs[vocab.ProposalDecided],
	vocab.TypeProposalDeferred:        decodeAs[vocab.ProposalDecided],
	vocab.TypeMemoryPinned:            decodeAs[vocab.MemoryPinned],
	vocab.TypeMemoryUnpinned:          decodeAs[vocab.MemoryUnpinned],
	vocab.TypeSalienceConfigured:      decodeAs[vocab.SalienceConfigured],
	vocab.TypeMemoryConfidenceRevised: decodeAs[vocab.MemoryConfidenceRevised],
	vocab.TypeMemoryKnownUnknown:      decodeAs[vocab.MemoryKnownUnknown],
	vocab.TypeMemoryActionSurfaced:    decodeAs[vocab.MemoryActionSurfaced],
	vocab.TypeGateConfigured:          decodeAs[vocab.GateConfigured],
	vocab.TypeRetrospectiveConfigured: decodeAs[vocab.RetrospectiveConfigured],
	vocab.TypeSkillRecorded:           decodeAs[vocab.SkillRecorded],
	vocab.TypeOutcomeRecorded:         decodeAs[vocab.OutcomeRecorded],
	vocab.TypePolicyProposed:          decodeAs[vocab.PolicyProposed],
	vocab.TypePolicyPromoted:          decodeAs[vocab.PolicyPromoted],
	vocab.TypePolicyRolledBack:        decodeAs[vocab.PolicyRolledBack],
}

func TestKnown_CoversEveryDocumentedType(t *testing.T) {
	t.Parallel()
	for typ := range decoders {
		require.True(t, vocab.Known(typ), typ)
	}
	for _, typ := range []string{"fact.asserted.v2", "fact", "note", ""} {
		require.False(t, vocab.Known(typ), typ)
	}
}

func TestDecode_EveryValidCaseDecodes(t *testing.T) {
	t.Parallel()
	n := 0
	for _, tc := range validateCases {
		if tc.field != "" || !vocab.Known(tc.typ) {
			continue
		}
		require.NoError(t, decoders[tc.typ](json.RawMessage(tc.data)), tc.name)
		n++
	}
	require.Greater(t, n, 30)
}

func TestDecode(t *testing.T) {
	t.Parallel()
	f, err := vocab.Decode[vocab.FactAsserted](json.RawMessage(`{"subject":"Alice","predicate":"age","value":{"years":31},"valid_from":"2024-01-01T00:00:00Z","confidence":0.5}`))
	require.NoError(t, err)
	require.Equal(t, "Alice", f.Subject)
	require.JSONEq(t, `{"years":31}`, string(f.Value))
	require.Equal(t, 2024, f.ValidFrom.Year())
	require.Nil(t, f.ValidTo)
	require.Nil(t, f.Object)
	require.InDelta(t, 0.5, *f.Confidence, 1e-9)

	m, err := vocab.Decode[vocab.MemoryInvalidated](json.RawMessage(`{"target_seq":7,"reason":"typo"}`))
	require.NoError(t, err)
	require.Equal(t, int64(7), *m.TargetSeq)
	require.Empty(t, m.TargetID)

	empty, err := vocab.Decode[vocab.TaskUpdated](nil)
	require.NoError(t, err)
	require.Equal(t, vocab.TaskUpdated{}, empty)

	_, err = vocab.Decode[vocab.TaskUpdated](json.RawMessage(`{"task_id":1}`))
	require.ErrorContains(t, err, "decode vocab.TaskUpdated")
}

func TestValidate_RefusesADuplicateKeyInData(t *testing.T) {
	var fe *vocab.FieldError
	require.ErrorAs(t, vocab.Validate(vocab.TypeMessage, "hi", json.RawMessage(`{"role":"user","role":"assistant"}`)), &fe)
	require.Equal(t, "data.role", fe.Field, "the decoder would keep the last role silently")
	require.Contains(t, fe.Message, "duplicate key")

	dup := json.RawMessage(`{"name":"a","name":"b"}`)
	require.Equal(t, string(dup), string(vocab.Complete(vocab.TypeMessage, "user", dup)),
		"Complete leaves data it cannot read strictly to Validate")
}

func TestBuiltinPolicyVersions_EndWithTheDefaultAndRepeatNone(t *testing.T) {
	t.Parallel()
	vs := vocab.BuiltinPolicyVersions
	require.Equal(t, vocab.FirstBuiltinPolicyVersion, vs[0])
	require.Equal(t, vocab.DefaultBuiltinPolicyVersion, vs[len(vs)-1])
	require.Len(t, slices.Compact(slices.Clone(vs)), len(vs))
}
