package api

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
)

// A space exists from its first append, and a read of a space with no events answers as for
// an empty space: 200 with an empty, well-formed answer, never space_not_found (docs/api.md,
// Spaces). Most reads find nothing there by themselves; the ones below ask the log for the
// space and answer its eventloom.ErrNotFound with the empty answer here.

// noEvents reports whether err is a read's eventloom.ErrNotFound for a request whose space has
// no events on the primary (not an unknown event in a space that has some). A standby that has
// not replayed a space's first events yet still answers space_not_found: the space has events,
// the read came too early (send Zaxy-Consistency to read your own writes).
func (s *server) noEvents(r *http.Request, err error) bool {
	if !errors.Is(err, eventloom.ErrNotFound) || errors.Is(err, eventloom.ErrEventNotFound) {
		return false
	}
	exists, xerr := s.store.SpaceExists(r.Context(), chi.URLParam(r, "space"))
	return xerr == nil && !exists
}

// emptyReplay is the replay of a space with no events: no events, no cursor.
func emptyReplay() *eventloom.ReplayPage { return &eventloom.ReplayPage{Events: []eventloom.Event{}} }

// emptyVerify is the chain of a space with no events: intact, empty.
func emptyVerify(space, method string) *eventloom.VerifyResult {
	if method == "" {
		method = eventloom.MethodGo
	}
	return &eventloom.VerifyResult{SpaceID: space, OK: true, Method: method}
}

// emptyProjection is the projection status of a space with no events: nothing to project.
func emptyProjection(space string) *projection.Status { return &projection.Status{SpaceID: space} }

// emptyCypher is a Cypher query's answer on a space with no events: no graph, no rows.
func emptyCypher() *graph.CypherResult { return &graph.CypherResult{Rows: [][]json.RawMessage{}} }
