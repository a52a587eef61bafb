package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	zsql "github.com/zaxy/zaxy/sql"
)

// Defaults of the per-caller limits (Config).
const (
	// DefaultMaxInFlight is how many requests one caller may have in flight under
	// /v1/spaces/{space} at once.
	DefaultMaxInFlight = 32
	// DefaultMaxAnalyticsInFlight is how many analytics requests (AnalyticsRoute) one caller may
	// have in flight at once.
	DefaultMaxAnalyticsInFlight = 4
	// DefaultMaxResponseBytes caps a response body under /v1/spaces/{space}: 4 MiB.
	DefaultMaxResponseBytes = 4 << 20
)

// Retry-After, in seconds, of a 429: an ordinary request frees its slot quickly; an analytics
// request may run for its whole statement timeout.
const (
	retryAfterSeconds          = 1
	analyticsRetryAfterSeconds = 5
)

// callerKey is whom a request's in-flight budget belongs to: the bearer token's id when auth is
// on (the request has been authorized, so the id in the token is genuine), else the space.
// With auth off the service listens on loopback only, where every remote address is the same,
// so the space (the unit of isolation) is the only key that separates tenants.
func callerKey(r *http.Request, authOn bool) string {
	if authOn {
		// authorize has already accepted this token, so its id is genuine.
		if id, ok := auth.TokenID(bearerToken(r.Header.Get("Authorization"))); ok {
			return "token:" + id
		}
	}
	return "space:" + chi.URLParam(r, "space")
}

// inFlight counts each caller's requests in flight.
type inFlight struct {
	mu        sync.Mutex
	all       map[string]int
	analytics map[string]int
}

func newInFlight() *inFlight {
	return &inFlight{all: map[string]int{}, analytics: map[string]int{}}
}

// acquire takes a slot for key (and an analytics slot when analytics), or reports which budget
// is exhausted: "" when the slot was taken, else "requests" or "analytics".
func (f *inFlight) acquire(key string, analytics bool, maxAll, maxAnalytics int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.all[key] >= maxAll {
		return "requests"
	}
	if analytics && f.analytics[key] >= maxAnalytics {
		return "analytics"
	}
	f.all[key]++
	if analytics {
		f.analytics[key]++
	}
	return ""
}

// release gives back what acquire took, forgetting idle callers so the maps stay small.
func (f *inFlight) release(key string, analytics bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.all[key]--; f.all[key] <= 0 {
		delete(f.all, key)
	}
	if analytics {
		if f.analytics[key]--; f.analytics[key] <= 0 {
			delete(f.analytics, key)
		}
	}
}

