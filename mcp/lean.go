package mcp

import (
	"maps"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// The lean profiles (core and compact) are listed in every agent turn, so their definitions
// are kept short: a tool's brief instead of its description, and briefDocs instead of the
// argument docs. The arguments, their types, enums and required sets are the same as full's:
// only the words are fewer. memory_capabilities gives the long descriptions on request, and
// TestDefinitions_LeanProfilesFitTheirTokenBudget holds core under maxCoreTokens.

// maxCoreTokens caps the core profile's definitions (tools/list's tools, as JSON) in o200k
// tokens.
const maxCoreTokens = 2000

// lean reports whether profile lists the lean definitions.
func lean(profile string) bool { return profile == ProfileCore || profile == ProfileCompact }

// briefs are the lean profiles' tool descriptions, by tool.
var briefs = map[string]string{
	"memory_checkout": "Call this first, before you plan or act: a small cited packet of what memory knows about " +
		"query, with warnings, within max_tokens.",
	"memory_append":             "Append one event to the append-only log; returns its seq and hash.",
	"memory_query":              "The raw ranked search behind checkout: items with per-lane scores, not packed.",
	"memory_feeling_of_knowing": "Cheap check, no retrieval: is memory likely to know about query? likely, possible or unlikely.",
	"context_assemble":          "Context for your next step in one budget: ranked memory and your working set; a recovery packet after a resume.",
	"memory_feedback":           "Say whether memories helped or misled you; salience learns from it.",
	"memory_invalidate":         "Mark a memory wrong (give target_seq or target_id); nothing is erased.",
	"memory_capabilities":       "Every tool with its arguments, the profiles and how to switch.",
	manageTool:                  "Run any tool not listed here: operation names it, arguments are its own (memory_capabilities lists them).",
}

// briefDocs are the lean profiles' argument docs, by name at any depth; an argument without
// an entry keeps its full doc, and one whose entry is empty is listed without a doc: its name,
// type, enum or format says it (the server's instructions say what a space is).
var briefDocs = map[string]string{
	"space":              "",
	"query":              "What you will do or want to know.",
	"purpose":            "",
	"max_tokens":         "200-32000, default 2000; never exceeded.",
	"tokenizer":          "",
	"session_id":         "",
	"disable_lanes":      "Lanes off (ablations).",
	"limit":              "1-200, default 50.",
	"no_record":          "Dry run.",
	"retrieval_profile":  "",
	"include_attenuated": "",
	"cues":               "{task, repo, tool, phase, ...}: matches rank higher.",
	"weave":              "Add learned artifacts.",
	"reasoning_phase":    "",
	"who_when":           "Open lines with day and speaker.",
	"as_of":              "",
	"working_set":        "What you hold now, verbatim.",
	"type": "message (data.role), note, fact.asserted (data.subject, predicate, object|value), " +
		"decision.recorded (data.decision), task.updated (data.task_id, status), tool_call.completed, ...",
	"actor":           "",
	"occurred_at":     "",
	"content":         "",
	"data":            "The type's fields.",
	"idempotency_key": "A retry appends nothing twice.",
	"target_seqs":     "Cited seqs judged.",
	"item_ids":        "Or items: ev:<seq>, fact:<id>.",
	"signal":          "",
	"comment":         "",
	"checkout_seq":    "The checkout's surfaced_seq.",
	"memory_action":   "A memory action judged.",
	"action":          "",
	"seq":             "",
	"target_seq":      "The wrong event.",
	"target_id":       "Or the wrong fact or entity.",
	"reason":          "",
	"operation":       "",
	"arguments":       "Its arguments but space.",
}

// leanOmit are the arguments a lean profile does not list for a tool because its operation
// ignores them (the checkout arguments of a raw query, a raw query's limit on a packet) or
// because they tune ranking rather than ask for memory (ppr_weight, which the core profile's
// token budget has no room for); a call that passes them is accepted as before.
var leanOmit = map[string][]string{
	"memory_query":     {"max_tokens", "no_record", "weave", "reasoning_phase", "who_when", "tokenizer", "ppr_weight"},
	"memory_checkout":  {"limit", "ppr_weight"},
	"context_assemble": {"limit", "ppr_weight"},
}

// describe is t's description as profile lists it.
func (t *tool) describe(profile string) string {
	if b, ok := briefs[t.name]; ok && lean(profile) {
		return b
	}
	return t.description
}

// leanSchema is a copy of s whose argument docs are briefDocs' where it has one; s is left
// as it is (calls are still checked against it).
func leanSchema(s *jsonschema.Schema, omit []string) *jsonschema.Schema {
	c := *s
	if s.Properties != nil {
		c.Properties = make(map[string]*jsonschema.Schema, len(s.Properties))
		c.PropertyOrder = nil
		for _, name := range properties(s) {
			if slices.Contains(omit, name) {
				continue
			}
			lp := leanSchema(s.Properties[name], nil)
			if d, ok := briefDocs[name]; ok {
				lp.Description = d
			}
			if name == "disable_lanes" && lp.Items != nil {
				lp.Items.Enum = nil // the lanes are an ablation's, named by the refusal of a bad one
			}
			c.Properties[name] = lp
			c.PropertyOrder = append(c.PropertyOrder, name)
		}
	}
	if s.Items != nil {
		c.Items = leanSchema(s.Items, nil)
	}
	if s.AdditionalProperties != nil {
		c.AdditionalProperties = leanSchema(s.AdditionalProperties, nil)
	}
	return &c
}

// listedSchemas are the input schemas profile lists, by tool: all's for full, lean copies for
// the lean profiles.
func listedSchemas(profile string, all map[string]*jsonschema.Schema) map[string]*jsonschema.Schema {
	if !lean(profile) {
		return all
	}
	out := maps.Clone(all)
	for name, s := range all {
		out[name] = leanSchema(s, leanOmit[name])
	}
	return out
}

// outputSchema is t's output schema: every result's structured content, the HTTP API's
// success body or its error body, is a JSON object (the text content renders it).
func outputSchema(*tool, string) *jsonschema.Schema { return &jsonschema.Schema{Type: "object"} }
