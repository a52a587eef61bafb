// Package vocab is Zaxy's event vocabulary: the documented data shapes of the event types the
// projector understands (docs/events.md), their validation at append time and their decoding.
// Unknown types are always valid: they are stored and replayed, and extraction passes over
// them. It never touches the database and must not import eventloom.
package vocab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zaxy/zaxy/internal/strictjson"
)

// Event types with a documented shape.
const (
	TypeMessage           = "message"
	TypeFactAsserted      = "fact.asserted"
	TypeFactRetracted     = "fact.retracted"
	TypeMemoryInvalidated = "memory.invalidated"
	TypeDecisionRecorded  = "decision.recorded"
	TypeTaskUpdated       = "task.updated"
	TypePreferenceStated  = "preference.stated"
	TypeToolCallCompleted = "tool_call.completed"
	TypeDocumentChunk     = "document.chunk"
	TypeFeedbackRecorded  = "feedback.recorded"
	// TypeRedactionConfigured switches a space's redaction on or off (only with admin rights).
	TypeRedactionConfigured = "redaction.configured"
	// TypeProposalCreated proposes a change to memory for review (docs/projections.md,
	// "Proposals and review").
	TypeProposalCreated = "proposal.created"
	// TypeProposalAccepted, TypeProposalRejected and TypeProposalDeferred decide a proposal.
	TypeProposalAccepted = "proposal.accepted"
	TypeProposalRejected = "proposal.rejected"
	TypeProposalDeferred = "proposal.deferred"
	// TypeMemoryPinned pins memory items: they never fall below the salience floor.
	TypeMemoryPinned = "memory.pinned"
	// TypeMemoryUnpinned lifts earlier pins.
	TypeMemoryUnpinned = "memory.unpinned"
	// TypeSalienceConfigured sets a space's salience half-life and floor (docs/checkout.md).
	TypeSalienceConfigured = "salience.configured"
	// TypeGateConfigured switches a space's write-time encoding gate on or off
	// (docs/projections.md, "Encoding gate").
	TypeGateConfigured = "gate.configured"
	// TypeRetrospectiveConfigured sets whether the retrospective pass's feedback and
	// confidence revisions are proposed for review (the default) or applied at once above a
	// stated confidence (docs/latent.md, "Review of the pass's judgements").
	TypeRetrospectiveConfigured = "retrospective.configured"
	// TypeSkillRecorded is a reviewed skill entry: what accepting a skill, failure_prior or
	// procedure_revision proposal appends (docs/latent.md, "Reviewed skills").
	TypeSkillRecorded = "skill.recorded"
	// TypeOutcomeRecorded records how a session's work ended; the retrospective_credit job
	// assigns credit and blame for it (docs/latent.md, Retrospective credit).
	TypeOutcomeRecorded = "outcome.recorded"
	// TypePolicyProposed proposes a retrieval policy fitted offline from the space's log
	// (docs/checkout.md, "Retrieval policy"); only with admin rights.
	TypePolicyProposed = "policy.proposed"
	// TypePolicyPromoted makes a proposed (or the built-in) policy the space's current one,
	// after the regression gate passed; only with admin rights.
	TypePolicyPromoted = "policy.promoted"
	// TypePolicyRolledBack restores the policy that was current before the last promotion;
	// only with admin rights.
	TypePolicyRolledBack = "policy.rolled_back"
	// TypeCheckoutSurfaced is the record a checkout appends of what its packet surfaced
	// (docs/checkout.md): bookkeeping, the weak reinforcement of the items it lists.
	TypeCheckoutSurfaced = "checkout.surfaced"
)

// Privileged reports whether events of type typ may only be appended with admin rights: the
// space's redaction switch and its retrieval policy's lifecycle (a policy.promoted appended
// through the plain append API would skip the regression gate).
func Privileged(typ string) bool {
	switch typ {
	case TypeRedactionConfigured, TypePolicyProposed, TypePolicyPromoted, TypePolicyRolledBack:
		return true
	}
	return false
}

