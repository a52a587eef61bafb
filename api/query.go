package api

import (
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/validation"
)

var timeType = reflect.TypeFor[time.Time]()

// decodeQuery fills the struct dst points to from a query string, each field read from the
// parameter its json tag names: strings as given; integers, booleans (true or false) and
// RFC 3339 times parsed, with an error naming the parameter when they do not parse. An absent
// or empty parameter leaves its field alone (pointer fields stay nil); unknown parameters are
// ignored; invalid UTF-8 or NUL in a parameter read is an error naming it. Range checks are
// the handler's.
func decodeQuery(q url.Values, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		raw := q.Get(name)
		if name == "" || name == "-" || raw == "" {
			continue
		}
		if err := checkParam(name, raw); err != nil {
			return err
		}
		fv := v.Field(i)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		var val reflect.Value
		switch {
		case ft == timeType:
			tm, err := time.Parse(time.RFC3339Nano, raw)
			if err != nil {
				return &validation.Error{Field: name, Message: "must be an RFC 3339 timestamp"}
			}
			val = reflect.ValueOf(tm)
		case ft.Kind() == reflect.String:
			val = reflect.ValueOf(raw).Convert(ft)
		case ft.Kind() == reflect.Int || ft.Kind() == reflect.Int64:
			n, err := strconv.ParseInt(raw, 10, 64)
			if err != nil {
				return &validation.Error{Field: name, Message: "must be an integer"}
			}
			val = reflect.ValueOf(n).Convert(ft)
		case ft.Kind() == reflect.Bool:
			if raw != "true" && raw != "false" {
				return &validation.Error{Field: name, Message: "must be true or false"}
			}
			val = reflect.ValueOf(raw == "true")
		default:
			panic("decodeQuery: unsupported field type " + f.Type.String())
		}
		if f.Type.Kind() == reflect.Pointer {
			p := reflect.New(ft)
			p.Elem().Set(val)
			val = p
		}
		fv.Set(val)
	}
	return nil
}

// pathParam is the route parameter name, unescaped: chi matches the escaped path when it holds
// an escaped slash or the like (an item id session:run/1, a subagent id a/b), and then hands
// out the parameter still escaped. field names the parameter in errors.
func pathParam(r *http.Request, name, field string) (string, error) {
	v := chi.URLParam(r, name)
	if r.URL.RawPath != "" {
		u, err := url.PathUnescape(v)
		if err != nil {
			return "", &validation.Error{Field: field, Message: "must be a valid path segment"}
		}
		v = u
	}
	if err := checkParam(field, v); err != nil {
		return "", err
	}
	return v, nil
}

// checkParam refuses a query or path parameter Postgres text cannot hold (invalid UTF-8 or
// NUL), naming it, before it reaches a query and comes back as SQLSTATE 22021.
func checkParam(field, v string) error {
	if !utf8.ValidString(v) {
		return &validation.Error{Field: field, Message: "must be valid UTF-8"}
	}
	if strings.IndexByte(v, 0) >= 0 {
		return &validation.Error{Field: field, Message: "must not contain NUL characters"}
	}
	return nil
}
