package vocab

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/memoryitem"
)

// Limits of document.chunk fields.
const (
	maxDocumentIDLen = 1024
	maxPathLen       = 4096
)

// validators holds the check of each documented type. Each reports the first problem it
// finds, in the order the fields are documented in docs/events.md.
var validators = map[string]func(o *object, content string) *FieldError{
	TypeMessage:             validateMessage,
	TypeFactAsserted:        validateFactAsserted,
	TypeFactRetracted:       validateFactRetracted,
	TypeMemoryInvalidated:   validateMemoryInvalidated,
	TypeDecisionRecorded:    validateDecisionRecorded,
	TypeTaskUpdated:         validateTaskUpdated,
	TypePreferenceStated:    validatePreferenceStated,
	TypeToolCallCompleted:   validateToolCallCompleted,
	TypeDocumentChunk:       validateDocumentChunk,
	TypeFeedbackRecorded:    validateFeedbackRecorded,
	TypeRedactionConfigured: validateRedactionConfigured,
	TypeProposalCreated:     validateProposalCreated,
	TypeProposalAccepted:    validateProposalDecided,
	TypeProposalRejected:    validateProposalDecided,
	TypeProposalDeferred:    validateProposalDecided,
	TypeMemoryPinned:        validatePinned,
	TypeMemoryUnpinned:      validatePinned,
	TypeSalienceConfigured:  validateSalienceConfigured,
	// The memory actions' own events (memoryaction.go).
	TypeMemoryConfidenceRevised: validateConfidenceRevised,
	TypeMemoryKnownUnknown:      validateKnownUnknown,
	TypeMemoryActionSurfaced:    validateMemoryActionSurfaced,
	TypeGateConfigured:          validateGateConfigured,
	TypeRetrospectiveConfigured: validateRetrospectiveConfigured,
	TypeSkillRecorded:           validateSkillRecorded,
	TypeOutcomeRecorded:         validateOutcomeRecorded,
	TypePolicyProposed:          validatePolicyProposed,
	TypePolicyPromoted:          validatePolicyPromoted,
	TypePolicyRolledBack:        validatePolicyRolledBack,
}