// limitInFlight returns middleware (after authorize) bounding each caller's requests in
// flight: Config.MaxInFlight in all and, for a route of kind analytics,
// Config.MaxAnalyticsInFlight of them analytics ones. A request over a budget is answered at
// once with 429 too_many_requests and Retry-After. A request within its budget may still wait
// for its fair share of the pool (shareOf), which bounds each caller's queue to its budget.
func (s *server) limitInFlight(kind routeKind) func(http.Handler) http.Handler {
	isAnalytics := kind == analytics
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := callerKey(r, s.auth != nil)
			if over := s.inFlight.acquire(key, isAnalytics, s.cfg.MaxInFlight, s.cfg.MaxAnalyticsInFlight); over != "" {
				writeError(w, r, s.logger, tooManyRequests(over, s.cfg.MaxInFlight, s.cfg.MaxAnalyticsInFlight))
				return
			}
			defer s.inFlight.release(key, isAnalytics)
			ctx, release, over, err := s.holdInFlight(r.Context(), key, kind)
			if over != "" || err != nil {
				if err == nil {
					err = tooManyRequests(over, s.cfg.MaxInFlight, s.cfg.MaxAnalyticsInFlight)
				}
				writeError(w, r, s.logger, err)
				return
			}
			defer release()
			if ctx != r.Context() {
				r = r.WithContext(ctx)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// shareOf wraps h so that its database work runs within the caller's fair share of the pool
// the route of kind draws from (fairGate), taking kind.conns() slots: the caller key is
// limitInFlight's, the slots are
// taken before h runs and given back as soon as h returns, before the answer is encoded and
// written. A request whose deadline passes while it waits gets 503 pool_busy.
func (s *server) shareOf(kind routeKind, h handlerFunc) handlerFunc {
	gate, pool := s.hotGate, "hot-path"
	if kind == analytics {
		gate, pool = s.analyticsGate, "analytics"
	}
	n := kind.conns()
	return func(s *server, r *http.Request) (any, error) {
		key := callerKey(r, s.auth != nil)
		// The share across instances first, then this instance's gate: a request waiting at the
		// gate holds its share, one waiting for its share holds no slot of the gate.
		release, err := s.holdShare(r.Context(), gate, key, n)
		if err != nil {
			return nil, poolBusy(pool, gate.share, err)
		}
		defer release()
		if err := gate.acquire(r.Context(), key, n); err != nil {
			return nil, poolBusy(pool, gate.share, err)
		}
		defer gate.release(key, n)
		return h(s, r)
	}
}

// poolBusy is the answer to a request whose wait for its share of pool ended with err.
func poolBusy(pool string, share int, err error) error {
	if !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("wait for a share of the %s pool: %w", pool, err)
	}
	return &apiError{status: http.StatusServiceUnavailable, code: "pool_busy", retryAfter: retryAfterSeconds,
		message: fmt.Sprintf("the request's deadline passed while it waited for a connection of the %s pool (each caller may hold at most %d of them)", pool, share),
		details: map[string]any{"pool": pool, "share": share, "retry_after_seconds": retryAfterSeconds}}
}

// tooManyRequests is the 429 for a caller over its budget over ("requests" or "analytics").
func tooManyRequests(over string, maxAll, maxAnalytics int) *apiError {
	limit, after := maxAll, retryAfterSeconds
	msg := fmt.Sprintf("this caller already has %d requests in flight; retry when one has finished", limit)
	if over == "analytics" {
		limit, after = maxAnalytics, analyticsRetryAfterSeconds
		msg = fmt.Sprintf("this caller already has %d analytics requests (cypher, facts, entities, index, timeline, items, verify) in flight; retry when one has finished", limit)
	}
	return &apiError{status: http.StatusTooManyRequests, code: "too_many_requests", message: msg, retryAfter: after,
		details: map[string]any{"budget": over, "limit": limit, "retry_after_seconds": after}}
}

// responseTooLarge is the 413 for a response that would pass limit bytes; field, when set, is
// the parameter that would make it smaller.
func responseTooLarge(limit int64, field string) *apiError {
	d := map[string]any{"limit_bytes": limit}
	msg := fmt.Sprintf("the response would pass the %d-byte limit; ask for less (a smaller limit or max_tokens, a narrower filter)", limit)
	if field != "" {
		d["field"] = field
	}
	return &apiError{status: http.StatusRequestEntityTooLarge, code: "response_too_large", message: msg, details: d}
}

// pageOverheadBytes is what a page's envelope ({"events":[...],"next_after_seq":N} and the
// like) may add to its items.
const pageOverheadBytes = 256

// fitReplayPage trims a replay page to the events that fit in limit bytes, ending it at the
// last event that fits with next_after_seq set to that event's seq, so that a client following
// next_after_seq reads the rest. A first event that alone passes limit cannot be paged past:
// that is a 413 naming limit.
func fitReplayPage(page *eventloom.ReplayPage, limit int64) error {
	used := int64(pageOverheadBytes)
	for i, ev := range page.Events {
		b, err := json.Marshal(ev)
		if err != nil {
			return fmt.Errorf("encode event: %w", err)
		}
		used += int64(len(b)) + 1
		if used > limit {
			if i == 0 {
				return eventTooLarge(ev.Seq, limit)
			}
			page.Events = page.Events[:i]
			page.NextAfterSeq = page.Events[i-1].Seq
			return nil
		}
	}
	return nil
}

// eventTooLarge is the 413 for an event that alone passes the response cap: no page can hold
// it, so no cursor gets past it at this cap.
func eventTooLarge(seq, limit int64) *apiError {
	e := responseTooLarge(limit, "limit")
	e.details["seq"] = seq
	e.message = fmt.Sprintf("event %d alone passes the %d-byte response limit (ZAXY_MAX_RESPONSE_BYTES)", seq, limit)
	return e
}

// qReplayFit is hand-written: it shares replay.sql's filters (eventloom) and measures the
// stored size of the rows they select.
var qReplayFit = zsql.Query("api/replay_fit")

// replayFitArgs are replay_fit.sql's parameters: replay.sql's (the page of SpaceID after
// AfterSeq, up to UntilSeq when set, of SessionID when set, recorded before RecordedBefore when
// set, at most Rows events) and the byte budget the page's rows must fit.
type replayFitArgs struct {
	SpaceID        string
	AfterSeq       int64
	UntilSeq       *int64
	SessionID      string
	RecordedBefore *time.Time
	Rows           int
	Budget         int64
}

// replayFit is replay_fit.sql's row.
type replayFit struct {
	Total    int64 `db:"total"`     // rows the page would hold
	Fit      int64 `db:"fit"`       // how many of them fit the budget
	FitSeq   int64 `db:"fit_seq"`   // the last seq that fits
	FirstSeq int64 `db:"first_seq"` // the first seq of the page
}

// queryReplayFit runs replay_fit.sql.
func queryReplayFit(ctx context.Context, db pgexec.Executor, a replayFitArgs) (replayFit, error) {
	rows, err := db.Query(ctx, qReplayFit, a.SpaceID, a.AfterSeq, a.UntilSeq, a.SessionID, a.RecordedBefore, a.Rows, a.Budget)
	if err != nil {
		return replayFit{}, err
	}
	return pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[replayFit])
}

// boundReplay narrows a replay (of a space validSpace has checked) before its rows are read, so that a page of large events is
// never loaded past the response cap: it measures the stored size of the rows the page would
// hold and, when they would pass limit bytes, ends the page at the last row that fits
// (p.UntilSeq, p.Limit). It returns the cursor of the rest (0 when the page is whole).
// fitReplayPage then trims to the exact encoded size.
func (s *server) boundReplay(ctx context.Context, db pgexec.Executor, p *eventloom.ReplayParams, limit int64) (int64, error) {
	if p.AfterSeq < 0 || p.UntilSeq < 0 {
		return 0, nil // the store refuses them, naming the field
	}
	rows := p.Limit
	if rows == 0 {
		rows = eventloom.DefaultReplayLimit
	}
	var until *int64
	if p.UntilSeq > 0 {
		until = &p.UntilSeq
	}
	page, err := queryReplayFit(ctx, db, replayFitArgs{SpaceID: p.SpaceID, AfterSeq: p.AfterSeq, UntilSeq: until,
		SessionID: p.SessionID, RecordedBefore: p.RecordedBefore, Rows: rows, Budget: limit - pageOverheadBytes})
	if err != nil {
		return 0, fmt.Errorf("measure replay page: %w", err)
	}
	switch {
	case page.Fit == page.Total:
		return 0, nil
	case page.Fit == 0:
		return 0, eventTooLarge(page.FirstSeq, limit)
	}
	p.UntilSeq, p.Limit = page.FitSeq, int(page.Fit)
	return page.FitSeq, nil
}
