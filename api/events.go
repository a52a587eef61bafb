package api

import (
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/vocab"
)

// appendEvents serves POST /v1/spaces/{space}/events: one event (eventloom.NewEvent) or a
// batch {"events":[...]}, all or nothing.
func (s *server) appendEvents(w http.ResponseWriter, r *http.Request) {
	space := chi.URLParam(r, "space")
	if err := eventloom.ValidateSpaceID(space); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	events, err := eventloom.DecodeAppendBody(body)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	if len(events) > s.cfg.MaxBatch {
		writeError(w, r, s.logger, &apiError{status: http.StatusRequestEntityTooLarge, code: "batch_too_large",
			message: fmt.Sprintf("events: a batch may hold at most %d events, got %d", s.cfg.MaxBatch, len(events)),
			details: map[string]any{"field": "events", "max": s.cfg.MaxBatch, "got": len(events)}})
		return
	}
	admin, err := s.mayAppendPrivileged(r, space, events)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	res, err := s.store.Append(r.Context(), &eventloom.AppendParams{
		SpaceID: space, Events: events, IdempotencyKey: r.Header.Get("Idempotency-Key"), Admin: admin,
	})
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	status := http.StatusCreated
	if res.Replayed {
		status = http.StatusOK
	} else {
		s.metrics.appended.Add(float64(len(res.Receipts)))
	}
	writeJSON(w, status, res)
}

// replayEvents serves GET /v1/spaces/{space}/events (ReplayQuery): one page of the log.
func (s *server) replayEvents(w http.ResponseWriter, r *http.Request) {
	var q ReplayQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	p := eventloom.ReplayParams{SpaceID: chi.URLParam(r, "space"), SessionID: q.SessionID,
		AfterSeq: q.AfterSeq, UntilSeq: q.UntilSeq, RecordedBefore: q.RecordedBefore}
	if q.Limit != nil {
		if *q.Limit < 1 || *q.Limit > 1000 {
			writeError(w, r, s.logger, &eventloom.ValidationError{Field: "limit", Message: "must be an integer between 1 and 1000"})
			return
		}
		p.Limit = int(*q.Limit)
	}
	next, err := s.boundReplay(r.Context(), &p, s.cfg.MaxResponseBytes)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	page, err := s.store.Replay(r.Context(), &p)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	if next > 0 {
		page.NextAfterSeq = next
	}
	if err := fitReplayPage(page, s.cfg.MaxResponseBytes); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// verify serves GET /v1/spaces/{space}/verify (VerifyQuery): the chain recomputed.
func (s *server) verify(w http.ResponseWriter, r *http.Request) {
	var q VerifyQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	res, err := s.analyticsStore.VerifyWith(r.Context(), chi.URLParam(r, "space"), q.Method)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// mayAppendPrivileged checks the events only an admin may append (redaction.configured):
// when there are some, it reports true for an admin, or an error answering 403 naming the
// first such event's type; without any it reports false (no extra token check).
func (s *server) mayAppendPrivileged(r *http.Request, space string, events []eventloom.NewEvent) (bool, error) {
	first := slices.IndexFunc(events, func(e eventloom.NewEvent) bool { return e.Type == vocab.TypeRedactionConfigured })
	if first < 0 {
		return false, nil
	}
	admin, err := s.hasAdminScope(r, space)
	if err != nil || admin {
		return admin, err
	}
	field := "type"
	if len(events) > 1 {
		field = fmt.Sprintf("events[%d].type", first)
	}
	return false, &apiError{status: http.StatusForbidden, code: "forbidden",
		message: fmt.Sprintf("%s: %s needs a token of admin scope for this space", field, vocab.TypeRedactionConfigured),
		details: map[string]any{"field": field, "required_scope": auth.ScopeAdmin}}
}
