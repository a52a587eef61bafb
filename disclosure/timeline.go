package disclosure

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// TimelineTypes are the event types the timeline shows: actions and decisions, fact changes
// and messages. Other types (document chunks, feedback, custom types) are in the index.
var TimelineTypes = []string{
	vocab.TypeDecisionRecorded, vocab.TypeTaskUpdated, vocab.TypeToolCallCompleted,
	vocab.TypeFactAsserted, vocab.TypeFactRetracted, vocab.TypeMemoryInvalidated,
	vocab.TypePreferenceStated, vocab.TypeMessage,
}

// TimelineParams selects a timeline.
type TimelineParams struct {
	// SpaceID is required.
	SpaceID string
	// SessionID, when set, keeps only that session's events.
	SessionID string
	// MaxTokens is the budget of the rendered text, MinMaxTokens..MaxMaxTokens; 0 means
	// DefaultTimelineTokens.
	MaxTokens int
	// BeforeSeq, when set, starts below that seq (the NextBeforeSeq of a previous page).
	BeforeSeq int64
}

// minLineRunes is the shortest line a timeline entry renders to, with its newline.
const minLineRunes = 35

// Timeline returns the recent actions and decisions of a space. Errors: a
// *validation.Error naming "space", "session_id", "max_tokens" or "before_seq" for
// bad input, one matching eventloom.ErrNotFound for an unknown space.
func Timeline(ctx context.Context, q Querier, p TimelineParams) (*TimelineView, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(p.SessionID) > 256 {
		return nil, &validation.Error{Field: "session_id", Message: "must be at most 256 characters"}
	}
	if err := checkMaxTokens(&p.MaxTokens, DefaultTimelineTokens); err != nil {
		return nil, err
	}
	if p.BeforeSeq < 0 {
		return nil, &validation.Error{Field: "before_seq", Message: "must be a positive integer"}
	}
	before := p.BeforeSeq
	if before == 0 {
		before = math.MaxInt64
	}
	budget := p.MaxTokens * 4 // runes
	limit := budget/minLineRunes + 2

	v := &TimelineView{SpaceID: p.SpaceID, SessionID: p.SessionID, BeforeSeq: p.BeforeSeq, MaxTokens: p.MaxTokens, Entries: []EventLine{}}
	var lines []EventLine
	err := snapshot(ctx, q, func(q Querier) error {
		if _, err := loadSpace(ctx, q, p.SpaceID); err != nil {
			return err
		}
		var err error
		lines, err = queryTimeline(ctx, q, timelineArgs{SpaceID: p.SpaceID, Types: TimelineTypes, BeforeSeq: before, Limit: limit, SessionID: p.SessionID})
		if err != nil {
			return fmt.Errorf("query timeline: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	header := "timeline of " + p.SpaceID
	if p.SessionID != "" {
		header += ", session " + p.SessionID
	}
	if p.BeforeSeq > 0 {
		header += fmt.Sprintf(", before #%d", p.BeforeSeq)
	}
	header += ", newest first:"
	if utf8.RuneCountInString(header) > budget {
		header = string([]rune(header)[:budget-1]) + "…"
	}
	var b strings.Builder
	b.WriteString(header)
	used := utf8.RuneCountInString(header)
	for _, l := range lines {
		s := "\n" + renderLine(&l)
		n := utf8.RuneCountInString(s)
		if used+n > budget && len(v.Entries) == 0 {
			// The newest line alone is too long for a small budget: clip its text, keeping
			// the citation marker whole, so that paging always moves on.
			if room := budget - used; room >= 1+utf8.RuneCountInString(marker(l.Seq, l.Hash))+2 {
				s = string([]rune(s)[:room-1]) + "…"
				n = room
			}
		}
		if used+n > budget {
			break
		}
		used += n
		b.WriteString(s)
		v.Entries = append(v.Entries, l)
	}
	v.More = len(v.Entries) < len(lines)
	if v.More && len(v.Entries) > 0 {
		v.NextBeforeSeq = v.Entries[len(v.Entries)-1].Seq
	}
	v.Text = b.String()
	v.Tokens = EstimateTokens(v.Text)
	return v, nil
}

// timelineArgs are the parameters of timeline.sql and, with a SessionID, timeline_session.sql:
// the newest Limit events of SpaceID of the Types before seq BeforeSeq (of one session when
// SessionID is set).
type timelineArgs struct {
	SpaceID   string
	Types     []string
	BeforeSeq int64
	Limit     int
	SessionID string
}

// queryTimeline runs timeline.sql, or timeline_session.sql when a.SessionID is set.
func queryTimeline(ctx context.Context, q Querier, a timelineArgs) ([]EventLine, error) {
	var rows pgx.Rows
	var err error
	if a.SessionID == "" {
		rows, err = q.Query(ctx, qTimeline, a.SpaceID, a.Types, a.BeforeSeq, a.Limit)
	} else {
		rows, err = q.Query(ctx, qTimelineSession, a.SpaceID, a.Types, a.BeforeSeq, a.Limit, a.SessionID)
	}
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanLine)
}
