package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/eventloom"
)

// Context lifecycle event types.
const (
	// SessionResumedType marks that an agent's context was compacted and it resumes the
	// session; assembling context after it returns a recovery packet.
	SessionResumedType = "session.resumed"
	// SubagentCleanedUpType records that a subagent finished and was cleaned up.
	SubagentCleanedUpType = "subagent.cleaned_up"
)

// AssembleRequest asks for the context of an agent's next step.
type AssembleRequest struct {
	Request
	// WorkingSet is what the agent holds right now (open files, the task at hand, notes);
	// it is included verbatim, ahead of ranked memory, within the budget.
	WorkingSet []string `json:"working_set,omitempty"`
}

// Assembled is assembled context: recent session replay, ranked memory (with the verbatim
// lane), the working set, and a recovery packet when the session was just resumed.
type Assembled struct {
	Packet     *Packet   `json:"packet"`
	WorkingSet []string  `json:"working_set"`
	Recovery   *Recovery `json:"recovery,omitempty"`
	// Text is the prompt-ready whole: the packet's text, then the working set.
	Text string `json:"text"`
	// Tokens is the estimate for Text; it never exceeds the request's max_tokens.
	Tokens int `json:"tokens"`
}

const workingSetHeader = "## Working set"

// maxWorkingSetItems caps the working set's entries.
const maxWorkingSetItems = 50

// Assemble builds the context for an agent's next step within r.MaxTokens.
func (s *Service) Assemble(ctx context.Context, r *AssembleRequest) (*Assembled, error) {
	if r.MaxTokens == 0 {
		r.MaxTokens = DefaultMaxTokens
	}
	if len(r.WorkingSet) > maxWorkingSetItems {
		return nil, &eventloom.ValidationError{Field: "working_set", Message: fmt.Sprintf("may hold at most %d entries", maxWorkingSetItems)}
	}
	ws := ""
	if len(r.WorkingSet) > 0 {
		ws = workingSetHeader + "\n- " + strings.Join(r.WorkingSet, "\n- ") + "\n"
	}
	wsTokens := EstimateTokens(ws)
	if wsTokens > r.MaxTokens/2 {
		return nil, &eventloom.ValidationError{Field: "working_set", Message: fmt.Sprintf("takes %d tokens, more than half of max_tokens (%d)", wsTokens, r.MaxTokens)}
	}
	req := r.Request
	req.MaxTokens = r.MaxTokens - wsTokens
	if req.MaxTokens < MinMaxTokens {
		return nil, &eventloom.ValidationError{Field: "max_tokens", Message: fmt.Sprintf("leaves %d tokens for memory after the working set; at least %d are needed", req.MaxTokens, MinMaxTokens)}
	}
	p, err := s.Checkout(ctx, &req)
	if err != nil {
		return nil, err
	}
	a := &Assembled{Packet: p, WorkingSet: r.WorkingSet, Text: p.Text + ws}
	if a.WorkingSet == nil {
		a.WorkingSet = []string{}
	}
	a.Tokens = EstimateTokens(a.Text)
	if r.SessionID != "" {
		resumed, err := s.lastEventIs(ctx, r.SpaceID, r.SessionID, SessionResumedType)
		if err != nil {
			return nil, err
		}
		if resumed {
			if a.Recovery, err = s.Recover(ctx, r.SpaceID, r.SessionID); err != nil {
				return nil, err
			}
		}
	}
	return a, nil
}

// lastEventIs reports whether the session's latest non-bookkeeping event has type typ.
func (s *Service) lastEventIs(ctx context.Context, space, session, typ string) (bool, error) {
	rows, err := s.pool.Query(ctx, qSessionTail, space, session, 1)
	if err != nil {
		return false, fmt.Errorf("read session: %w", err)
	}
	tail, err := pgx.CollectRows(rows, scanTail)
	if err != nil {
		return false, fmt.Errorf("read session: %w", err)
	}
	return len(tail) == 1 && tail[0].Type == typ, nil
}

