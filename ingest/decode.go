package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/strictjson"
)

// DecodeDocumentsBody parses a POST .../documents body: {"documents": [{"path",
// "document_id"?, "text", "format"?}, ...]}. Unknown fields and wrong types are errors naming
// the field (e.g. "documents[0].text"); the documents are validated by Documents.
func DecodeDocumentsBody(body []byte) (*DocumentsParams, error) {
	fields, err := decodeBody(body, []string{"documents"})
	if err != nil {
		return nil, err
	}
	items, err := decodeArray(fields, "documents")
	if err != nil {
		return nil, err
	}
	p := &DocumentsParams{Documents: make([]Document, len(items))}
	known := []string{"path", "document_id", "text", "format"}
	for i, item := range items {
		path := fmt.Sprintf("documents[%d].", i)
		obj, err := decodeObject(item, path, known)
		if err != nil {
			return nil, err
		}
		d := &p.Documents[i]
		for name, dst := range map[string]*string{"path": &d.Path, "document_id": &d.DocumentID, "text": &d.Text, "format": &d.Format} {
			if err := decodeString(obj, name, path, dst); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// decodeBody parses a request body that must be a JSON object with only the known fields.
func decodeBody(body []byte, known []string) (map[string]json.RawMessage, error) {
	if err := strictjson.Valid(body); err != nil {
		return nil, invalid("", "request body is not valid JSON: %s", err)
	}
	return decodeObject(body, "", known)
}

// decodeObject parses a JSON object into its raw fields and rejects fields not in known.
// path prefixes the fields' names in errors ("", "documents[0]." or "line 7: "); the object
// itself is named path without its separator.
func decodeObject(raw []byte, path string, known []string) (map[string]json.RawMessage, error) {
	return eventloom.DecodeKnownObject(raw, path, "field", known)
}

// decodeString sets *dst from an optional string field; null counts as absent.
func decodeString(fields map[string]json.RawMessage, name, path string, dst *string) error {
	v, ok := fields[name]
	if !ok || isNull(v) {
		return nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return invalid(path+name, "must be a string")
	}
	return nil
}

// decodeArray returns the items of a required array field.
func decodeArray(fields map[string]json.RawMessage, name string) ([]json.RawMessage, error) {
	v, ok := fields[name]
	if !ok || isNull(v) {
		return nil, invalid(name, "is required")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil || items == nil {
		return nil, invalid(name, "must be an array of objects")
	}
	return items, nil
}

func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }
