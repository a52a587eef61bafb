package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/tokenize"
	"github.com/zaxy/zaxy/vocab"
)

// typeSchemas fix what inference gets wrong for our types: a time is an RFC 3339 string (not
// any string), and a json.RawMessage (an event's data and cues) is a JSON object, not the
// array of bytes its Go type suggests.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[time.Time]():       {Type: "string", Format: "date-time"},
	reflect.TypeFor[json.RawMessage](): {Type: "object"},
}

// argDocs describe arguments by name, at any depth; a tool's own docs take precedence.
var argDocs = map[string]string{
	// The memory actions' arguments (tools memory_simulate_forward ... memory_score_action).
	"memory_action": "The memory action judged: its name and the event it appended.",
	"action":        "The memory action's name, e.g. retrieve_failure_prior.",
	"goal":          "What you are about to do or what the step is for, in plain words (at most 4000 characters).",
	"tools":         "The planned tool sequence, in order (tool names as in tool_call.completed).",
	"steps":         "The plan's tools in order, 1-32.",
	"tool":          "A tool name, as in tool_call.completed.",
	"kind":          "belief_update (give fact) or consolidation.",
	"evidence":      "The seqs of the events this rests on.",
	"fact":          "The fact a belief_update proposes, shaped as fact.asserted data.",
	"subject":       "The fact's subject entity.",
	"predicate":     "The fact's relation.",
	"object":        "The entity it relates to (or give value).",
	"value":         "A JSON value instead of an object.",
	"valid_from":    "When it starts to hold (RFC 3339).",
	"valid_to":      "When it stops holding (RFC 3339).",
	"proposal_seq":  "Set by the server when a proposal is accepted; leave out.",
	"artifact_id":   "A learned artifact's id, as a prior, simulation or reflection returned it.",
	"confidence":    "A number between 0 and 1.",
	"rationale":     "Why, in a few words.",
	"question":      "What memory does not know (1-4000 characters).",
	"context":       "Where the question came up.",
	"action_seq":    "The seq of the event the judged action appended (its receipt's seq).",
	"seq":           "An event's seq (for a judged memory action, the event it appended).",
	"cited_seqs":    "Seqs of events a reading action's answer cited that your judgement is about.",
	"space": "The memory space (a user, project or workspace): 1-64 characters of [a-z0-9._-] starting with a " +
		"letter or digit. A space exists from its first append.",
	"query":         "What you are about to do or want to know, in plain words (at most 4000 characters).",
	"purpose":       "What the memory is for; it weighs the lanes and kinds of memory. Omit it to infer it from the query.",
	"max_tokens":    "The token budget, 200-32000 (default 2000); the answer never exceeds it and reports what it left out.",
	"as_of":         "Ask about another time (RFC 3339, e.g. 2024-05-01T12:00:00Z): facts valid then and events that had occurred by then. Default now.",
	"session_id":    "Your session (one agent run or conversation); its recent events form the session tier.",
	"disable_lanes": "Retrieval lanes to switch off, for ablations.",
	"limit":         "Caps the ranked results of a raw query, 1-200 (default 50); checkout packs by max_tokens instead.",
	"no_record":     "Do not record what this call surfaced (the checkout.surfaced event); for dry runs.",
	"retrieval_profile": "salience (the default): relevance times salience, memory unused for long or judged unhelpful " +
		"left out; plain: relevance alone, salience not applied.",
	"include_attenuated": "Also return memories whose salience fell below the floor (labelled attenuated), ranked by " +
		"relevance alone: forgetting is ranking, never erasure.",
	"working_set": "What you hold right now (open files, the task at hand, notes), included verbatim ahead of ranked memory; at most 50 entries and half of max_tokens.",
	"events":      "The finished turn's events (messages, tool calls, decisions, ...), appended all or nothing.",
	"tail_events": "How many of the session's last events the bundle replays, 1-200 (default 20).",
	"outcome":     "How the subagent ended.",
	"summary":     "The subagent's own account of what it did, kept in the cleanup event.",
	"subagent_id": "The subagent's id, 1-128 characters.",
	"type":        "The event type, dotted lowercase: message, note, fact.asserted, fact.retracted, decision.recorded, task.updated, preference.stated, tool_call.completed, ... Typed events need their data fields (message: {\"role\":\"user\"}, or an actor of user, assistant, system or tool; fact.asserted: {\"subject\",\"predicate\",\"object\" or \"value\"}; decision.recorded: {\"decision\"}; task.updated: {\"task_id\",\"status\"}).",
	"content":     "The event's text.",
	"actor":       "Who or what produced it (user, assistant, a tool or agent name).",
	"occurred_at": "When it happened (RFC 3339); default now.",
	"data":        "The event's structured fields, a JSON object; typed events require theirs.",
	"cues": "Retrieval cues, a JSON object: task, repo, tool, phase or free keys. An event records them; " +
		"on a checkout or query, items whose events carry the same values rank higher and phase and tool steer " +
		"the inferred purpose (there: at most 16 keys of a-z, 0-9 and _, string values of 1-200 characters).",
	"idempotency_key": "Makes a retry append nothing twice: the same key with the same arguments returns the original receipts (1-255 printable ASCII characters).",
	"after_seq":       "Only events after this seq (a page's next_after_seq).",
	"until_seq":       "The last seq to include.",
	"recorded_before": "Only events recorded at or before this time (RFC 3339).",
	"method":          "go recomputes the chain in the server, sql in Postgres (zaxy_verify).",
	"documents":       "The documents, ingested in order in one transaction.",
	"path":            "Where the document came from (a file path or URL); required unless document_id is set.",
	"document_id":     "Identifies the document across versions; default its path.",
	"text":            "The document's full text.",
	"format":          "markdown or text; default from the path's extension.",
	"turns":           "The conversation turns, appended in order as message events.",
	"role":            "Who spoke.",
	"name":            "The speaker's name.",
	"entity":          "Only facts with this entity (id or name) as subject or object.",
	"at":              "The versions valid at this time (RFC 3339); give at most one of at and as_of_seq.",
	"as_of_seq":       "What memory said right after this seq.",
	"include_inferred": "Also return the optional LLM extractor's statements, labelled inferred and never " +
		"authoritative.",
	"columns":      "How many values each row returns.",
	"timeout_ms":   "The statement timeout in milliseconds, 1-30000 (default 5000).",
	"before_seq":   "Only entries before this seq (to page back).",
	"id":           "The item: ev:<seq>, fact:<id>, an entity id, session:<id>, type:<event type> or predicate:<name>.",
	"target_seqs":  "The seqs of the events judged (the citations memory gave you); give these or item_ids.",
	"item_ids":     "The items judged by id (ev:<seq> or fact:<id>, as checkout returns them); give these or target_seqs.",
	"signal":       "Your judgement of them.",
	"comment":      "Why, in a few words.",
	"checkout_seq": "The surfaced_seq of the checkout that gave you these events.",
	"target_seq":   "The seq of the earlier event that is wrong (give this or target_id).",
	"target_id":    "The id of the fact or entity that is wrong, as the facts and entity tools return it (give this or target_seq).",
	"reason":       "Why it is wrong.",
	"weave": "Add a memory weave to the packet: latent artifacts bearing on this step with the events they derive " +
		"from (verified), inferred context labelled suggestive; off by default.",
	"who_when": "Open each event's line with the day it happened (UTC) and, for a message, who said it " +
		"(\"2023-05-08 Caroline: \"), so you can tell who said what and when; off by default (a few tokens a line).",
	"operation": "The tool to run (one the compact profile does not list).",
	"arguments": "That tool's arguments as a JSON object, space excepted (memory_capabilities lists them).",
	"tokenizer": "What max_tokens counts in: o200k_base (GPT-4o and later), cl100k_base (GPT-4) or chars4 " +
		"(characters/4); default the server's (ZAXY_TOKENIZER).",
	"ppr_weight": "The personalized PageRank lane's fusion weight for this request, 0-5 (0 switches it off); " +
		"default the retrieval policy's, else off.",
	"reasoning_phase": "The reasoning step a weave serves: orient, plan, act or reflect (default the purpose's); giving it turns the weave on.",
}

