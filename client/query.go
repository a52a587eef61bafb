package client

import (
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// encodeQuery writes the query string of a parameters struct (ReplayParams, FactsParams, ...)
// from its json tags, the names the server's decoder reads: a string when not empty, an
// integer when not zero, a pointer when not nil (0 included), a bool when true, a time in
// RFC 3339. p may be a nil pointer: no parameters.
func encodeQuery(p any) url.Values {
	q := url.Values{}
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return q
		}
		v = v.Elem()
	}
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		f := v.Field(i)
		if name == "" || name == "-" || f.IsZero() {
			continue
		}
		if f.Kind() == reflect.Pointer {
			f = f.Elem()
		}
		switch x := f.Interface().(type) {
		case time.Time:
			q.Set(name, x.UTC().Format(time.RFC3339Nano))
		case string:
			q.Set(name, x)
		case bool:
			q.Set(name, strconv.FormatBool(x))
		case int:
			q.Set(name, strconv.Itoa(x))
		case int64:
			q.Set(name, strconv.FormatInt(x, 10))
		default:
			panic("client: encodeQuery: unsupported field type " + f.Type().String())
		}
	}
	return q
}