// first returns the first non-nil error.
func first(errs ...*FieldError) *FieldError {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func validateMessage(o *object, content string) *FieldError {
	if _, ok := o.raw("role"); !ok {
		return fieldErr("data.role", `is required: one of %s, as in "data": {"role": "user"} (an actor of user, assistant, system or tool sets it)`,
			strings.Join(MessageRoles, ", "))
	}
	_, e1 := o.enum("role", required, MessageRoles)
	_, e2 := o.str("name", optional, maxNameLen)
	if fe := first(e1, e2); fe != nil {
		return fe
	}
	if strings.TrimSpace(content) == "" {
		return fieldErr("content", "must hold the message's text")
	}
	return nil
}

func validateFactAsserted(o *object, _ string) *FieldError {
	_, e1 := o.str("subject", required, maxNameLen)
	_, e2 := o.str("predicate", required, maxNameLen)
	e3 := o.oneOf("object", "value", false)
	_, e4 := o.str("object", nonBlank, maxNameLen)
	if fe := first(e1, e2, e3, e4); fe != nil {
		return fe
	}
	from, fe := o.timestamp("valid_from")
	if fe != nil {
		return fe
	}
	to, fe := o.timestamp("valid_to")
	if fe != nil {
		return fe
	}
	if from != nil && to != nil && !to.After(*from) {
		return fieldErr(o.path("valid_to"), "must be after %s", o.path("valid_from"))
	}
	if fe := o.confidence(); fe != nil {
		return fe
	}
	_, _, fe = o.integer("proposal_seq", false, 1)
	return fe
}

// confidence checks an optional data.confidence between 0 and 1.
func (o *object) confidence() *FieldError { return o.confidenceField("confidence") }

// confidenceField checks an optional number between 0 and 1.
func (o *object) confidenceField(name string) *FieldError {
	if r, ok := o.raw(name); ok {
		var c float64
		if err := json.Unmarshal(r, &c); err != nil || c < 0 || c > 1 {
			return fieldErr(o.path(name), "must be a number between 0 and 1")
		}
	}
	return nil
}

// proposedEvent checks the event data field name of a proposal: required for kind want and
// valid as that event's data (validate), refused for other kinds.
func (o *object) proposedEvent(kind, name, want string, validate func(*object, string) *FieldError) *FieldError {
	ev, fe := o.nested(name)
	switch {
	case fe != nil:
		return fe
	case kind == want && ev == nil:
		return fieldErr(o.path(name), "is required for a %s: the data of the event it proposes", want)
	case kind != want && ev != nil:
		return fieldErr(o.path(name), "is only allowed for a %s", want)
	case ev != nil:
		return validate(ev, "")
	}
	return nil
}

// seqList checks a required, non-empty array of positive integers.
func (o *object) seqList(name string) *FieldError {
	r, ok := o.raw(name)
	if !ok {
		return fieldErr(o.path(name), "is required")
	}
	var seqs []json.RawMessage
	if err := json.Unmarshal(r, &seqs); err != nil {
		return fieldErr(o.path(name), "must be an array of positive integers")
	}
	if len(seqs) == 0 {
		return fieldErr(o.path(name), "must not be empty")
	}
	for i, s := range seqs {
		if _, fe := parseInt(fmt.Sprintf("%s[%d]", o.path(name), i), s, 1); fe != nil {
			return fe
		}
	}
	return nil
}

// nested returns the object field name as an object of its own, or nil when it is absent.
func (o *object) nested(name string) (*object, *FieldError) {
	r, ok := o.raw(name)
	if !ok {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r, &m); err != nil || m == nil {
		return nil, fieldErr(o.path(name), "must be a JSON object")
	}
	return &object{m: m, prefix: o.prefix + name + "."}, nil
}

func validateProposalCreated(o *object, content string) *FieldError {
	kind, fe := o.enum("kind", required, ProposalKinds)
	if fe != nil {
		return fe
	}
	if fe := first(o.seqList("evidence"), o.confidence()); fe != nil {
		return fe
	}
	fact, fe := o.nested("fact")
	if fe != nil {
		return fe
	}
	switch {
	case kind == ProposalBeliefUpdate && fact == nil:
		return fieldErr(o.path("fact"), "is required for a belief_update: the fact it proposes, shaped as fact.asserted data")
	case kind != ProposalBeliefUpdate && fact != nil:
		return fieldErr(o.path("fact"), "is only allowed for a belief_update")
	case fact != nil:
		if fe := validateFactAsserted(fact, content); fe != nil {
			return fe
		}
		if _, ok := fact.raw("proposal_seq"); ok {
			return fieldErr(fact.path("proposal_seq"), "is set when the proposal is accepted, not in the proposal")
		}
	}
	if fe := o.proposedEvent(kind, "feedback", ProposalFeedback, validateFeedbackRecorded); fe != nil {
		return fe
	}
	if fe := o.proposedEvent(kind, "revision", ProposalConfidenceRevision, validateConfidenceRevised); fe != nil {
		return fe
	}
	_, e1 := o.str("contradicts", nonBlank, maxNameLen)
	_, e2 := o.str("rationale", optional, 0)
	if fe := first(e1, e2); fe != nil {
		return fe
	}
	art, fe := o.nested("artifact")
	if fe != nil {
		return fe
	}
	if art != nil {
		_, e1 := art.str("key", required, maxNameLen)
		_, e2 := art.str("id", required, maxNameLen)
		if fe := first(e1, e2); fe != nil {
			return fe
		}
	}
	inf, fe := o.nested("inference")
	if fe != nil || inf == nil {
		return fe
	}
	_, _, e1 = inf.integer("seq", true, 1)
	_, e2 = inf.str("model", required, maxNameLen)
	_, _, e3 := inf.integer("ordinal", true, 1)
	return first(e1, e2, e3)
}

func validateProposalDecided(o *object, _ string) *FieldError {
	_, _, e1 := o.integer("proposal_seq", true, 1)
	_, e2 := o.str("reason", optional, 0)
	return first(e1, e2)
}

func validateFactRetracted(o *object, _ string) *FieldError {
	_, e1 := o.str("subject", required, maxNameLen)
	_, e2 := o.str("predicate", required, maxNameLen)
	e3 := o.oneOf("object", "value", true)
	_, e4 := o.str("object", nonBlank, maxNameLen)
	_, e5 := o.str("reason", optional, 0)
	return first(e1, e2, e3, e4, e5)
}

func validateMemoryInvalidated(o *object, _ string) *FieldError {
	e1 := o.oneOf("target_seq", "target_id", false)
	_, _, e2 := o.integer("target_seq", false, 1)
	_, e3 := o.str("target_id", nonBlank, maxNameLen)
	_, e4 := o.str("reason", required, 0)
	return first(e1, e2, e3, e4)
}

func validateDecisionRecorded(o *object, _ string) *FieldError {
	_, e1 := o.str("decision", required, 0)
	_, e2 := o.str("rationale", optional, 0)
	e3 := o.stringList("alternatives")
	_, e4 := o.str("subject", optional, maxNameLen)
	return first(e1, e2, e3, e4)
}

func validateTaskUpdated(o *object, _ string) *FieldError {
	_, e1 := o.str("task_id", required, maxNameLen)
	_, e2 := o.enum("status", required, TaskStatuses)
	_, e3 := o.str("title", optional, 0)
	return first(e1, e2, e3)
}

func validatePreferenceStated(o *object, _ string) *FieldError {
	_, e1 := o.str("holder", optional, maxNameLen)
	_, e2 := o.str("topic", required, maxNameLen)
	_, e3 := o.str("preference", required, 0)
	return first(e1, e2, e3)
}

func validateToolCallCompleted(o *object, _ string) *FieldError {
	_, e1 := o.str("tool", required, maxNameLen)
	_, e2 := o.str("arguments", optional, maxArgumentsLen)
	outcome, e3 := o.enum("outcome", required, ToolOutcomes)
	errText, e4 := o.str("error", optional, 0)
	if fe := first(e1, e2, e3, e4); fe != nil {
		return fe
	}
	if outcome == "success" && errText != "" {
		return fieldErr("data.error", "is only allowed when data.outcome is failure")
	}
	_, _, fe := o.integer("duration_ms", false, 0)
	return fe
}

func validateDocumentChunk(o *object, content string) *FieldError {
	_, e1 := o.str("document_id", required, maxDocumentIDLen)
	_, e2 := o.str("path", optional, maxPathLen)
	start, _, e3 := o.integer("start", true, 0)
	if fe := first(e1, e2, e3); fe != nil {
		return fe
	}
	end, _, fe := o.integer("end", true, 0)
	if fe != nil {
		return fe
	}
	if end <= start {
		return fieldErr("data.end", "must be greater than data.start")
	}
	if n := int64(len(content)); end-start != n {
		return fieldErr("data.end", "the range %d..%d is %d bytes but the chunk text in content is %d bytes", start, end, end-start, n)
	}
	if !utf8.ValidString(content) {
		return fieldErr("content", "must be valid UTF-8")
	}
	if _, _, fe := o.integer("chunk_index", false, 0); fe != nil {
		return fe
	}
	sum, fe := o.str("document_sha256", optional, 0)
	if fe != nil {
		return fe
	}
	if sum != "" && !isSHA256Hex(sum) {
		return fieldErr("data.document_sha256", "must be 64 lowercase hex digits")
	}
	return nil
}

// isSHA256Hex reports whether s is a SHA-256 digest in lowercase hex.
func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func validateFeedbackRecorded(o *object, _ string) *FieldError {
	if fe := o.targets(); fe != nil {
		return fe
	}
	_, e1 := o.enum("signal", required, FeedbackSignal)
	_, e2 := o.str("comment", optional, 0)
	_, _, e3 := o.integer("checkout_seq", false, 1)
	return first(e1, e2, e3, o.memoryActionRef())
}

func validatePinned(o *object, _ string) *FieldError {
	if fe := o.targets(); fe != nil {
		return fe
	}
	_, fe := o.str("reason", optional, 0)
	return fe
}

func validateSalienceConfigured(o *object, _ string) *FieldError {
	_, hasHalfLife := o.raw("half_life_days")
	_, hasFloor := o.raw("floor")
	if !hasHalfLife && !hasFloor {
		return fieldErr("data.half_life_days", "is required (or give data.floor)")
	}
	if r, ok := o.raw("half_life_days"); ok {
		var d float64
		if err := json.Unmarshal(r, &d); err != nil || d <= 0 || d > MaxHalfLifeDays {
			return fieldErr("data.half_life_days", "must be a number of days above 0 and at most %d", MaxHalfLifeDays)
		}
	}
	if r, ok := o.raw("floor"); ok {
		var f float64
		if err := json.Unmarshal(r, &f); err != nil || f < 0 || f >= 1 {
			return fieldErr("data.floor", "must be a number from 0 up to (not including) 1")
		}
	}
	_, fe := o.str("reason", optional, 0)
	return fe
}

// targets checks the memory items an event names: data.target_seqs (positive integers) and
// data.item_ids ("ev:<seq>" or "fact:<id>"), at least one of them non-empty.
func (o *object) targets() *FieldError {
	n := 0
	if r, ok := o.raw("target_seqs"); ok {
		var seqs []json.RawMessage
		if err := json.Unmarshal(r, &seqs); err != nil {
			return fieldErr("data.target_seqs", "must be an array of positive integers")
		}
		for i, s := range seqs {
			if _, fe := parseInt(fmt.Sprintf("data.target_seqs[%d]", i), s, 1); fe != nil {
				return fe
			}
		}
		n += len(seqs)
	}
	if r, ok := o.raw("item_ids"); ok {
		var ids []json.RawMessage
		if err := json.Unmarshal(r, &ids); err != nil {
			return fieldErr("data.item_ids", `must be an array of item ids ("ev:<seq>" or "fact:<id>")`)
		}
		for i, raw := range ids {
			var id string
			if err := json.Unmarshal(raw, &id); err != nil || !validItemID(id) {
				return fieldErr(fmt.Sprintf("data.item_ids[%d]", i), `must be an item id, "ev:<seq>" or "fact:<id>"`)
			}
		}
		n += len(ids)
	}
	if n == 0 {
		return fieldErr("data.target_seqs", "must not be empty (or give data.item_ids)")
	}
	return nil
}

// validItemID reports whether id is a memory item id: "ev:" and a positive seq, or "fact:"
// and a fact id of at most maxNameLen characters.
func validItemID(id string) bool {
	if strings.HasPrefix(id, "ev:") {
		_, ok := memoryitem.ParseEventID(id)
		return ok
	}
	if rest, ok := strings.CutPrefix(id, "fact:"); ok {
		return rest != "" && len(rest) <= maxNameLen && strings.TrimSpace(rest) == rest
	}
	return false
}

func validateGateConfigured(o *object, _ string) *FieldError {
	_, e1 := o.enum("mode", required, GateModes)
	_, e2 := o.str("reason", optional, 0)
	return first(e1, e2)
}

func validateSkillRecorded(o *object, _ string) *FieldError {
	_, _, e1 := o.integer("proposal_seq", true, 1)
	_, e2 := o.enum("kind", required, SkillKinds)
	return first(e1, e2)
}

func validateRetrospectiveConfigured(o *object, _ string) *FieldError {
	_, e1 := o.enum("mode", required, RetrospectiveModes)
	_, e2 := o.str("reason", optional, 0)
	return first(e1, e2, o.confidenceField("min_confidence"))
}

func validateRedactionConfigured(o *object, _ string) *FieldError {
	_, e1 := o.enum("mode", required, RedactionModes)
	_, e2 := o.str("reason", optional, 0)
	return first(e1, e2)
}

func validateOutcomeRecorded(o *object, _ string) *FieldError {
	if _, ok := o.raw("session_id"); !ok {
		return fieldErr("data.session_id", "is required: the session whose outcome this is, as in \"data\": {\"session_id\": \"run-42\"}")
	}
	_, e1 := o.str("session_id", required, maxNameLen)
	_, e2 := o.enum("status", optional, OutcomeStatuses)
	_, e3 := o.str("summary", required, 0)
	if fe := first(e1, e2, e3); fe != nil {
		return fe
	}
	if _, ok := o.raw("evidence"); ok {
		if fe := o.seqList("evidence"); fe != nil {
			return fe
		}
	}
	_, e4 := o.str("task_id", nonBlank, maxNameLen)
	_, e5 := o.str("weave_id", nonBlank, maxNameLen)
	return first(e4, e5)
}

// fittedVersion matches a fitted policy's version.
var fittedVersion = regexp.MustCompile(`^fit-[0-9a-f]{12}$`)

// policyVersion checks a policy version field: a fitted version, or a built-in one when
// builtin is allowed.
func (o *object) policyVersion(name string, builtin bool) *FieldError {
	v, fe := o.str(name, required, 0)
	if fe != nil {
		return fe
	}
	if fittedVersion.MatchString(v) || (builtin && slices.Contains(BuiltinPolicyVersions, v)) {
		return nil
	}
	if builtin {
		return fieldErr("data."+name, "must be %s or fit-<12 hex digits>, got %q", strings.Join(BuiltinPolicyVersions, ", "), v)
	}
	return fieldErr("data."+name, "must be fit-<12 hex digits>, got %q", v)
}

func validatePolicyProposed(o *object, _ string) *FieldError {
	if fe := first(o.policyVersion("version", false), o.policyVersion("base", true)); fe != nil {
		return fe
	}
	r, ok := o.raw("policy")
	if !ok {
		return fieldErr("data.policy", "is required: the policy's lane_weights and boosts")
	}
	var pol struct {
		LaneWeights map[string]map[string]float64 `json:"lane_weights"`
	}
	if err := json.Unmarshal(r, &pol); err != nil || pol.LaneWeights["general"] == nil {
		return fieldErr("data.policy", "must be an object with lane_weights for general")
	}
	for _, ws := range pol.LaneWeights {
		for lane, w := range ws {
			if w < 0 || w > 100 {
				return fieldErr("data.policy.lane_weights", "lane %s: weight must be between 0 and 100", lane)
			}
		}
	}
	if r, ok := o.raw("source_seqs"); ok {
		var seqs []int64
		if err := json.Unmarshal(r, &seqs); err != nil {
			return fieldErr("data.source_seqs", "must be an array of positive integers")
		}
		for i, s := range seqs {
			if s <= 0 {
				return fieldErr(fmt.Sprintf("data.source_seqs[%d]", i), "must be a positive integer")
			}
		}
	}
	return nil
}

func validatePolicyPromoted(o *object, _ string) *FieldError {
	return first(o.policyVersion("version", true), o.policyVersion("previous", true))
}

func validatePolicyRolledBack(o *object, _ string) *FieldError {
	_, fe := o.str("reason", optional, 0)
	return first(o.policyVersion("version", true), o.policyVersion("restored", true), fe)
}