// argEnums are the values an argument may take, by name.
var argEnums = map[string][]string{
	"purpose":           checkout.Purposes,
	"retrieval_profile": checkout.Profiles,
	"reasoning_phase":   checkout.Phases,
	"signal":            vocab.FeedbackSignal,
	"outcome":           {"success", "failure", "cancelled"},
	"method":            {"go", "sql"},
	"role":              vocab.MessageRoles,
	"tokenizer":         tokenize.Names,
	"format":            {"markdown", "text"},
}

// itemEnums are the values the items of an array argument may take, by name.
var itemEnums = map[string][]string{"disable_lanes": checkout.Lanes}

// inputSchema infers t's input schema from its Go type and makes it fit for a model to read:
// every argument described, closed sets as enums, "null" dropped from types (an absent
// argument says the same), the event items of after-turn spelled out, and required set to
// the arguments the operation cannot do without.
func inputSchema(t *tool) (*jsonschema.Schema, error) {
	s, err := jsonschema.ForType(t.input, &jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		return nil, fmt.Errorf("tool %s: infer input schema: %w", t.name, err)
	}
	if ev, ok := s.Properties["events"]; ok && t.eventType == "" {
		if ev.Items, err = jsonschema.For[eventloom.NewEvent](&jsonschema.ForOptions{TypeSchemas: typeSchemas}); err != nil {
			return nil, fmt.Errorf("tool %s: infer event schema: %w", t.name, err)
		}
		ev.Items.Required = []string{"type"}
	}
	tidy(s, t.docs)
	for _, name := range t.required {
		if _, ok := s.Properties[name]; !ok {
			return nil, fmt.Errorf("tool %s: required argument %s is not a property", t.name, name)
		}
	}
	s.Required = t.required
	return s, nil
}

