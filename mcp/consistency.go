package mcp

import (
	"net/http"
	"sync"
)

// consistencyHeader is the API's read-your-writes header: a write answers the token of what it
// wrote, and a read that sends it back sees that write even when a standby serves it
// (docs/scaling.md).
const consistencyHeader = "Zaxy-Consistency"

// metaConsistency is the _meta key that carries a consistency token: in a tool result, the
// token the write it made was answered (also its structured content's consistency field when
// that is an object); in a tool call, the token to read after, for a client of the stateless
// HTTP endpoint that cannot set the request header.
const metaConsistency = "zaxy/consistency"

// callToken is the consistency token a tool call sends: the HTTP request's own header, else the
// call's _meta metaConsistency when it is a string ("" when neither).
func callToken(header http.Header, meta map[string]any) string {
	if header != nil {
		if v := header.Get(consistencyHeader); v != "" {
			return v
		}
	}
	v, _ := meta[metaConsistency].(string)
	return v
}

// session is the consistency token of one MCP session (a server over stdio: one client): the
// latest a tool call was answered, sent with every call after it, so that the session's reads
// see its writes without the agent doing anything.
type session struct {
	mu    sync.Mutex
	token string
}

// prepare sets the session's token on a request for the API.
func (s *session) prepare(r *http.Request) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token != "" {
		r.Header.Set(consistencyHeader, s.token)
	}
}

// observe keeps the token an API answer carried. Calls of one session are served one after
// another, so the last answer's token is the latest.
func (s *session) observe(h http.Header) {
	if s == nil {
		return
	}
	if t := h.Get(consistencyHeader); t != "" {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.token = t
	}
}
