package eventloom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/zaxy/zaxy/internal/strictjson"
)

// eventFields are the fields of an event object, in the order errors list them.
var eventFields = []string{"type", "session_id", "actor", "occurred_at", "content", "data", "cues"}

// DecodeEvent parses one event object strictly: unknown fields, wrong types and malformed
// timestamps are errors naming the field (prefixed with path, e.g. "events[3].").
// It does not run Validate.
func DecodeEvent(raw json.RawMessage, path string) (NewEvent, error) {
	var ev NewEvent
	fields, err := DecodeKnownObject(raw, path, "event field", eventFields)
	if err != nil {
		return ev, err
	}
	str := func(name string, dst *string) error {
		v, ok := fields[name]
		if !ok || isNull(v) {
			return nil
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return invalid(path+name, "must be a string")
		}
		return nil
	}
	for name, dst := range map[string]*string{"type": &ev.Type, "session_id": &ev.SessionID, "actor": &ev.Actor, "content": &ev.Content} {
		if err := str(name, dst); err != nil {
			return ev, err
		}
	}
	if v, ok := fields["occurred_at"]; ok && !isNull(v) {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return ev, invalid(path+"occurred_at", "must be an RFC 3339 timestamp string")
		}
		t, err := parseTime(path+"occurred_at", s)
		if err != nil {
			return ev, err
		}
		ev.OccurredAt = &t
	}
	for name, dst := range map[string]*json.RawMessage{"data": &ev.Data, "cues": &ev.Cues} {
		if v, ok := fields[name]; ok && !isNull(v) {
			if t := bytes.TrimSpace(v); len(t) == 0 || t[0] != '{' {
				return ev, invalid(path+name, "must be a JSON object")
			}
			*dst = v
		}
	}
	return ev, nil
}

// DecodeObject parses a JSON object into its raw fields with strictjson.DecodeObject (the
// strict rules apply: a duplicate key is an error) and returns a *ValidationError naming what
// is wrong under path, the object's place in the request with its separator: "" for a whole
// body, "events[2]." or "line 7: ".
func DecodeObject(raw json.RawMessage, path string) (map[string]json.RawMessage, error) {
	field := strings.TrimRight(path, ".: ")
	fields, err := strictjson.DecodeObject(raw)
	var se *strictjson.Error
	switch {
	case errors.Is(err, strictjson.ErrNotObject) && field == "":
		return nil, invalid("", "request body must be a JSON object")
	case errors.Is(err, strictjson.ErrNotObject):
		return nil, invalid(field, "must be a JSON object")
	case errors.As(err, &se):
		return nil, invalid(joinField(path, se.Path), "%s", se.Message)
	case err != nil:
		return nil, invalid(field, "is not valid JSON: %v", err)
	}
	return fields, nil
}

// DecodeKnownObject is DecodeObject for an object whose fields must be among known: the
// first unknown field in name order is a *ValidationError naming it under path, "is not a
// known <kind> (known: <known, in order>)".
func DecodeKnownObject(raw json.RawMessage, path, kind string, known []string) (map[string]json.RawMessage, error) {
	fields, err := DecodeObject(raw, path)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(known, name) {
			return nil, invalid(path+name, "is not a known %s (known: %s)", kind, strings.Join(known, ", "))
		}
	}
	return fields, nil
}

// joinField names sub, a path inside the value at field ("" for the whole body); field may
// end in a separator ("events[2].", "line 7: ") or not ("events[2]").
func joinField(field, sub string) string {
	switch {
	case field == "":
		return sub
	case sub == "":
		return strings.TrimRight(field, ".: ")
	case strings.HasSuffix(field, ".") || strings.HasSuffix(field, " "):
		return field + sub
	case strings.HasPrefix(sub, "["):
		return field + sub
	}
	return field + "." + sub
}

func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }

// DecodeAppendBody parses an append request body: either one event object or
// {"events": [...]}. Every error names the field.
func DecodeAppendBody(body []byte) ([]NewEvent, error) {
	if err := strictjson.Valid(body); err != nil {
		return nil, invalid("", "request body is not valid JSON: %s", err)
	}
	fields, err := DecodeObject(body, "")
	if err != nil {
		return nil, err
	}
	rawEvents, batch := fields["events"]
	if !batch {
		ev, err := DecodeEvent(body, "")
		if err != nil {
			return nil, err
		}
		return []NewEvent{ev}, nil
	}
	for name := range fields {
		if name != "events" {
			return nil, invalid(name, "is not allowed beside \"events\" in a batch body")
		}
	}
	var items []json.RawMessage
	if err := json.Unmarshal(rawEvents, &items); err != nil || items == nil {
		return nil, invalid("events", "must be an array of event objects")
	}
	out := make([]NewEvent, len(items))
	for i, item := range items {
		ev, err := DecodeEvent(item, fmt.Sprintf("events[%d].", i))
		if err != nil {
			return nil, err
		}
		out[i] = ev
	}
	return out, nil
}
