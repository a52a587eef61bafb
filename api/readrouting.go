package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/metamemory"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/validation"
)

// replicaRoutes are the operations under spacePrefix that may run on a standby
// (Services.Replicas): reads of one space that append nothing and need nothing of the primary
// (no LISTEN), or reads whose only write is the record of what they surfaced, appended on the
// primary as their last step. Each answers replica.ReadFromHeader.
var replicaRoutes = map[string]bool{
	"GET /events": true, "GET /verify": true, "GET /facts": true, "GET /entities/{entity}": true,
	"POST /cypher": true, "GET /index": true, "GET /timeline": true, "GET /items/{id}": true,
	"GET /salience": true, "GET /artifacts": true, "GET /proposals": true, "GET /proposals/{seq}": true,
	"GET /projection": true, "POST /feeling-of-knowing": true, "GET /checkouts/{seq}": true,
	"GET /items/{id}/salience": true,
	// Checkout and the ranking passes over it rank on the standby and record what they surfaced
	// on the primary (checkout.Service.ReadingFrom, lifecycle.Service.ReadingFrom).
	"POST /checkout": true, "POST /query": true, "POST /context/assemble": true, "POST /handoff": true,
	"POST /weave": true, "POST /prospective": true,
	// The reading memory actions answer from the standby and record on the primary
	// (memoryaction.Actions.ReadingFrom).
	"POST /actions/simulate-forward": true, "POST /actions/reflect-backward": true,
	"POST /actions/retrieve-procedure-prior": true, "POST /actions/retrieve-failure-prior": true,
	"POST /actions/query-causal-neighborhood": true,
}

// onReplica reports whether the route may run on a standby.
func (rt *spaceRoute) onReplica() bool { return replicaRoutes[rt.method+" "+rt.pattern] }

// readChoiceKey carries a request's replica.Choice in its context.
type readChoiceKey struct{}

// readPool is the pool a routed read runs on: the standby Pick chose, or primary (the pool the
// route uses on the primary: Services.Pool or Services.Analytics).
func readPool(r *http.Request, primary *pgxpool.Pool) *pgxpool.Pool {
	if c, ok := r.Context().Value(readChoiceKey{}).(replica.Choice); ok && c.Standby != nil {
		return c.Pool
	}
	return primary
}

// standbyOf is the services of the standby Pick chose for a routed read, and false when the
// read runs on the primary.
func (s *server) standbyOf(r *http.Request) (StandbyServices, bool) {
	if c, ok := r.Context().Value(readChoiceKey{}).(replica.Choice); ok && c.Standby != nil {
		return s.standbys[c.Standby], true
	}
	return StandbyServices{}, false
}

// readStore is the log as a routed read sees it: a store on the standby Pick chose, or
// primary.
func (s *server) readStore(r *http.Request, primary *eventloom.Store) *eventloom.Store {
	if sv, ok := s.standbyOf(r); ok {
		return sv.Store
	}
	return primary
}

// checkoutFor is the checkout service of a routed read: the one ranking on the standby Pick
// chose, or Services.Checkout.
func (s *server) checkoutFor(r *http.Request) *checkout.Service {
	if sv, ok := s.standbyOf(r); ok {
		return sv.Checkout
	}
	return s.checkout
}

// lifecycleFor is the lifecycle service of a routed read (/context/assemble, /handoff): the one
// reading on the standby Pick chose, or Services.Lifecycle.
func (s *server) lifecycleFor(r *http.Request) *lifecycle.Service {
	if sv, ok := s.standbyOf(r); ok {
		return sv.Lifecycle
	}
	return s.lifecycle
}

// feelingFor is the feeling of knowing of a routed read: the one reading on the standby Pick
// chose, or Services.FeelingOfKnowing.
func (s *server) feelingFor(r *http.Request) *metamemory.Service {
	if sv, ok := s.standbyOf(r); ok {
		return sv.FeelingOfKnowing
	}
	return s.feeling
}

// memoryActionsFor is the memory actions of a routed read (the reading actions): those reading
// on the standby Pick chose, or Services.MemoryActions.
func (s *server) memoryActionsFor(r *http.Request) *memoryaction.Actions {
	if sv, ok := s.standbyOf(r); ok {
		return sv.MemoryActions
	}
	return s.memoryActions
}

