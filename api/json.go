package api

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/strictjson"
)

// readJSON decodes a request body (bounded by serve) into dst, refusing unknown fields,
// trailing data and what strictjson.Check refuses (duplicate keys, invalid UTF-8, lone
// surrogate and NUL escapes, numbers Postgres cannot store). Errors name the offending field where there is one.
func readJSON(r *http.Request, dst any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	if json.Valid(body) {
		var se *strictjson.Error
		if err := strictjson.Check(body); errors.As(err, &se) {
			return &eventloom.ValidationError{Field: cmp.Or(se.Path, "body"), Message: se.Message}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			return &eventloom.ValidationError{Field: jsonField(typeErr.Field), Message: "must be " + jsonKind(typeErr.Type)}
		case errors.As(err, &syntaxErr), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return &eventloom.ValidationError{Field: "body", Message: "must be a JSON object: " + err.Error()}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &eventloom.ValidationError{Field: field, Message: "is not a known field"}
		default:
			return &eventloom.ValidationError{Field: "body", Message: err.Error()}
		}
	}
	if dec.More() {
		return &eventloom.ValidationError{Field: "body", Message: "must hold exactly one JSON object"}
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