// AfterTurnRequest records a finished turn and asks for the next one's context.
type AfterTurnRequest struct {
	AssembleRequest
	// Events are the finished turn (messages, tool calls, ...), appended all or nothing in
	// the request's session.
	Events []eventloom.NewEvent `json:"events"`
	// IdempotencyKey makes a retried after-turn append nothing twice.
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// AfterTurnResult is the receipts of the appended turn and the next context.
type AfterTurnResult struct {
	Receipts []eventloom.Receipt `json:"receipts"`
	// Redactions counts the secrets replaced in the turn's events before they were stored
	// (eventloom.AppendResult.Redactions).
	Redactions int        `json:"redactions"`
	Context    *Assembled `json:"context"`
}

// AfterTurn appends the finished turn, then assembles the context for the next one. With no
// query it uses the turn's last message as the query.
func (s *Service) AfterTurn(ctx context.Context, r *AfterTurnRequest) (*AfterTurnResult, error) {
	if len(r.Events) == 0 {
		return nil, &eventloom.ValidationError{Field: "events", Message: "must hold the finished turn's events"}
	}
	if r.SessionID == "" {
		return nil, &eventloom.ValidationError{Field: "session_id", Message: "is required"}
	}
	for i := range r.Events {
		if r.Events[i].SessionID == "" {
			r.Events[i].SessionID = r.SessionID
		}
	}
	if strings.TrimSpace(r.Query) == "" {
		for i := len(r.Events) - 1; i >= 0; i-- {
			if c := strings.TrimSpace(r.Events[i].Content); c != "" {
				r.Query = c
				break
			}
		}
	}
	if strings.TrimSpace(r.Query) == "" {
		r.Query = "continue the session"
	}
	// Validate the context request before appending, so a bad request appends nothing.
	probe := r.Request
	if err := probe.validate(); err != nil {
		return nil, err
	}
	res, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: r.SpaceID, Events: r.Events, IdempotencyKey: r.IdempotencyKey})
	if err != nil {
		return nil, err
	}
	a, err := s.Assemble(ctx, &r.AssembleRequest)
	if err != nil {
		return nil, err
	}
	return &AfterTurnResult{Receipts: res.Receipts, Redactions: res.Redactions, Context: a}, nil
}

// TailEvent is an event of a replay tail, with its citation.
type TailEvent struct {
	Seq        int64           `json:"seq"`
	Hash       eventloom.Hash  `json:"hash"`
	Type       string          `json:"type"`
	Actor      string          `json:"actor,omitempty"`
	OccurredAt time.Time       `json:"occurred_at"`
	Content    string          `json:"content,omitempty"`
	Data       json.RawMessage `json:"data"`
}

func scanTail(row pgx.CollectableRow) (TailEvent, error) {
	e, err := eventloom.ScanEvent(row)
	return TailEvent{Seq: e.Seq, Hash: e.Hash, Type: e.Type, Actor: e.Actor, OccurredAt: e.OccurredAt,
		Content: e.Content, Data: e.Data}, err
}

// ChainStatus is the space's hash chain as verified for a handoff.
type ChainStatus struct {
	OK        bool           `json:"ok"`
	HeadSeq   int64          `json:"head_seq"`
	HeadHash  eventloom.Hash `json:"head_hash"`
	BrokenSeq int64          `json:"broken_seq,omitempty"`
	Reason    string         `json:"reason,omitempty"`
}

// SessionSummary is a deterministic summary of a session: its events by type and span.
type SessionSummary struct {
	SessionID string         `json:"session_id"`
	Events    int64          `json:"events"`
	ByType    map[string]int `json:"by_type"`
	FirstSeq  int64          `json:"first_seq"`
	LastSeq   int64          `json:"last_seq"`
	Started   *time.Time     `json:"started,omitempty"`
	LastAt    *time.Time     `json:"last_at,omitempty"`
	Text      string         `json:"text"`
}