// requestToken reads the request's replica.Header: the zero Token when it is absent, a 400
// naming the header when it is malformed.
func requestToken(r *http.Request) (replica.Token, error) {
	v := r.Header.Get(replica.Header)
	if v == "" {
		return replica.Token{}, nil
	}
	t, err := replica.ParseToken(v)
	if err != nil {
		return replica.Token{}, &validation.Error{Field: replica.Header,
			Message: "must be a token a write answered in the " + replica.Header + " header (lsn:<hex>/<hex>), got " + truncate(v, 64)}
	}
	return t, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// consistent wraps a route's handler with read-your-writes: it validates the request's token;
// a read route (onReplica) runs where Services.Replicas picks for that token and answers
// replica.ReadFromHeader (a standby that fails it with a server-side error is retried on the
// primary); a write route (scope write or admin) answers replica.Header with the primary's WAL
// position after it succeeded, when standbys are configured, and the same token as the
// "consistency" field of a JSON object body (writeResponse).
func (s *server) consistent(rt *spaceRoute, h handlerFunc) handlerFunc {
	switch {
	case rt.onReplica():
		return func(s *server, r *http.Request) (any, error) {
			t, err := requestToken(r)
			if err != nil {
				return nil, err
			}
			return s.routedRead(r, t, h)
		}
	case rt.scope != auth.ScopeRead:
		return func(s *server, r *http.Request) (any, error) {
			if _, err := requestToken(r); err != nil {
				return nil, err
			}
			v, err := h(s, r)
			if err != nil || !s.replicas.Enabled() {
				return v, err
			}
			t, err := s.replicas.Token(r.Context())
			if err != nil {
				// The write committed: answer it, without a token (a later read with an older
				// token, or none, may miss it on a standby).
				s.logger.WarnContext(r.Context(), "read the consistency token", "error", err)
				return v, nil
			}
			resp := withHeader(v, replica.Header, t.String())
			resp.consistency = t.String()
			return resp, nil
		}
	}
	return func(s *server, r *http.Request) (any, error) {
		if _, err := requestToken(r); err != nil {
			return nil, err
		}
		return h(s, r)
	}
}

// routedRead runs a read route's handler where the replica set picks for token t.
func (s *server) routedRead(r *http.Request, t replica.Token, h handlerFunc) (any, error) {
	if !s.replicas.Enabled() {
		v, err := h(s, r)
		if err != nil {
			return nil, &headedError{error: err, header: http.Header{replica.ReadFromHeader: {replica.FromPrimary}}}
		}
		return withHeader(v, replica.ReadFromHeader, replica.FromPrimary), nil
	}
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		var err error
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, err
		}
	}
	attempt := func(c replica.Choice) (any, error) {
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		return h(s, r.WithContext(context.WithValue(r.Context(), readChoiceKey{}, c)))
	}
	c := s.replicas.Pick(r.Context(), t)
	v, err := attempt(c)
	if err != nil && c.Standby != nil && r.Context().Err() == nil && toAPIError(err).status >= 500 {
		s.logger.WarnContext(r.Context(), "a read failed on a standby: retrying on the primary", "standby", c.Standby.Name, "error", err)
		if connectionLost(err) {
			s.replicas.Failed(c.Standby)
		}
		c = s.replicas.Fallback()
		v, err = attempt(c)
	}
	if err != nil {
		return nil, &headedError{error: err, header: http.Header{replica.ReadFromHeader: {c.From()}}}
	}
	return withHeader(v, replica.ReadFromHeader, c.From()), nil
}

// headedError is a handler's error answered with headers (serve sets them before writing the
// error): a read's replica.ReadFromHeader, so that a 404 from a standby says where it came from.
type headedError struct {
	error
	header http.Header
}

// Unwrap is the error answered.
func (e *headedError) Unwrap() error { return e.error }

// connectionLost reports whether err says the server could not be reached or went away: an
// error of SQLSTATE class 08 or 57P, or one that is no server error at all (a refused or
// broken connection); the standby is down, not the query wrong.
func connectionLost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return len(pe.Code) == 5 && (pe.Code[:2] == "08" || pe.Code[:3] == "57P")
	}
	return true
}

// withHeader returns a handler's answer v with header k set to val.
func withHeader(v any, k, val string) *response {
	resp, ok := v.(*response)
	if !ok {
		resp = &response{status: http.StatusOK, body: v}
	}
	if resp.header == nil {
		resp.header = http.Header{}
	}
	resp.header.Set(k, val)
	return resp
}
