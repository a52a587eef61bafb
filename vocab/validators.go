package vocab

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// validators holds the check of each documented type.
var validators = map[string]func(o *object, content string) *FieldError{
	TypeMessage:           validateMessage,
	TypeFactAsserted:      validateFactAsserted,
	TypeFactRetracted:     validateFactRetracted,
	TypeMemoryInvalidated: validateMemoryInvalidated,
	TypeDecisionRecorded:  validateDecisionRecorded,
	TypeTaskUpdated:       validateTaskUpdated,
	TypePreferenceStated:  validatePreferenceStated,
	TypeToolCallCompleted: validateToolCallCompleted,
	TypeDocumentChunk:     validateDocumentChunk,
	TypeFeedbackRecorded:  validateFeedbackRecorded,
}

func first(errs ...*FieldError) *FieldError {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func validateMessage(o *object, content string) *FieldError {
	if _, fe := o.enum("role", true, MessageRoles); fe != nil {
		return fe
	}
	if _, fe := o.str("name", false, maxNameLen); fe != nil {
		return fe
	}
	if strings.TrimSpace(content) == "" {
		return fieldErr("content", "a message needs its text in content")
	}
	return nil
}

func validateFactAsserted(o *object, _ string) *FieldError {
	_, e1 := o.str("subject", true, maxNameLen)
	_, e2 := o.str("predicate", true, maxNameLen)
	if fe := first(e1, e2, o.oneOf("object", "value", false)); fe != nil {
		return fe
	}
	if _, fe := o.str("object", false, maxNameLen); fe != nil {
		return fe
	}
	if r, ok := o.m["object"]; ok && string(r) != "null" {
		var s string
		if json.Unmarshal(r, &s) == nil && strings.TrimSpace(s) == "" {
			return fieldErr("data.object", "must not be empty")
		}
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
		return fieldErr("data.valid_to", "must be after data.valid_from")
	}
	if r, ok := o.raw("confidence"); ok {
		var c float64
		if err := json.Unmarshal(r, &c); err != nil || c < 0 || c > 1 {
			return fieldErr("data.confidence", "must be a number between 0 and 1")
		}
	}
	return nil
}

func validateFactRetracted(o *object, _ string) *FieldError {
	_, e1 := o.str("subject", true, maxNameLen)
	_, e2 := o.str("predicate", true, maxNameLen)
	_, e3 := o.str("object", false, maxNameLen)
	_, e4 := o.str("reason", false, 0)
	return first(e1, e2, o.oneOf("object", "value", true), e3, e4)
}

func validateMemoryInvalidated(o *object, _ string) *FieldError {
	if fe := o.oneOf("target_seq", "target_id", false); fe != nil {
		return fe
	}
	_, _, e1 := o.positiveInt("target_seq", false)
	_, e2 := o.str("target_id", false, maxNameLen)
	_, e3 := o.str("reason", true, 0)
	return first(e1, e2, e3)
}

func validateDecisionRecorded(o *object, _ string) *FieldError {
	_, e1 := o.str("decision", true, 0)
	_, e2 := o.str("rationale", false, 0)
	_, e3 := o.str("subject", false, maxNameLen)
	if fe := first(e1, e2, e3); fe != nil {
		return fe
	}
	if r, ok := o.raw("alternatives"); ok {
		var alts []json.RawMessage
		if err := json.Unmarshal(r, &alts); err != nil {
			return fieldErr("data.alternatives", "must be an array of strings")
		}
		for i, a := range alts {
			var s string
			if err := json.Unmarshal(a, &s); err != nil {
				return fieldErr(fmt.Sprintf("data.alternatives[%d]", i), "must be a string")
			}
		}
	}
	return nil
}

func validateTaskUpdated(o *object, _ string) *FieldError {
	_, e1 := o.str("task_id", true, maxNameLen)
	_, e2 := o.enum("status", true, TaskStatuses)
	_, e3 := o.str("title", false, 0)
	return first(e1, e2, e3)
}

func validatePreferenceStated(o *object, _ string) *FieldError {
	_, e1 := o.str("topic", true, maxNameLen)
	_, e2 := o.str("preference", true, 0)
	_, e3 := o.str("holder", false, maxNameLen)
	return first(e1, e2, e3)
}

func validateToolCallCompleted(o *object, _ string) *FieldError {
	_, e1 := o.str("tool", true, maxNameLen)
	_, e2 := o.str("arguments", false, maxArgumentsLen)
	outcome, e3 := o.enum("outcome", true, ToolOutcomes)
	errText, e4 := o.str("error", false, 0)
	if fe := first(e1, e2, e3, e4); fe != nil {
		return fe
	}
	if outcome == "success" && errText != "" {
		return fieldErr("data.error", "is only allowed when outcome is failure")
	}
	if r, ok := o.raw("duration_ms"); ok {
		n, fe := parseInt("data.duration_ms", r)
		if fe != nil {
			return fe
		}
		if n < 0 {
			return fieldErr("data.duration_ms", "must not be negative")
		}
	}
	return nil
}

func validateDocumentChunk(o *object, content string) *FieldError {
	_, e1 := o.str("document_id", true, 1024)
	_, e2 := o.str("path", false, 4096)
	_, e3 := o.str("document_sha256", false, 64)
	if fe := first(e1, e2, e3); fe != nil {
		return fe
	}
	startRaw, ok := o.raw("start")
	if !ok {
		return fieldErr("data.start", "is required")
	}
	start, fe := parseInt("data.start", startRaw)
	if fe != nil {
		return fe
	}
	if start < 0 {
		return fieldErr("data.start", "must not be negative")
	}
	endRaw, ok := o.raw("end")
	if !ok {
		return fieldErr("data.end", "is required")
	}
	end, fe := parseInt("data.end", endRaw)
	if fe != nil {
		return fe
	}
	if end <= start {
		return fieldErr("data.end", "must be greater than data.start")
	}
	if n := int64(len(content)); end-start != n {
		return fieldErr("data.end", "the range %d..%d is %d bytes but the chunk text in content is %d bytes", start, end, end-start, n)
	}
	if !utf8.ValidString(content) || content == "" {
		return fieldErr("content", "must hold the chunk's text")
	}
	if r, ok := o.raw("chunk_index"); ok {
		n, fe := parseInt("data.chunk_index", r)
		if fe != nil {
			return fe
		}
		if n < 0 {
			return fieldErr("data.chunk_index", "must not be negative")
		}
	}
	return nil
}

func validateFeedbackRecorded(o *object, _ string) *FieldError {
	r, ok := o.raw("target_seqs")
	if !ok {
		return fieldErr("data.target_seqs", "is required")
	}
	var seqs []json.RawMessage
	if err := json.Unmarshal(r, &seqs); err != nil {
		return fieldErr("data.target_seqs", "must be an array of positive integers")
	}
	if len(seqs) == 0 {
		return fieldErr("data.target_seqs", "must not be empty")
	}
	for i, s := range seqs {
		n, fe := parseInt(fmt.Sprintf("data.target_seqs[%d]", i), s)
		if fe != nil {
			return fe
		}
		if n <= 0 {
			return fieldErr(fmt.Sprintf("data.target_seqs[%d]", i), "must be a positive integer")
		}
	}
	_, e1 := o.enum("signal", true, FeedbackSignal)
	_, e2 := o.str("comment", false, 0)
	_, _, e3 := o.positiveInt("checkout_seq", false)
	return first(e1, e2, e3)
}