// HandoffRequest asks for a bundle another agent can resume a session from.
type HandoffRequest struct {
	Request
	// TailEvents is how many of the session's last events the bundle replays (default 20, at
	// most 200).
	TailEvents int `json:"tail_events,omitempty"`
}

// Handoff is a portable bundle: summary, replay tail, chain status and retrieval.
type Handoff struct {
	SpaceID   string         `json:"space_id"`
	SessionID string         `json:"session_id"`
	Summary   SessionSummary `json:"summary"`
	Tail      []TailEvent    `json:"replay_tail"`
	Chain     ChainStatus    `json:"chain"`
	Recovery  *Recovery      `json:"recovery"`
	Retrieval *Packet        `json:"retrieval"`
	CreatedAt time.Time      `json:"created_at"`
}

// HandoffBundle builds the bundle for r.SessionID: what happened (summary and replay tail),
// whether the log is intact (chain status), what is open (recovery) and what memory says
// about the query (a checkout; the query defaults to the session's open work).
func (s *Service) HandoffBundle(ctx context.Context, r *HandoffRequest) (*Handoff, error) {
	if r.SessionID == "" {
		return nil, &eventloom.ValidationError{Field: "session_id", Message: "is required"}
	}
	if r.TailEvents == 0 {
		r.TailEvents = 20
	}
	if r.TailEvents < 1 || r.TailEvents > 200 {
		return nil, &eventloom.ValidationError{Field: "tail_events", Message: "must be between 1 and 200"}
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
	rows, err := s.pool.Query(ctx, qSessionTail, r.SpaceID, r.SessionID, r.TailEvents)
	if err != nil {
		return nil, fmt.Errorf("handoff: %w", err)
	}
	if h.Tail, err = pgx.CollectRows(rows, scanTail); err != nil {
		return nil, fmt.Errorf("handoff: %w", err)
	}
	v, err := s.store.Verify(ctx, r.SpaceID)
	if err != nil {
		return nil, err
	}
	h.Chain = ChainStatus{OK: v.OK, HeadSeq: v.HeadSeq, HeadHash: v.HeadHash, BrokenSeq: v.BrokenSeq, Reason: v.Reason}
	if h.Recovery, err = s.Recover(ctx, r.SpaceID, r.SessionID); err != nil {
		return nil, err
	}
	req := r.Request
	req.NoRecord = true
	if h.Retrieval, err = s.Checkout(ctx, &req); err != nil {
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
		return sum, fmt.Errorf("%w: session %q has no events in space %q", eventloom.ErrNotFound, session, space)
	}
	var parts []string
	for _, t := range sortedKeys(sum.ByType) {
		parts = append(parts, fmt.Sprintf("%d %s", sum.ByType[t], t))
	}
	sum.Text = fmt.Sprintf("Session %s: %d events (seq %d to %d, %s to %s): %s.", session, sum.Events, sum.FirstSeq, sum.LastSeq,
		sum.Started.Format(time.RFC3339), sum.LastAt.Format(time.RFC3339), strings.Join(parts, ", "))
	return sum, nil
}

// CleanupRequest records that a subagent finished.
type CleanupRequest struct {
	Request
	// SubagentID names the subagent; required.
	SubagentID string `json:"-"`
	// Outcome is how it ended: success, failure or cancelled.
	Outcome string `json:"outcome"`
	// Summary is the subagent's own account, kept in the cleanup event.
	Summary string `json:"summary,omitempty"`
}

// Cleanup is the cleanup event's receipt and a handoff bundle of the subagent's session.
type Cleanup struct {
	Receipt eventloom.Receipt `json:"receipt"`
	Handoff *Handoff          `json:"handoff"`
}

// CleanupSubagent appends a subagent.cleaned_up event in the subagent's session and returns
// it with a handoff bundle the parent can continue from.
func (s *Service) CleanupSubagent(ctx context.Context, r *CleanupRequest) (*Cleanup, error) {
	if r.SubagentID == "" || len(r.SubagentID) > 128 {
		return nil, &eventloom.ValidationError{Field: "subagent_id", Message: "must be 1-128 characters"}
	}
	switch r.Outcome {
	case "success", "failure", "cancelled":
	default:
		return nil, &eventloom.ValidationError{Field: "outcome", Message: "must be success, failure or cancelled"}
	}
	if r.SessionID == "" {
		r.SessionID = "subagent:" + r.SubagentID
	}
	data, err := json.Marshal(map[string]string{"subagent_id": r.SubagentID, "outcome": r.Outcome})
	if err != nil {
		return nil, err
	}
	res, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: r.SpaceID, Events: []eventloom.NewEvent{{
		Type: SubagentCleanedUpType, SessionID: r.SessionID, Actor: r.SubagentID, Content: r.Summary, Data: data,
	}}})
	if err != nil {
		return nil, err
	}
	h, err := s.HandoffBundle(ctx, &HandoffRequest{Request: r.Request})
	if err != nil {
		return nil, err
	}
	return &Cleanup{Receipt: res.Receipts[0], Handoff: h}, nil
}

