package api

import (
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/review"
)

// spacePrefix is where every operation on a space is mounted.
const spacePrefix = "/v1/spaces/{space}"

// routeKind says which in-flight budget (and which pool) an operation under spacePrefix uses.
type routeKind int

const (
	// everyday operations (appends, replay, reads of one thing) count against
	// Config.MaxInFlight only and use one hot-path connection at a time.
	everyday routeKind = iota
	// fanout operations are everyday ones that run checkout's lanes side by side, each on its
	// own hot-path connection: they take checkoutConns slots of their caller's fair share (at
	// most the whole share).
	fanout
	// analytics operations read broadly (Cypher, facts, entities, the disclosure views, chain
	// verification): they run on Services.Analytics and also count against
	// Config.MaxAnalyticsInFlight.
	analytics
)

// checkoutConns is the hot-path connections a checkout counts as holding: the most its lanes
// can hold at once. Ten goroutines of a checkout may each hold one (whether the space exists;
// the vector lane and its promotion check; exact then graph; PPR; keyword then reply; remedy;
// topic; verbatim, recent and the side reads; the event prefetch). On a space of 3,000
// events one request of each fanout route was seen holding up to 9 at once, and 1.3 to 2.1 on
// average over its run (TestHTTP_AFanoutRequestHoldsAtMostItsWeightInConnections, which fails
// if one ever holds more than this). fairGate caps the weight at a caller's share, so on the
// default pool of 16 a caller runs one such request at a time.
const checkoutConns = 10

// conns is how many pool connections a request of the kind counts as holding at once: the
// slots it takes of its caller's fair share of the pool (fairGate).
func (k routeKind) conns() int {
	if k == fanout {
		return checkoutConns
	}
	return 1
}

// spaceRoute is one operation under spacePrefix and everything the server needs to know to
// guard it: the scope a token must have, its in-flight budget and the handler.
type spaceRoute struct {
	method, pattern string
	scope           string
	kind            routeKind
	handle          handlerFunc
}

// spaceRoutes are the operations under /v1/spaces/{space}, each declared with the scope it
// needs. This table is the only place a route's scope is decided: NewHandler registers each
// route behind authorize(scope), ScopeFor reads it for the MCP capabilities, and a test walks
// the router and fails when an operation that is not a GET can be called with a read token.
// A route that appends or erases (scope write or admin) is also left out of the response cap.
var spaceRoutes = []spaceRoute{
	// method, pattern (under spacePrefix), scope, kind, handler
	{http.MethodPost, "/events", auth.ScopeWrite, everyday, (*server).appendEvents},
	{http.MethodGet, "/events", auth.ScopeRead, everyday, (*server).replayEvents},
	{http.MethodPost, "/erasures", auth.ScopeAdmin, everyday, (*server).erase},
	{http.MethodGet, "/verify", auth.ScopeRead, analytics, (*server).verify},
	{http.MethodPost, "/documents", auth.ScopeWrite, everyday, (*server).ingestDocuments},
	{http.MethodPost, "/transcripts", auth.ScopeWrite, everyday, (*server).ingestTranscript},
	{http.MethodGet, "/facts", auth.ScopeRead, analytics, (*server).listFacts},
	{http.MethodGet, "/entities/{entity}", auth.ScopeRead, analytics, (*server).getEntity},
	{http.MethodGet, "/projection", auth.ScopeRead, everyday, (*server).projectionStatus},
	{http.MethodGet, "/salience", auth.ScopeRead, everyday, (*server).salience},
	{http.MethodPost, "/cypher", auth.ScopeRead, analytics, (*server).cypher},
	{http.MethodGet, "/index", auth.ScopeRead, analytics, (*server).index},
	{http.MethodGet, "/timeline", auth.ScopeRead, analytics, (*server).timeline},
	{http.MethodGet, "/items/{id}", auth.ScopeRead, analytics, (*server).item},
	{http.MethodGet, "/items/{id}/salience", auth.ScopeRead, everyday, (*server).itemSalience},
	{http.MethodPost, "/checkout", auth.ScopeRead, fanout, (*server).checkoutPacket},
	{http.MethodGet, "/checkouts/{seq}", auth.ScopeRead, everyday, (*server).recordedCheckout},
	{http.MethodPost, "/query", auth.ScopeRead, fanout, (*server).query},
	{http.MethodPost, "/context/assemble", auth.ScopeRead, fanout, (*server).assemble},
	{http.MethodPost, "/context/after-turn", auth.ScopeWrite, fanout, (*server).afterTurn},
	{http.MethodPost, "/handoff", auth.ScopeRead, fanout, (*server).handoff},
	{http.MethodPost, "/feeling-of-knowing", auth.ScopeRead, everyday, (*server).feelingOfKnowing},
	{http.MethodPost, "/weave", auth.ScopeRead, fanout, (*server).weaveMemory},
	{http.MethodPost, "/prospective", auth.ScopeRead, fanout, (*server).prospective},
	{http.MethodPost, "/subagents/{id}/cleanup", auth.ScopeWrite, fanout, (*server).cleanupSubagent},
	{http.MethodPost, "/sessions/{session}/resume", auth.ScopeWrite, fanout, (*server).resume},
	// Review: reading the queue is part of reviewing, so every review route needs write.
	{http.MethodGet, "/proposals", auth.ScopeRead, everyday, (*server).listProposals},
	{http.MethodGet, "/proposals/{seq}", auth.ScopeRead, everyday, (*server).getProposal},
	{http.MethodPost, "/proposals/{seq}/accept", auth.ScopeWrite, everyday, decide(review.DecisionAccept)},
	{http.MethodPost, "/proposals/{seq}/reject", auth.ScopeWrite, everyday, decide(review.DecisionReject)},
	{http.MethodPost, "/proposals/{seq}/defer", auth.ScopeWrite, everyday, decide(review.DecisionDefer)},
	// Latent artifacts (docs/latent.md), as the console lists them.
	{http.MethodGet, "/artifacts", auth.ScopeRead, everyday, (*server).listArtifacts},
	// Memory actions (docs/latent.md): the reads cite events and append nothing; the writes
	// append exactly one event each.
	{http.MethodPost, "/actions/simulate-forward", auth.ScopeRead, everyday, (*server).simulateForward},
	{http.MethodPost, "/actions/reflect-backward", auth.ScopeRead, everyday, (*server).reflectBackward},
	{http.MethodPost, "/actions/retrieve-procedure-prior", auth.ScopeRead, everyday, (*server).procedurePrior},
	{http.MethodPost, "/actions/retrieve-failure-prior", auth.ScopeRead, everyday, (*server).failurePrior},
	{http.MethodPost, "/actions/query-causal-neighborhood", auth.ScopeRead, everyday, (*server).causalNeighborhood},
	{http.MethodPost, "/actions/propose-memory-update", auth.ScopeWrite, everyday, (*server).proposeMemoryUpdate},
	{http.MethodPost, "/actions/revise-confidence", auth.ScopeWrite, everyday, (*server).reviseConfidence},
	{http.MethodPost, "/actions/record-known-unknown", auth.ScopeWrite, everyday, (*server).recordKnownUnknown},
	{http.MethodPost, "/actions/score-memory-action", auth.ScopeWrite, everyday, (*server).scoreMemoryAction},
	// Retrieval policy: fitting, promoting and rolling back change how the whole space ranks
	// (and append privileged policy.* events), so they need admin; listing is a read.
	{http.MethodGet, "/policies", auth.ScopeRead, everyday, (*server).listPolicies},
	{http.MethodPost, "/policies/fit", auth.ScopeAdmin, analytics, (*server).fitPolicy},
	{http.MethodPost, "/policies/rollback", auth.ScopeAdmin, everyday, (*server).rollbackPolicy},
	{http.MethodPost, "/policies/{version}/promote", auth.ScopeAdmin, analytics, (*server).promotePolicy},
}

