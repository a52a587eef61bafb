package vocab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Complete fills in what a documented type lets the envelope say for data, and returns data
// unchanged when there is nothing to fill. There is one rule: a message without
// data.role (absent or null) whose actor is one of MessageRoles ("user", "assistant",
// "system", "tool") takes that actor as its role, so {"type":"message","actor":"user",
// "content":"hi"} is a valid message. Any other actor leaves data alone, and Validate then
// refuses the missing data.role. It is called before validation and before the event is
// hashed, so the stored event says its role itself. Data that is not a JSON object is
// returned unchanged for Validate to refuse.
func Complete(typ, actor string, data json.RawMessage) json.RawMessage {
	if typ != TypeMessage || !slices.Contains(MessageRoles, actor) {
		return data
	}
	obj, err := dataFields(data)
	if err != nil {
		return data
	}
	if _, ok := (&object{m: obj}).raw("role"); ok {
		return data
	}
	role, err := json.Marshal(actor)
	if err != nil {
		return data
	}
	obj["role"] = role
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		panic(fmt.Sprintf("vocab: re-encode message data: %v", err)) // the values came from valid JSON
	}
	return json.RawMessage(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}
