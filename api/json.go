package api

import (
	"cmp"
	"errors"
	"io"
	"net/http"

	"github.com/zaxy/zaxy/internal/strictjson"
	"github.com/zaxy/zaxy/validation"
)

// readJSON decodes a request body (bounded by serve) into dst with strictjson.Decode: unknown
// fields, trailing data and what strictjson.Check refuses (duplicate keys, invalid UTF-8, lone
// surrogate and NUL escapes, numbers Postgres cannot store) are refused. Errors name the
// offending field where there is one, else the body.
func readJSON(r *http.Request, dst any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	if err := strictjson.Decode(body, dst); err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) {
			return &validation.Error{Field: cmp.Or(se.Path, "body"), Message: se.Message}
		}
		return &validation.Error{Field: "body", Message: err.Error()}
	}
	return nil
}
