package vocab

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// shapes is the Go struct of each documented type, as Decode reads it.
var shapes = map[string]reflect.Type{
	TypeMessage:                 reflect.TypeFor[Message](),
	TypeFactAsserted:            reflect.TypeFor[FactAsserted](),
	TypeFactRetracted:           reflect.TypeFor[FactRetracted](),
	TypeMemoryInvalidated:       reflect.TypeFor[MemoryInvalidated](),
	TypeDecisionRecorded:        reflect.TypeFor[DecisionRecorded](),
	TypeTaskUpdated:             reflect.TypeFor[TaskUpdated](),
	TypePreferenceStated:        reflect.TypeFor[PreferenceStated](),
	TypeToolCallCompleted:       reflect.TypeFor[ToolCallCompleted](),
	TypeDocumentChunk:           reflect.TypeFor[DocumentChunk](),
	TypeFeedbackRecorded:        reflect.TypeFor[FeedbackRecorded](),
	TypeRedactionConfigured:     reflect.TypeFor[RedactionConfigured](),
	TypeProposalCreated:         reflect.TypeFor[ProposalCreated](),
	TypeProposalAccepted:        reflect.TypeFor[ProposalDecided](),
	TypeProposalRejected:        reflect.TypeFor[ProposalDecided](),
	TypeProposalDeferred:        reflect.TypeFor[ProposalDecided](),
	TypeMemoryPinned:            reflect.TypeFor[MemoryPinned](),
	TypeMemoryUnpinned:          reflect.TypeFor[MemoryPinned](),
	TypeSalienceConfigured:      reflect.TypeFor[SalienceConfigured](),
	TypeMemoryConfidenceRevised: reflect.TypeFor[MemoryConfidenceRevised](),
	TypeMemoryKnownUnknown:      reflect.TypeFor[MemoryKnownUnknown](),
	TypeMemoryActionSurfaced:    reflect.TypeFor[MemoryActionSurfaced](),
	TypeGateConfigured:          reflect.TypeFor[GateConfigured](),
	TypeRetrospectiveConfigured: reflect.TypeFor[RetrospectiveConfigured](),
	TypeSkillRecorded:           reflect.TypeFor[SkillRecorded](),
	TypeOutcomeRecorded:         reflect.TypeFor[OutcomeRecorded](),
	TypePolicyProposed:          reflect.TypeFor[PolicyProposed](),
	TypePolicyPromoted:          reflect.TypeFor[PolicyPromoted](),
	TypePolicyRolledBack:        reflect.TypeFor[PolicyRolledBack](),
}

// checkKeyCase refuses a key of data (at any depth the type's struct describes) that is not
// one of its fields' names but equals one in another case ("Artifact" for "artifact").
// encoding/json takes such a key into the field, and the last of two such keys wins, while
// Postgres reads data->'artifact' exactly: the service and an analyst's SQL would read two
// different events. Other unknown keys stay allowed (an event may carry more than its type
// documents).
func checkKeyCase(t reflect.Type, fields map[string]json.RawMessage, prefix string) *FieldError {
	keys := make([]string, 0, len(fields))
	for key := range fields {
		keys = append(keys, key)
	}
	slices.Sort(keys) // the first problem in key order, the same in every run
	for _, key := range keys {
		raw := fields[key]
		f, exact, folded := fieldNamed(t, key)
		switch {
		case exact:
			if fe := checkNested(f.Type, raw, prefix+key); fe != nil {
				return fe
			}
		case folded != "":
			return fieldErr("data."+prefix+key, "is not a field of this type: keys are case-sensitive; did you mean %q?", folded)
		}
	}
	return nil
}

// checkNested checks a field's value when its type is a struct, or a list or pointer of one.
func checkNested(t reflect.Type, raw json.RawMessage, path string) *FieldError {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) == nil {
			return checkKeyCase(t, m, path+".")
		}
	case reflect.Slice, reflect.Array:
		elem := t.Elem()
		for elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		if elem.Kind() != reflect.Struct {
			return nil
		}
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) == nil {
			for i, item := range list {
				var m map[string]json.RawMessage
				if json.Unmarshal(item, &m) == nil {
					if fe := checkKeyCase(elem, m, path+"["+strconv.Itoa(i)+"]."); fe != nil {
						return fe
					}
				}
			}
		}
	}
	return nil
}

// fieldNamed finds t's field whose JSON name is key (exact), or else the JSON name of one
// that equals key in another case (folded).
func fieldNamed(t reflect.Type, key string) (f reflect.StructField, exact bool, folded string) {
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if name == key {
			return sf, true, ""
		}
		if strings.EqualFold(name, key) {
			folded = name
		}
	}
	return reflect.StructField{}, false, folded
}
