package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
)

// handlerFunc is how every API operation is written: it reads the request and returns what to
// answer, or an error. The value is written as a JSON body with 200, or, when it is a
// *response, with that response's status and headers; the error is mapped by toAPIError and
// written as the error body. A handler never writes to the connection itself: serve does,
// in one place. The request body is already bounded by Config.MaxBodyBytes, and the space in
// the path (under /v1/spaces/{space}) already validated.
type handlerFunc func(s *server, r *http.Request) (any, error)

// response is a handler's answer when a JSON body with 200 is not all of it: another status
// (201 for an append) or headers (Location, Retry-After), with the body to encode.
type response struct {
	status int
	header http.Header
	body   any
	// consistency, when set, is added to a JSON object body as its "consistency" field: a
	// write's consistency token (replica.Token), the same the replica.Header carries.
	consistency string
}

// withStatus answers body with status.
func withStatus(status int, body any) *response { return &response{status: status, body: body} }

// NoSniff is middleware setting X-Content-Type-Options: nosniff on every response of next,
// before next writes anything, so no browser reads a body (an error's included) as another
// type than the one it is declared as. NewHandler runs it first on every route; zaxy serve
// wraps the MCP endpoint and the console with it too.
func NoSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// serve adapts h to http.Handler: it bounds the request body to Config.MaxBodyBytes, calls h
// and writes its answer (writeResponse) or its error (writeError). capBytes, when positive,
// caps the encoded body: an answer that would pass it is replaced by 413 response_too_large
// (the reads under /v1/spaces/{space}; routes that change the log pass 0, since their answer
// is bounded by their body and a 413 after the change committed would hide it). It is also
// the request's row budget (budgeted), so that the list reads stop reading rows at the cap
// rather than building a whole answer only to refuse it.
func (s *server) serve(h handlerFunc, capBytes int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		}
		if capBytes > 0 {
			r = r.WithContext(withRowBudget(r.Context(), capBytes))
		}
		v, err := h(s, r)
		if err == nil {
			err = writeResponse(w, v, capBytes)
		}
		if err != nil {
			var he *headedError
			if errors.As(err, &he) {
				for k, vs := range he.header {
					w.Header()[k] = vs
				}
			}
			writeError(w, r, s.logger, err)
		}
	})
}

// writeResponse writes v (a *response, or a body for 200) as JSON. It encodes the whole body
// before writing anything, so that a body past capBytes (when positive), or one that cannot be
// encoded, is returned as an error for the caller to answer instead.
func writeResponse(w http.ResponseWriter, v any, capBytes int64) error {
	status, header, consistency := http.StatusOK, http.Header(nil), ""
	if resp, ok := v.(*response); ok {
		status, header, v, consistency = resp.status, resp.header, resp.body, resp.consistency
	}
	b, err := encodeJSON(v)
	if err != nil {
		return err
	}
	if consistency != "" {
		b = withField(b, consistencyField, consistency)
	}
	if capBytes > 0 && int64(len(b)) > capBytes {
		return responseTooLarge(capBytes, "")
	}
	for k, vs := range header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return nil
}

// consistencyField is the field of a write's JSON object answer that carries its consistency
// token, beside the replica.Header.
const consistencyField = "consistency"

// withField adds the string field k = val to b, an encoded JSON object ending in a newline as
// encodeJSON writes it, as its last field. Any other body (an array, a string, null) is
// returned unchanged.
func withField(b []byte, k, val string) []byte {
	body := bytes.TrimRight(b, "\n")
	if len(body) < 2 || body[0] != '{' || body[len(body)-1] != '}' {
		return b
	}
	kv, _ := json.Marshal(k)
	vv, _ := json.Marshal(val)
	out := make([]byte, 0, len(body)+len(kv)+len(vv)+3)
	out = append(out, body[:len(body)-1]...)
	if len(bytes.TrimSpace(body[1:len(body)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, kv...)
	out = append(out, ':')
	out = append(out, vv...)
	return append(out, '}', '\n')
}

// encodeJSON is v as the API writes it: no HTML escaping, one trailing newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
