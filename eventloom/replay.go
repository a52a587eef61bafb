package eventloom

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/zaxy/zaxy/internal/pgexec"
	zsql "github.com/zaxy/zaxy/sql"
)

// qReplay is hand-written: its rows are eventloom.Row, shared with other packages' event queries.
var qReplay = zsql.Query("eventloom/replay")

// replayArgs are replay.sql's parameters.
type replayArgs struct {
	SpaceID  string
	AfterSeq int64
	// UntilSeq bounds the page by seq; nil for none.
	UntilSeq *int64
	// SessionID keeps one session's events; empty for all.
	SessionID string
	// RecordedBefore bounds the page by recorded_at; not Valid for none.
	RecordedBefore pgtype.Timestamptz
	Limit          int
}

// queryReplay runs replay.sql; ScanEvent reads its rows.
func queryReplay(ctx context.Context, db pgexec.Executor, a replayArgs) (pgx.Rows, error) {
	return db.Query(ctx, qReplay, a.SpaceID, a.AfterSeq, a.UntilSeq, a.SessionID, a.RecordedBefore, a.Limit)
}

// Replay page sizes.
const (
	DefaultReplayLimit = 100
	MaxReplayLimit     = 10000
)

// ReplayParams selects events of one space in seq order.
type ReplayParams struct {
	// SpaceID is the space to read.
	SpaceID string
	// AfterSeq is the cursor: only events with seq > AfterSeq (0 = from the start).
	AfterSeq int64
	// UntilSeq, when > 0, is the last seq to include.
	UntilSeq int64
	// SessionID, when set, keeps only that session's events.
	SessionID string
	// RecordedBefore, when set, keeps only events recorded at or before it.
	RecordedBefore *time.Time
	// Limit is the page size; 0 means DefaultReplayLimit; at most MaxReplayLimit.
	Limit int
}

// Replay returns one page of a space's events. An unknown space is ErrNotFound.
func (s *Store) Replay(ctx context.Context, p *ReplayParams) (*ReplayPage, error) {
	if err := ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	limit := p.Limit
	switch {
	case limit == 0:
		limit = DefaultReplayLimit
	case limit < 0 || limit > MaxReplayLimit:
		return nil, invalid("limit", "must be between 1 and %d", MaxReplayLimit)
	}
	if p.AfterSeq < 0 {
		return nil, invalid("after_seq", "must not be negative")
	}
	if p.UntilSeq < 0 {
		return nil, invalid("until_seq", "must not be negative")
	}
	var until *int64
	if p.UntilSeq > 0 {
		until = &p.UntilSeq
	}
	var before pgtype.Timestamptz
	if p.RecordedBefore != nil {
		before = pgtype.Timestamptz{Time: *p.RecordedBefore, Valid: true}
	}
	rows, err := queryReplay(ctx, s.db, replayArgs{SpaceID: p.SpaceID, AfterSeq: p.AfterSeq, UntilSeq: until,
		SessionID: p.SessionID, RecordedBefore: before, Limit: limit + 1})
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	events, err := pgx.CollectRows(rows, ScanEvent)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if len(events) == 0 && p.AfterSeq == 0 {
		if err := s.requireSpace(ctx, p.SpaceID); err != nil {
			return nil, err
		}
	}
	page := &ReplayPage{Events: events}
	if len(events) > limit {
		page.Events = events[:limit]
		page.NextAfterSeq = events[limit-1].Seq
	}
	return page, nil
}

func (s *Store) requireSpace(ctx context.Context, space string) error {
	exists, err := s.q.SpaceExists(ctx, s.db, space)
	if err != nil {
		return fmt.Errorf("look up space: %w", err)
	}
	if !exists {
		return fmt.Errorf("%w: space %q has no events", ErrNotFound, space)
	}
	return nil
}

// ReplayAll calls fn for every matching event, page by page, until fn returns an error or the
// log ends. p.AfterSeq is advanced as it goes.
func (s *Store) ReplayAll(ctx context.Context, p ReplayParams, fn func(*Event) error) error {
	if p.Limit == 0 {
		p.Limit = 1000
	}
	for {
		page, err := s.Replay(ctx, &p)
		if err != nil {
			return err
		}
		for i := range page.Events {
			if err := fn(&page.Events[i]); err != nil {
				return err
			}
		}
		if page.NextAfterSeq == 0 {
			return nil
		}
		p.AfterSeq = page.NextAfterSeq
	}
}
