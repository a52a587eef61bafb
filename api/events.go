package api

import (
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// appendEvents serves POST /v1/spaces/{space}/events: one event (eventloom.NewEvent) or a
// batch {"events":[...]}, all or nothing. 201 with the receipts; 200 when the Idempotency-Key
// names an earlier append of the same body.
func (s *server) appendEvents(r *http.Request) (any, error) {
	space := chi.URLParam(r, "space")
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	events, err := eventloom.DecodeAppendBody(body)
	if err != nil {
		return nil, err
	}
	if len(events) > s.cfg.MaxBatch {
		return nil, &apiError{status: http.StatusRequestEntityTooLarge, code: "batch_too_large",
			message: fmt.Sprintf("events: a batch may hold at most %d events, got %d", s.cfg.MaxBatch, len(events)),
			details: map[string]any{"field": "events", "max": s.cfg.MaxBatch, "got": len(events)}}
	}
	admin, err := s.mayAppendPrivileged(r, space, events)
	if err != nil {
		return nil, err
	}
	res, err := s.store.Append(r.Context(), &eventloom.AppendParams{
		SpaceID: space, Events: events, IdempotencyKey: r.Header.Get("Idempotency-Key"), Admin: admin,
	})
	if err != nil {
		return nil, err
	}
	if res.Replayed {
		return res, nil
	}
	s.metrics.appended.Add(float64(len(res.Receipts)))
	return withStatus(http.StatusCreated, res), nil
}

// replayEvents serves GET /v1/spaces/{space}/events (ReplayQuery): one page of the log, ended
// before the response cap with a cursor (boundReplay, fitReplayPage).
func (s *server) replayEvents(r *http.Request) (any, error) {
	var q ReplayQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	p := eventloom.ReplayParams{SpaceID: chi.URLParam(r, "space"), SessionID: q.SessionID,
		AfterSeq: q.AfterSeq, UntilSeq: q.UntilSeq, RecordedBefore: q.RecordedBefore}
	if q.Limit != nil {
		if *q.Limit < 1 || *q.Limit > 1000 {
			return nil, &validation.Error{Field: "limit", Message: "must be an integer between 1 and 1000"}
		}
		p.Limit = int(*q.Limit)
	}
	next, err := s.boundReplay(r.Context(), readPool(r, s.pool), &p, s.cfg.MaxResponseBytes)
	if err != nil {
		return nil, err
	}
	page, err := s.readStore(r, s.store).Replay(r.Context(), &p)
	if s.noEvents(r, err) {
		return emptyReplay(), nil
	}
	if err != nil {
		return nil, err
	}
	if next > 0 {
		page.NextAfterSeq = next
	}
	if err := fitReplayPage(page, s.cfg.MaxResponseBytes); err != nil {
		return nil, err
	}
	return page, nil
}

// verify serves GET /v1/spaces/{space}/verify (VerifyQuery): the chain recomputed.
func (s *server) verify(r *http.Request) (any, error) {
	var q VerifyQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	res, err := s.readStore(r, s.analyticsStore).VerifyWith(r.Context(), chi.URLParam(r, "space"), q.Method)
	if s.noEvents(r, err) {
		return emptyVerify(chi.URLParam(r, "space"), q.Method), nil
	}
	return res, err
}

// mayAppendPrivileged checks the events only an admin may append (vocab.Privileged:
// redaction.configured and the retrieval policy's policy.* events):
// when there are some, it reports true for an admin, or an error answering 403 naming the
// first such event's type; without any it reports false (no extra token check).
func (s *server) mayAppendPrivileged(r *http.Request, space string, events []eventloom.NewEvent) (bool, error) {
	first := slices.IndexFunc(events, func(e eventloom.NewEvent) bool { return vocab.Privileged(e.Type) })
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
		message: fmt.Sprintf("%s: %s needs a token of admin scope for this space", field, events[first].Type),
		details: map[string]any{"field": field, "required_scope": auth.ScopeAdmin}}
}
