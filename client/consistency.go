package client

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
)

// consistencyHeader is the header a write's answer names what it wrote in (a consistency
// token) and a read sends it back in, so that a server reading from standbys serves the read
// only from one that has the write (docs/scaling.md).
const consistencyHeader = "Zaxy-Consistency"

// consistency is the token a Client carries: the latest it was answered, sent with every
// request after it. A Client is one session: reads it makes after a write see that write,
// whatever server of the deployment answers them.
type consistency struct {
	mu    sync.Mutex
	token string
}

// get is the token to send ("" before any write answered one).
func (c *consistency) get() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token
}

// observe keeps token when it is later than the one held (or either is not of a form the
// client can compare: then the newer wins), so that answers arriving out of order never move
// the session back.
func (c *consistency) observe(token string) {
	if token == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, okA := tokenLSN(c.token); okA {
		if b, okB := tokenLSN(token); okB && b <= a {
			return
		}
	}
	c.token = token
}

// consistencyField is the field of a write's JSON object answer that repeats its
// consistencyHeader; the client reads the header and no result type has the field.
const consistencyField = "consistency"

// withoutConsistencyField is the JSON object answer b without its consistencyField, so that
// strict decoding (tests) refuses only fields the result type truly lacks. Any other answer is
// returned unchanged.
func withoutConsistencyField(b []byte) []byte {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return b
	}
	if _, ok := fields[consistencyField]; !ok {
		return b
	}
	delete(fields, consistencyField)
	out, err := json.Marshal(fields)
	if err != nil {
		return b
	}
	return out
}

// tokenLSN reads a token of the form lsn:<hex>/<hex> as one number.
func tokenLSN(token string) (uint64, bool) {
	rest, ok := strings.CutPrefix(token, "lsn:")
	if !ok {
		return 0, false
	}
	hi, lo, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, false
	}
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return h<<32 | l, true
}

// ConsistencyToken is the consistency token c holds: the latest a write answered it, which it
// sends with every request ("" before any). Another process continuing this session passes it
// to WithConsistencyToken. (A function rather than a method: every method of Client is an API
// operation.)
func ConsistencyToken(c *Client) string { return c.consistency.get() }

// WithConsistencyToken starts the client's session from token (another client's
// ConsistencyToken), so that its reads see that client's writes.
func WithConsistencyToken(token string) Option {
	return func(c *Client) { c.consistency.observe(token) }
}