// capped reports whether the route's response is held to Config.MaxResponseBytes: reads are;
// routes that change the log are not.
func (rt *spaceRoute) capped() bool { return rt.scope == auth.ScopeRead }

// mountSpaceRoutes registers spaceRoutes on r (mounted at spacePrefix). Each route runs, in
// order: authorize with its scope (so a request for a space the token does not reach learns
// nothing about it, not even whether its id is valid), requireJSON, limitInFlight with its
// budget, validSpace, and the handler through serve within its caller's fair share of its
// pool (shareOf). A path under the prefix that matches no
// route, or not with this method, is answered 404 or 405 after a read-scope check.
func (s *server) mountSpaceRoutes(r chi.Router) {
	guard := s.authorize(auth.ScopeRead)
	r.NotFound(guard(http.HandlerFunc(s.routeNotFound)).ServeHTTP)
	r.MethodNotAllowed(guard(http.HandlerFunc(s.methodNotAllowed)).ServeHTTP)
	for i := range spaceRoutes {
		rt := &spaceRoutes[i]
		var capBytes int64
		if rt.capped() {
			capBytes = s.cfg.MaxResponseBytes
		}
		r.With(s.authorize(rt.scope), s.requireJSON, s.limitInFlight(rt.kind), s.validSpace).
			Method(rt.method, rt.pattern, s.serve(s.shareOf(rt.kind, s.consistent(rt, rt.handle)), capBytes))
	}
}

// routeIndex finds the declared route of a method and a path under /v1/spaces (a concrete
// path or the pattern itself, "/v1/spaces/{space}/entities/{entity}"), matched as chi does.
var routeIndex = sync.OnceValue(func() func(method, path string) *spaceRoute {
	mux := chi.NewRouter()
	byPattern := map[string]*spaceRoute{}
	for i := range spaceRoutes {
		rt := &spaceRoutes[i]
		mux.Method(rt.method, spacePrefix+rt.pattern, http.NotFoundHandler())
		byPattern[rt.method+" "+spacePrefix+rt.pattern] = rt
	}
	return func(method, path string) *spaceRoute {
		pattern := mux.Find(chi.NewRouteContext(), method, path)
		return byPattern[method+" "+pattern]
	}
})

// ScopeFor is the scope the operation method path needs, as spaceRoutes declares it: path is
// under /v1/spaces/{space}, concrete or the pattern itself ("/v1/spaces/{space}/events").
// It is "" for a path that is no operation.
func ScopeFor(method, path string) string {
	if rt := routeIndex()(method, path); rt != nil {
		return rt.scope
	}
	return ""
}

// AnalyticsRoute reports whether an operation under /v1/spaces/{space} is an analytics one, as
// spaceRoutes declares it: Cypher, facts, entities, index, timeline, items or verify. Those run
// on Services.Analytics and count against Config.MaxAnalyticsInFlight as well as
// Config.MaxInFlight.
func AnalyticsRoute(method, path string) bool {
	rt := routeIndex()(method, path)
	return rt != nil && rt.kind == analytics
}
