package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
)

// recoveryK caps each recovery section.
const recoveryK = 10

// Recover builds the recovery packet of a session from the log (not the projections, which
// may lag): every item cites its event.
func (s *Service) Recover(ctx context.Context, space, session string) (*Recovery, error) {
	found, err := queryRecovery(ctx, s.pool, recoveryArgs{SpaceID: space, SessionID: session, K: recoveryK})
	if err != nil {
		return nil, fmt.Errorf("recover session: %w", err)
	}
	rec := &Recovery{SessionID: session, OpenTasks: []RecoveryItem{}, Findings: []RecoveryItem{}, Decisions: []RecoveryItem{}, KnownUnknowns: []RecoveryItem{}}
	for _, r := range found {
		it := RecoveryItem{Text: recoveryText(r.Kind, r.Content, r.Data), Citation: checkout.Citation{Seq: r.Seq, Hash: r.Hash}}
		switch r.Kind {
		case "open_task":
			rec.OpenTasks = append(rec.OpenTasks, it)
		case "finding":
			rec.Findings = append(rec.Findings, it)
		case "decision":
			rec.Decisions = append(rec.Decisions, it)
		default:
			rec.KnownUnknowns = append(rec.KnownUnknowns, it)
		}
	}
	var b strings.Builder
	section := func(title string, items []RecoveryItem) {
		if len(items) == 0 {
			return
		}
		b.WriteString(title + "\n")
		for _, it := range items {
			// One line each, whatever a task's title or an error holds (checkout.Remembered).
			b.WriteString(fmt.Sprintf("- %s (seq %d #%s)", checkout.Remembered(it.Text), it.Citation.Seq, it.Citation.Hash.String()[:8]) + "\n")
		}
	}
	section("## Open tasks", rec.OpenTasks)
	section("## Accepted findings", rec.Findings)
	section("## Recent decisions", rec.Decisions)
	section("## Known unknowns", rec.KnownUnknowns)
	rec.Text = b.String()
	rec.Tokens = checkout.EstimateTokens(rec.Text)
	return rec, nil
}

// recoveryText renders a recovery entry from its event.
func recoveryText(kind, content, data string) string {
	var d map[string]any
	_ = json.Unmarshal([]byte(data), &d)
	str := func(k string) string { v, _ := d[k].(string); return v }
	switch kind {
	case "open_task":
		t := fmt.Sprintf("task %s is %s", str("task_id"), str("status"))
		if title := str("title"); title != "" {
			t += ": " + title
		}
		return t
	case "finding":
		obj := str("object")
		if obj == "" {
			b, _ := json.Marshal(d["value"])
			obj = string(b)
		}
		return fmt.Sprintf("%s %s %s", str("subject"), str("predicate"), obj)
	case "decision":
		return "decided: " + str("decision")
	case "known_unknown":
		t := "not known: " + str("question")
		if c := str("context"); c != "" {
			t += " (came up in: " + c + ")"
		}
		return t
	}
	if tool := str("tool"); tool != "" {
		return fmt.Sprintf("%s failed: %s", tool, str("error"))
	}
	return checkout.Clip(strings.TrimSpace(content))
}

// Resume appends a session.resumed event (the agent's context was compacted) and returns
// the recovery packet.
func (s *Service) Resume(ctx context.Context, space, session string) (*Recovery, error) {
	if session == "" {
		return nil, &validation.Error{Field: "session_id", Message: "is required"}
	}
	res, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{{
		Type: SessionResumedType, SessionID: session, Actor: "zaxy", Data: json.RawMessage(`{}`),
	}}})
	if err != nil {
		return nil, err
	}
	rec, err := s.Recover(ctx, space, session)
	if err != nil {
		return nil, err
	}
	rec.ResumedSeq = res.Receipts[0].Seq
	return rec, nil
}