// FirstBuiltinPolicyVersion is the first built-in retrieval policy, and the version of a
// checkout.surfaced event that names no policy.
const FirstBuiltinPolicyVersion = "builtin-1"

// DefaultBuiltinPolicyVersion is the built-in policy a space ranks with until a promotion: the
// newest, the last of BuiltinPolicyVersions.
const DefaultBuiltinPolicyVersion = "builtin-10"

// BuiltinPolicyVersions are the built-in retrieval policies' versions, oldest first: the one
// list of them. Package checkout defines a policy for each and for no other
// (TestBuiltinPolicies_AreVersionedAndAgreeWithTheVocabulary); a new built-in version is appended here, becomes
// DefaultBuiltinPolicyVersion, and is defined in checkout/policy.go.
var BuiltinPolicyVersions = []string{FirstBuiltinPolicyVersion, "builtin-2", "builtin-3", "builtin-4", "builtin-5", "builtin-6", "builtin-7", "builtin-8", "builtin-9", DefaultBuiltinPolicyVersion}

// ReplacedBuiltin is the version a space's first policy.promoted event replaces: the built-in
// policy the event names as its previous one (the default of the binary that appended it),
// else DefaultBuiltinPolicyVersion.
func ReplacedBuiltin(previous string) string {
	if slices.Contains(BuiltinPolicyVersions, previous) {
		return previous
	}
	return DefaultBuiltinPolicyVersion
}

// Allowed values of enumerated fields.
var (
	MessageRoles   = []string{"user", "assistant", "system", "tool"}
	TaskStatuses   = []string{"open", "in_progress", "blocked", "done", "cancelled"}
	ToolOutcomes   = []string{"success", "failure"}
	FeedbackSignal = []string{"helpful", "unhelpful", "wrong", "outdated"}
	RedactionModes = []string{RedactionOn, RedactionOff}
	GateModes      = []string{GateOn, GateOff}
	ProposalKinds  = []string{ProposalBeliefUpdate, ProposalSkill, ProposalConsolidation,
		ProposalProcedureRevision, ProposalFailurePrior, ProposalKnownUnknown, ProposalFeedback, ProposalConfidenceRevision}
	RetrospectiveModes = []string{RetrospectiveReview, RetrospectiveApply}
	SkillKinds         = []string{ProposalSkill, ProposalFailurePrior, ProposalProcedureRevision}
	OutcomeStatuses    = []string{OutcomeSuccess, OutcomePartial, OutcomeFailure, OutcomeUnknown}
)

// Statuses of an outcome (outcome.recorded data.status).
const (
	OutcomeSuccess = "success"
	OutcomePartial = "partial"
	OutcomeFailure = "failure"
	OutcomeUnknown = "unknown"
)

// Kinds of proposal (proposal.created data.kind).
const (
	// ProposalBeliefUpdate proposes a fact (data.fact); accepting it asserts the fact.
	ProposalBeliefUpdate = "belief_update"
	// ProposalSkill proposes a reusable procedure (the latent build's, of a mined procedure or
	// failure pattern); accepting it appends a skill.recorded entry.
	ProposalSkill = "skill"
	// ProposalConsolidation proposes merging or summarizing memories; accepting it records
	// the decision only.
	ProposalConsolidation = "consolidation"
	// ProposalProcedureRevision proposes revising how a task is done (a plan that failed);
	// accepting it appends a skill.recorded entry.
	ProposalProcedureRevision = "procedure_revision"
	// ProposalFailurePrior proposes remembering a failure and its circumstances as a prior for
	// later attempts; accepting it appends a skill.recorded entry.
	ProposalFailurePrior = "failure_prior"
	// ProposalKnownUnknown records that an outcome's cause could not be told from its trace
	// (uncertainty, not a cause); accepting it records the decision only.
	ProposalKnownUnknown = "known_unknown"
	// ProposalFeedback proposes a feedback.recorded (data.feedback, its data); accepting it
	// appends that feedback.
	ProposalFeedback = "feedback"
	// ProposalConfidenceRevision proposes a memory.confidence_revised (data.revision, its
	// data); accepting it appends that revision.
	ProposalConfidenceRevision = "confidence_revision"
)

