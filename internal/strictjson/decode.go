package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
)

// ErrNotObject is DecodeObject's answer to a JSON text that is not an object.
var ErrNotObject = errors.New("must be a JSON object")

// SyntaxError is a text that is not valid JSON: encoding/json's message, with the byte offset
// where it has one ("invalid character 'x' looking for beginning of value (at byte 3)").
type SyntaxError struct{ err error }

func (e *SyntaxError) Error() string {
	var se *json.SyntaxError
	if errors.As(e.err, &se) {
		return fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	}
	return e.err.Error()
}

// Unwrap returns encoding/json's error.
func (e *SyntaxError) Unwrap() error { return e.err }

// Valid returns a *SyntaxError when data is not one valid JSON value, and nil when it is.
func Valid(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return &SyntaxError{err}
	}
	return &SyntaxError{errors.New("is not valid JSON")}
}

// TrimSpace returns data without the JSON whitespace (space, tab, line feed, carriage return)
// around it. bytes.TrimSpace also trims Unicode spaces such as a vertical tab, which no JSON
// decoder accepts: a check that trimmed them accepted text that encoding/json then refused.
func TrimSpace(data []byte) []byte { return bytes.Trim(data, " \t\n\r") }

// DecodeObject parses data, one JSON object, into its fields, each value's JSON as written,
// so that the caller can read each field and name it in its own errors. It returns
// ErrNotObject when data (JSON whitespace trimmed) does not begin with '{', a *SyntaxError when it is
// not valid JSON, and an *Error (its Path relative to the object) when it breaks a rule of
// Check, such as a duplicate key, which decoding into a map would silently drop.
func DecodeObject(data []byte) (map[string]json.RawMessage, error) {
	t := TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return nil, ErrNotObject
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(t, &fields); err != nil {
		return nil, &SyntaxError{err}
	}
	if err := Check(t); err != nil {
		return nil, err
	}
	return fields, nil
}

// Decode decodes data, one JSON object, into dst (a pointer to a struct with json tags) under
// the rules of Check, refusing fields dst does not have and anything after the object. Every
// error is an *Error naming the field by its JSON path ("" for the text as a whole): a value of
// the wrong type says what it must be ("must be an integer"), an unknown field "is not a known
// field", a text that is not JSON "must be a JSON object: " and encoding/json's message.
func Decode(data []byte, dst any) error {
	if json.Valid(data) {
		if err := Check(data); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			return &Error{Path: jsonField(typeErr.Field), Message: "must be " + jsonKind(typeErr.Type)}
		case errors.As(err, &syntaxErr), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return &Error{Message: "must be a JSON object: " + err.Error()}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &Error{Path: field, Message: "is not a known field"}
		default:
			return &Error{Message: err.Error()}
		}
	}
	if dec.More() {
		return &Error{Message: "must hold exactly one JSON object"}
	}
	return nil
}

// jsonField is a decoding error's field path without the Go names of embedded structs
// ("Request.max_tokens" is the body's max_tokens): JSON names here are lower case.
func jsonField(path string) string {
	parts := strings.Split(path, ".")
	for len(parts) > 1 && parts[0] != "" && unicode.IsUpper(rune(parts[0][0])) {
		parts = parts[1:]
	}
	return strings.Join(parts, ".")
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.String()
}