// RecoveryItem is one entry of a recovery packet, cited from the log.
type RecoveryItem struct {
	Text     string   `json:"text"`
	Citation Citation `json:"citation"`
}

// Recovery is what an agent needs after its context was compacted, read from the log alone:
// open tasks, accepted findings, recent decisions and known unknowns.
type Recovery struct {
	OpenTasks     []RecoveryItem `json:"open_tasks"`
	Findings      []RecoveryItem `json:"accepted_findings"`
	Decisions     []RecoveryItem `json:"recent_decisions"`
	KnownUnknowns []RecoveryItem `json:"known_unknowns"`
	Text          string         `json:"text"`
	Tokens        int            `json:"tokens"`
	ResumedSeq    int64          `json:"resumed_seq,omitempty"`
	SessionID     string         `json:"session_id"`
}

// recoveryK caps each recovery section.
const recoveryK = 10

// Recover builds the recovery packet of a session from the log (not the projections, which
// may lag): every item cites its event.
func (s *Service) Recover(ctx context.Context, space, session string) (*Recovery, error) {
	rows, err := s.pool.Query(ctx, qRecovery, space, session, recoveryK)
	if err != nil {
		return nil, fmt.Errorf("recover session: %w", err)
	}
	found, err := pgx.CollectRows(rows, pgx.RowToStructByName[recoveryRow])
	if err != nil {
		return nil, fmt.Errorf("recover session: %w", err)
	}
	rec := &Recovery{SessionID: session, OpenTasks: []RecoveryItem{}, Findings: []RecoveryItem{}, Decisions: []RecoveryItem{}, KnownUnknowns: []RecoveryItem{}}
	for _, r := range found {
		it := RecoveryItem{Text: recoveryText(r.Kind, r.Content, r.Data), Citation: Citation{Seq: r.Seq, Hash: r.Hash}}
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
			// One line each, whatever a task's title or an error holds (remembered).
			b.WriteString(fmt.Sprintf("- %s (seq %d #%s)", remembered(it.Text), it.Citation.Seq, it.Citation.Hash.String()[:8]) + "\n")
		}
	}
	section("## Open tasks", rec.OpenTasks)
	section("## Accepted findings", rec.Findings)
	section("## Recent decisions", rec.Decisions)
	section("## Known unknowns", rec.KnownUnknowns)
	rec.Text = b.String()
	rec.Tokens = EstimateTokens(rec.Text)
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
	}
	if tool := str("tool"); tool != "" {
		return fmt.Sprintf("%s failed: %s", tool, str("error"))
	}
	return clip(strings.TrimSpace(content))
}

// Resume appends a session.resumed event (the agent's context was compacted) and returns
// the recovery packet.
func (s *Service) Resume(ctx context.Context, space, session string) (*Recovery, error) {
	if session == "" {
		return nil, &eventloom.ValidationError{Field: "session_id", Message: "is required"}
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

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