// Modes of the retrospective pass (retrospective.configured data.mode).
const (
	// RetrospectiveReview proposes every judgement for review (the default).
	RetrospectiveReview = "review"
	// RetrospectiveApply applies a judgement at once when its confidence is at least
	// data.min_confidence, and proposes the others.
	RetrospectiveApply = "apply"
)

// Redaction modes of a space (redaction.configured data.mode).
const (
	RedactionOn  = "on"
	RedactionOff = "off"
)

// Modes of a space's encoding gate (gate.configured data.mode).
const (
	GateOn  = "on"
	GateOff = "off"
)

// Bounds of salience.configured.
const (
	// MaxHalfLifeDays is the longest half-life a space may configure (ten years).
	MaxHalfLifeDays = 3650
)

// maxNameLen caps subjects, predicates, topics and similar names.
const maxNameLen = 512

// maxArgumentsLen caps a tool call's summarized arguments.
const maxArgumentsLen = 4096

// FieldError names the field (relative to the event, e.g. "data.subject" or "content") and
// what is wrong with it.
type FieldError struct {
	Field   string
	Message string
}

// Error returns "field: message".
func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

func fieldErr(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Known reports whether typ is one of the documented types.
func Known(typ string) bool {
	_, ok := validators[typ]
	return ok
}

// Validate checks content and data against the documented shape of typ. It returns a
// *FieldError, or nil when the event is valid or its type is not a documented one. Extra
// keys in data are allowed.
func Validate(typ, content string, data json.RawMessage) error {
	v, ok := validators[typ]
	if !ok {
		return nil
	}
	obj, err := dataFields(data)
	var se *strictjson.Error
	switch {
	case errors.As(err, &se) && se.Path != "":
		return fieldErr("data."+se.Path, "%s", se.Message)
	case err != nil:
		return fieldErr("data", "must be a JSON object")
	}
	if fe := checkKeyCase(shapes[typ], obj, ""); fe != nil {
		return fe
	}
	if fe := v(&object{m: obj}, content); fe != nil {
		return fe
	}
	return nil
}

// Decode parses data into T, the struct of its type. Call it on validated data.
func Decode[T any](data json.RawMessage) (T, error) {
	var v T
	if len(strictjson.TrimSpace(data)) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return v, fmt.Errorf("decode %T: %w", v, err)
	}
	return v, nil
}

// dataFields reads data, a JSON object, into its fields with strictjson.DecodeObject (the
// strict rules apply: a duplicate key is an error); empty data has none.
func dataFields(data json.RawMessage) (map[string]json.RawMessage, error) {
	if len(strictjson.TrimSpace(data)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	return strictjson.DecodeObject(data)
}

// object reads the fields of data for validation, naming each field it complains about.
type object struct {
	m map[string]json.RawMessage
	// prefix is the path of a nested object ("fact." for data.fact), "" for data itself.
	prefix string
}

// path is the full name of one of the object's fields, e.g. "data.subject" or
// "data.fact.subject".
func (o *object) path(name string) string { return "data." + o.prefix + name }

// raw returns a field's JSON; a JSON null counts as absent.
func (o *object) raw(name string) (json.RawMessage, bool) {
	r, ok := o.m[name]
	if !ok || bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
		return nil, false
	}
	return r, true
}

// presence says what a string field may be.
type presence int

const (
	// optional strings may be absent or empty (empty means the same as absent).
	optional presence = iota
	// nonBlank strings may be absent, but when given must not be blank (identifiers).
	nonBlank
	// required strings must be given and not blank.
	required
)

