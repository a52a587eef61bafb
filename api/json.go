package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/zaxy/zaxy/eventloom"
)

// readJSON decodes a request body of at most limit bytes into dst, refusing unknown fields
// and trailing data. Errors name the offending field where there is one.
func readJSON(w http.ResponseWriter, r *http.Request, limit int64, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			return &eventloom.ValidationError{Field: typeErr.Field, Message: "must be a " + typeErr.Type.String()}
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
