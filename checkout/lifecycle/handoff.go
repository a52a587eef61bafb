package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/lifecycle/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
)

func scanTail(row pgx.CollectableRow) (TailEvent, error) {
	e, err := eventloom.ScanEvent(row)
	return TailEvent{Seq: e.Seq, Hash: e.Hash, Type: e.Type, Actor: e.Actor, OccurredAt: e.OccurredAt,
		Content: e.Content, Data: e.Data}, err
}

// HandoffBundle builds the bundle for r.SessionID: what happened (summary and replay tail),
// whether the log is intact (chain status), what is open (recovery) and what memory says
// about the query (a checkout; the query defaults to the session's open work). A session with
// no events, in a space with or without events, has an empty bundle.
func (s *Service) HandoffBundle(ctx context.Context, r *HandoffRequest) (*Handoff, error) {
	if r.SessionID == "" {
		return nil, &validation.Error{Field: "session_id", Message: "is required"}
	}
	if r.TailEvents == 0 {
		r.TailEvents = 20
	}
	if r.TailEvents < 1 || r.TailEvents > 200 {
		return nil, &validation.Error{Field: "tail_events", Message: "must be between 1 and 200"}
	}
	if strings.TrimSpace(r.Query) == "" {
		r.Query = "open tasks, decisions and findings of session " + r.SessionID
	}
	if err := eventloom.ValidateSpaceID(r.SpaceID); err != nil {
		return nil, err
	}
	h := &Handoff{SpaceID: r.SpaceID, SessionID: r.SessionID, CreatedAt: time.Now().UTC()}
	var err error
	if h.Summary, err = s.summarize(ctx, r.SpaceID, r.SessionID); err != nil {
		return nil, err
	}
	if h.Tail, err = querySessionTail(ctx, s.pool, sessionTailArgs{SpaceID: r.SpaceID, SessionID: r.SessionID, Limit: r.TailEvents}); err != nil {
		return nil, fmt.Errorf("handoff: %w", err)
	}
	v, err := s.reads().Verify(ctx, r.SpaceID)
	if errors.Is(err, eventloom.ErrNotFound) {
		v, err = &eventloom.VerifyResult{OK: true}, nil // a space with no events: an empty chain
	}
	if err != nil {
		return nil, err
	}
	h.Chain = ChainStatus{OK: v.OK, HeadSeq: v.HeadSeq, HeadHash: v.HeadHash, BrokenSeq: v.BrokenSeq, Reason: v.Reason}
	if h.Recovery, err = s.Recover(ctx, r.SpaceID, r.SessionID); err != nil {
		return nil, err
	}
	req := r.Request
	req.NoRecord = true
	if h.Retrieval, err = s.checkout.Checkout(ctx, &req); err != nil {
		return nil, err
	}
	return h, nil
}

func (s *Service) summarize(ctx context.Context, space, session string) (SessionSummary, error) {
	sum := SessionSummary{SessionID: session, ByType: map[string]int{}}
	stats, err := queries.SessionStats(ctx, s.pool, dbsqlc.SessionStatsParams{SpaceID: space, SessionID: session})
	if err != nil {
		return sum, fmt.Errorf("summarize session: %w", err)
	}
	for _, st := range stats {
		sum.ByType[st.Type] = int(st.Events)
		sum.Events += st.Events
		if sum.FirstSeq == 0 || st.FirstSeq < sum.FirstSeq {
			sum.FirstSeq = st.FirstSeq
		}
		sum.LastSeq = max(sum.LastSeq, st.LastSeq)
		if sum.Started == nil || st.FirstAt.Before(*sum.Started) {
			t := st.FirstAt.UTC()
			sum.Started = &t
		}
		if sum.LastAt == nil || st.LastAt.After(*sum.LastAt) {
			t := st.LastAt.UTC()
			sum.LastAt = &t
		}
	}
	if sum.Events == 0 {
		sum.Text = fmt.Sprintf("Session %s: no events.", session)
		return sum, nil
	}
	var parts []string
	for _, t := range sortedKeys(sum.ByType) {
		parts = append(parts, fmt.Sprintf("%d %s", sum.ByType[t], t))
	}
	sum.Text = fmt.Sprintf("Session %s: %d events (seq %d to %d, %s to %s): %s.", session, sum.Events, sum.FirstSeq, sum.LastSeq,
		sum.Started.Format(time.RFC3339), sum.LastAt.Format(time.RFC3339), strings.Join(parts, ", "))
	return sum, nil
}

// sortedKeys are the keys of m in order.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
