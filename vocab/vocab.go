// Package vocab is Zaxy's event vocabulary: the documented data shapes of the event types the
// projector understands (docs/events.md), their validation at append time and their decoding.
// Unknown types are always valid: they are stored and replayed, and extraction passes over
// them. It never touches the database and must not import eventloom.
package vocab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
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
)

// Allowed values of enumerated fields.
var (
	MessageRoles   = []string{"user", "assistant", "system", "tool"}
	TaskStatuses   = []string{"open", "in_progress", "blocked", "done", "cancelled"}
	ToolOutcomes   = []string{"success", "failure"}
	FeedbackSignal = []string{"helpful", "unhelpful", "wrong", "outdated"}
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
	obj := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
			return fieldErr("data", "must be a JSON object")
		}
	}
	if fe := v(&object{m: obj}, content); fe != nil {
		return fe
	}
	return nil
}

// Decode parses data into T, the struct of its type. Call it on validated data.
func Decode[T any](data json.RawMessage) (T, error) {
	var v T
	if len(bytes.TrimSpace(data)) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return v, fmt.Errorf("decode %T: %w", v, err)
	}
	return v, nil
}

// object reads the fields of data for validation, naming each field it complains about.
type object struct{ m map[string]json.RawMessage }

func (o *object) raw(name string) (json.RawMessage, bool) {
	r, ok := o.m[name]
	if !ok || bytes.Equal(bytes.TrimSpace(r), []byte("null")) {
		return nil, false
	}
	return r, true
}

// str returns a string field; required fields must be non-blank.
func (o *object) str(name string, required bool, maxLen int) (string, *FieldError) {
	r, ok := o.raw(name)
	if !ok {
		if required {
			return "", fieldErr("data."+name, "is required")
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		return "", fieldErr("data."+name, "must be a string")
	}
	if required && strings.TrimSpace(s) == "" {
		return "", fieldErr("data."+name, "must not be empty")
	}
	if maxLen > 0 && utf8.RuneCountInString(s) > maxLen {
		return "", fieldErr("data."+name, "must be at most %d characters", maxLen)
	}
	return s, nil
}

// enum returns a string field that must be one of allowed.
func (o *object) enum(name string, required bool, allowed []string) (string, *FieldError) {
	s, fe := o.str(name, required, 0)
	if fe != nil || s == "" {
		return s, fe
	}
	if !slices.Contains(allowed, s) {
		return "", fieldErr("data."+name, "must be one of %s, got %q", strings.Join(allowed, ", "), s)
	}
	return s, nil
}

// positiveInt returns an integer field that must be > 0.
func (o *object) positiveInt(name string, required bool) (int64, bool, *FieldError) {
	r, ok := o.raw(name)
	if !ok {
		if required {
			return 0, false, fieldErr("data."+name, "is required")
		}
		return 0, false, nil
	}
	n, fe := parseInt("data."+name, r)
	if fe != nil {
		return 0, false, fe
	}
	if n <= 0 {
		return 0, false, fieldErr("data."+name, "must be a positive integer")
	}
	return n, true, nil
}

func parseInt(field string, r json.RawMessage) (int64, *FieldError) {
	var f float64
	if err := json.Unmarshal(r, &f); err != nil {
		return 0, fieldErr(field, "must be an integer")
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fieldErr(field, "must be an integer")
	}
	return int64(f), nil
}

// timestamp returns an RFC 3339 time field.
func (o *object) timestamp(name string) (*time.Time, *FieldError) {
	r, ok := o.raw(name)
	if !ok {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil {
		return nil, fieldErr("data."+name, "must be an RFC 3339 timestamp string")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return nil, fieldErr("data."+name, "must be an RFC 3339 timestamp such as 2024-05-01T12:00:00Z, got %q", s)
	}
	return &t, nil
}

// oneOf checks that exactly one (or, when optional, at most one) of a and b is present.
func (o *object) oneOf(a, b string, optional bool) *FieldError {
	_, hasA := o.raw(a)
	_, hasB := o.raw(b)
	switch {
	case hasA && hasB:
		return fieldErr("data."+b, "give either %s or %s, not both", a, b)
	case !hasA && !hasB && !optional:
		return fieldErr("data."+a, "is required (or give data.%s)", b)
	}
	return nil
}
