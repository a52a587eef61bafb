package api

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/eventloom"
)

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
	res, err := s.store.Append(r.Context(), &eventloom.AppendParams{
		SpaceID: space, Events: events, IdempotencyKey: r.Header.Get("Idempotency-Key"),
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

func (s *server) replayEvents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := eventloom.ReplayParams{SpaceID: chi.URLParam(r, "space"), SessionID: q.Get("session_id")}
	ints := map[string]*int64{"after_seq": &p.AfterSeq, "until_seq": &p.UntilSeq}
	for name, dst := range ints {
		if v := q.Get(name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				writeError(w, r, s.logger, &eventloom.ValidationError{Field: name, Message: "must be an integer"})
				return
			}
			*dst = n
		}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, r, s.logger, &eventloom.ValidationError{Field: "limit", Message: "must be an integer between 1 and 1000"})
			return
		}
		p.Limit = n
	}
	if v := q.Get("recorded_before"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			writeError(w, r, s.logger, &eventloom.ValidationError{Field: "recorded_before", Message: "must be an RFC 3339 timestamp"})
			return
		}
		p.RecordedBefore = &t
	}
	page, err := s.store.Replay(r.Context(), &p)
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

func (s *server) verify(w http.ResponseWriter, r *http.Request) {
	res, err := s.store.VerifyWith(r.Context(), chi.URLParam(r, "space"), r.URL.Query().Get("method"))
	if err != nil {
		writeError(w, r, s.logger, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