// str returns a string field of at most maxLen characters (0: no limit).
func (o *object) str(name string, p presence, maxLen int) (string, *FieldError) {
	r, ok := o.raw(name)
	if !ok {
		if p == required {
			return "", fieldErr(o.path(name), "is required")
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		return "", fieldErr(o.path(name), "must be a string")
	}
	if p != optional && strings.TrimSpace(s) == "" {
		return "", fieldErr(o.path(name), "must not be empty")
	}
	if maxLen > 0 && utf8.RuneCountInString(s) > maxLen {
		return "", fieldErr(o.path(name), "must be at most %d characters", maxLen)
	}
	return s, nil
}

// enum returns a string field that must be one of allowed.
func (o *object) enum(name string, p presence, allowed []string) (string, *FieldError) {
	s, fe := o.str(name, p, 0)
	if fe != nil || s == "" {
		return s, fe
	}
	if !slices.Contains(allowed, s) {
		return "", fieldErr(o.path(name), "must be one of %s, got %q", strings.Join(allowed, ", "), s)
	}
	return s, nil
}

// integer returns an integer field that must be at least minimum; ok is false when absent.
func (o *object) integer(name string, req bool, minimum int64) (n int64, ok bool, fe *FieldError) {
	r, ok := o.raw(name)
	if !ok {
		if req {
			return 0, false, fieldErr(o.path(name), "is required")
		}
		return 0, false, nil
	}
	n, fe = parseInt(o.path(name), r, minimum)
	return n, fe == nil, fe
}

// parseInt reads a JSON integer written without fraction or exponent (so that it also
// decodes into a Go integer) and at least minimum.
func parseInt(field string, r json.RawMessage, minimum int64) (int64, *FieldError) {
	n, err := strconv.ParseInt(string(bytes.TrimSpace(r)), 10, 64)
	if err != nil {
		return 0, fieldErr(field, "must be an integer")
	}
	switch {
	case n < minimum && minimum == 1:
		return 0, fieldErr(field, "must be a positive integer")
	case n < minimum && minimum == 0:
		return 0, fieldErr(field, "must not be negative")
	case n < minimum:
		return 0, fieldErr(field, "must be at least %d", minimum)
	}
	return n, nil
}

// timestamp returns an optional RFC 3339 time field.
func (o *object) timestamp(name string) (*time.Time, *FieldError) {
	r, ok := o.raw(name)
	if !ok {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		return nil, fieldErr(o.path(name), "must be an RFC 3339 timestamp string")
	}
	// Parse exactly as Decode will (time.Time's JSON form is strict RFC 3339).
	var t time.Time
	if err := json.Unmarshal(r, &t); err != nil {
		return nil, fieldErr(o.path(name), "must be an RFC 3339 timestamp such as 2024-05-01T12:00:00Z, got %q", s)
	}
	return &t, nil
}

// oneOf checks that exactly one (or, when atMostOne, at most one) of a and b is present.
func (o *object) oneOf(a, b string, atMostOne bool) *FieldError {
	_, hasA := o.raw(a)
	_, hasB := o.raw(b)
	switch {
	case hasA && hasB:
		return fieldErr(o.path(b), "give either %s or %s, not both", o.path(a), o.path(b))
	case !hasA && !hasB && !atMostOne:
		return fieldErr(o.path(a), "is required (or give %s)", o.path(b))
	}
	return nil
}

// stringList checks an optional array of strings, naming the bad element.
func (o *object) stringList(name string) *FieldError {
	r, ok := o.raw(name)
	if !ok {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(r, &items); err != nil {
		return fieldErr(o.path(name), "must be an array of strings")
	}
	for i, it := range items {
		var s string
		if err := json.Unmarshal(it, &s); err != nil {
			return fieldErr(fmt.Sprintf("%s[%d]", o.path(name), i), "must be a string")
		}
	}
	return nil
}