// tidy describes s's properties, recursively, and sets their enums; docs override argDocs at
// the top level.
func tidy(s *jsonschema.Schema, docs map[string]string) {
	collapseNull(s)
	for name, p := range s.Properties {
		collapseNull(p)
		if d, ok := docs[name]; ok {
			p.Description = d
		} else if p.Description == "" {
			p.Description = argDocs[name]
		}
		if name == "as_of" && p.Type == "string" {
			p.Format = "date-time" // api.CheckoutBody parses it itself, to name a bad one
		}
		if vals, ok := argEnums[name]; ok && p.Type == "string" {
			p.Enum = enum(vals)
		}
		if p.Type == "object" && len(p.Properties) > 0 {
			tidy(p, nil) // a nested struct (feedback's memory_action, a proposal's fact)
		}
		if p.Items != nil {
			collapseNull(p.Items)
			if vals, ok := itemEnums[name]; ok {
				p.Items.Enum = enum(vals)
			}
			if p.Items.Type == "object" {
				tidy(p.Items, nil)
				if name == "turns" {
					p.Items.Required = []string{"role", "content"}
				}
				if name == "documents" {
					p.Items.Required = []string{"text"}
				}
			}
		}
	}
}

// collapseNull turns the type ["null", X] inference gives pointers and slices into X.
func collapseNull(s *jsonschema.Schema) {
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		s.Type = s.Types[0]
		if s.Type == "null" {
			s.Type = s.Types[1]
		}
		s.Types = nil
	}
}

func enum(vals []string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// properties lists the top-level argument names of a schema in the order of the Go type's
// fields (space first).
func properties(s *jsonschema.Schema) []string {
	names := slices.Clone(s.PropertyOrder)
	for name := range s.Properties {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// knownArgs is the message for an unknown argument: the known ones.
func knownArgs(s *jsonschema.Schema) string {
	return "is not an argument of this tool (its arguments: " + strings.Join(properties(s), ", ") + ")"
}
