package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/checkout/lifecycle/lifecyclewire"
	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// hookEvents are the events zaxy hook handles, with the hook_event_name Claude Code sends
// for each.
var hookEvents = map[string]string{
	"pre-compact":   "PreCompact",
	"session-start": "SessionStart",
	"stop":          "Stop",
	"subagent-stop": "SubagentStop",
}

// maxHookPayload caps what zaxy hook reads of its stdin.
const maxHookPayload = 1 << 20

// hookMaxTokens is the budget of the context the lifecycle routes assemble beside what a hook
// records: the hook prints none of it, so it is kept small.
const hookMaxTokens = 400

// hookPayload is the JSON a harness writes on a hook's stdin (Claude Code's hook input).
type hookPayload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	HookEventName  string `json:"hook_event_name"`
	// Source is SessionStart's: startup, resume, clear or compact.
	Source string `json:"source"`
	// Trigger and CustomInstructions are PreCompact's: manual or auto, and what the user
	// typed after /compact.
	Trigger            string `json:"trigger"`
	CustomInstructions string `json:"custom_instructions"`
	// StopHookActive is Stop's and SubagentStop's: the agent goes on because a stop hook
	// asked it to.
	StopHookActive bool `json:"stop_hook_active"`
	// AgentID and AgentTranscriptPath name a finished subagent (SubagentStop), when the
	// harness sends them.
	AgentID             string `json:"agent_id"`
	AgentTranscriptPath string `json:"agent_transcript_path"`
	// Events are the turn's events in zaxy's form, for a harness with no Claude Code
	// transcript (the generic form); they win over transcript_path.
	Events []eventloomwire.NewEvent `json:"events"`
}

// hookCmd is zaxy hook <event>: the lifecycle call a harness's hook makes. It talks to the
// server only (ZAXY_URL, ZAXY_TOKEN) and never blocks the harness: a failure is one line on
// stderr and exit status 0; only a usage error (an unknown event or flag) exits 2.
type hookCmd struct {
	space, session string
	timeout        time.Duration
	json           bool
	event, path    string
}

func (c *hookCmd) flags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&c.space, "space", cfg.space, "the space the session's memory is in (default $ZAXY_SPACE)")
	fs.StringVar(&c.session, "session", "", "the session (default the payload's session_id)")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Second, "the most a hook takes, reading stdin and calling the server")
	fs.BoolVar(&c.json, "json", false, "session-start prints Claude Code's JSON form (hookSpecificOutput.additionalContext) instead of plain text")
	remoteFlags(fs, cfg)
}

func (c *hookCmd) validate(args []string) error {
	switch {
	case c.timeout <= 0:
		return fmt.Errorf("--timeout must be positive, got %s", c.timeout)
	case len(args) == 2 && args[0] == "doctor":
		c.event, c.path = args[0], args[1]
		return nil
	case len(args) != 1:
		return errors.New("give one event: pre-compact, session-start, stop or subagent-stop (or doctor PATH)")
	case hookEvents[args[0]] == "":
		return fmt.Errorf("unknown event %q: pre-compact, session-start, stop or subagent-stop (or doctor PATH)", args[0])
	}
	c.event = args[0]
	return nil
}

func (c *hookCmd) run(ctx context.Context, env *env) error {
	if c.event == "doctor" {
		return runHookDoctor(env, c.path)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	note, err := c.handle(ctx, env)
	if err != nil {
		note = "not done (the harness goes on): " + err.Error()
	}
	if note != "" {
		fmt.Fprintf(env.stderr, "zaxy hook %s: %s\n", c.event, oneLine(note))
	}
	return nil
}

// handle reads the payload and makes the event's lifecycle call; the note says what it did.
func (c *hookCmd) handle(ctx context.Context, env *env) (string, error) {
	p, err := readHookPayload(ctx, env.stdin)
	if err != nil {
		return "", err
	}
	if want := hookEvents[c.event]; p.HookEventName != "" && p.HookEventName != want {
		return "", fmt.Errorf("the payload is for %s, not %s: check the hook's configuration (zaxy hook doctor)", p.HookEventName, want)
	}
	if c.session != "" {
		p.SessionID = c.session
	}
	switch {
	case c.space == "":
		return "", errors.New("no space: set ZAXY_SPACE or --space")
	case env.cfg.url == "":
		return "", errors.New("no server: set ZAXY_URL (and ZAXY_TOKEN) to a running zaxy serve")
	case p.SessionID == "":
		return "", errors.New("the payload has no session_id (and no --session)")
	}
	api, err := newAPIClient(env.cfg)
	if err != nil {
		return "", err
	}
	h := &hookCall{api: api, space: c.space, p: p}
	var note string
	switch c.event {
	case "pre-compact":
		note, err = h.preCompact(ctx)
	case "session-start":
		var text string
		if text, note, err = h.sessionStart(ctx); err == nil && text != "" {
			err = writeHookContext(env.stdout, text, c.json)
		}
	case "stop":
		note, err = h.stop(ctx)
	case "subagent-stop":
		note, err = h.subagentStop(ctx)
	}
	return note, remoteErr(err, env.cfg.url)
}

// hookCall is one hook's lifecycle calls on the server for the session of p.
type hookCall struct {
	api   *client.Client
	space string
	p     *hookPayload
}

// preCompact records the turn so far and the handoff of the session before the harness
// compacts it: a session.compacting event whose data holds the handoff's summary, chain head
// and recovery counts, and the trigger and instructions of the compaction.
func (h *hookCall) preCompact(ctx context.Context) (string, error) {
	turn, err := h.recordTurn(ctx)
	if err != nil { // the handoff is recorded whether or not the turn could be
		turn = "turn not recorded: " + err.Error() + "; "
	}
	hb, err := h.api.Handoff(ctx, h.space, &lifecyclewire.HandoffRequest{
		Request: checkoutwire.Request{SessionID: h.p.SessionID, MaxTokens: hookMaxTokens}})
	if err != nil {
		return "", fmt.Errorf("build handoff: %w", err)
	}
	rec := hb.Recovery
	data, err := json.Marshal(map[string]any{
		"trigger": h.p.Trigger, "custom_instructions": h.p.CustomInstructions, "summary": hb.Summary.Text,
		"head_seq": hb.Chain.HeadSeq, "head_hash": hb.Chain.HeadHash, "chain_ok": hb.Chain.OK,
		"open_tasks": len(rec.OpenTasks), "accepted_findings": len(rec.Findings),
		"recent_decisions": len(rec.Decisions), "known_unknowns": len(rec.KnownUnknowns),
	})
	if err != nil {
		return "", err
	}
	res, err := h.api.AppendEvents(ctx, h.space, []eventloomwire.NewEvent{{
		Type: sessionCompactingType, SessionID: h.p.SessionID, Actor: "zaxy-hook", Data: data}})
	if err != nil {
		return "", fmt.Errorf("record handoff: %w", err)
	}
	return fmt.Sprintf("%srecorded the handoff of session %s before a %s compaction (seq %d)",
		turn, h.p.SessionID, orDefault(h.p.Trigger, "manual or auto"), res.Receipts[0].Seq), nil
}

// sessionCompactingType is the type of the event zaxy hook pre-compact appends: the session's handoff,
// recorded before the harness compacts its context.
const sessionCompactingType = "session.compacting"

// sessionStart resumes the session after a compaction or a resume and returns its recovery
// packet as the text to inject; at a startup or clear it does nothing.
func (h *hookCall) sessionStart(ctx context.Context) (text, note string, err error) {
	switch h.p.Source {
	case "compact", "resume":
	default:
		return "", fmt.Sprintf("source %q: nothing to recover", h.p.Source), nil
	}
	rec, err := h.api.ResumeSession(ctx, h.space, h.p.SessionID)
	if err != nil {
		return "", "", fmt.Errorf("resume session: %w", err)
	}
	note = fmt.Sprintf("resumed session %s after %s (seq %d)", h.p.SessionID, h.p.Source, rec.ResumedSeq)
	if strings.TrimSpace(rec.Text) == "" {
		return "", note + "; memory holds nothing open for it", nil
	}
	text = fmt.Sprintf("# Zaxy memory: where session %s stands (space %s, after %s)\n"+
		"Read from the memory log; each item cites its event (seq #hash).\n\n%s", h.p.SessionID, h.space, h.p.Source, rec.Text)
	return text, note, nil
}

// stop records the turn that just ended (context/after-turn).
func (h *hookCall) stop(ctx context.Context) (string, error) {
	return h.recordTurn(ctx)
}

// recordTurn appends the transcript's last turn through context/after-turn, keyed by the
// session and the turn's last entry so that a repeat appends nothing twice.
func (h *hookCall) recordTurn(ctx context.Context) (string, error) {
	events, turnID := h.p.Events, ""
	switch {
	case len(events) > 0:
		b, err := json.Marshal(events)
		if err != nil {
			return "", err
		}
		turnID = string(b)
	case h.p.TranscriptPath == "":
		return "no transcript_path and no events: no turn recorded; ", nil
	default:
		var err error
		if events, turnID, err = lastTurn(h.p.TranscriptPath); err != nil {
			return "", err
		}
	}
	if len(events) == 0 {
		return "the transcript holds no turn to record; ", nil
	}
	res, err := h.api.AfterTurn(ctx, h.space, &client.AfterTurnRequest{
		AssembleRequest: lifecyclewire.AssembleRequest{Request: checkoutwire.Request{SessionID: h.p.SessionID, MaxTokens: hookMaxTokens, NoRecord: true}},
		Events:          events,
	}, client.WithIdempotencyKey(turnKey(h.p.SessionID, turnID)))
	if err != nil {
		return "", fmt.Errorf("record turn: %w", err)
	}
	first, end := res.Receipts[0].Seq, res.Receipts[len(res.Receipts)-1].Seq
	return fmt.Sprintf("recorded the turn of session %s: %d events (seq %d-%d); ", h.p.SessionID, len(res.Receipts), first, end), nil
}

// turnKey is the idempotency key of a recorded turn: the session and the turn's identity,
// hashed so that any session id makes a valid key.
func turnKey(session, turnID string) string {
	sum := sha256.Sum256([]byte(session + "\x00" + turnID))
	return "zaxy-hook:turn:" + hex.EncodeToString(sum[:16])
}

// subagentStop records that a subagent finished (subagents/{id}/cleanup), with the last
// thing it said as its summary. The subagent is the payload's agent_id, else the session.
func (h *hookCall) subagentStop(ctx context.Context) (string, error) {
	id := orDefault(h.p.AgentID, h.p.SessionID)
	summary := ""
	switch {
	case h.p.AgentTranscriptPath != "":
		summary, _ = lastAssistantText(h.p.AgentTranscriptPath, false)
	case h.p.TranscriptPath != "":
		summary, _ = lastAssistantText(h.p.TranscriptPath, true)
	}
	c, err := h.api.CleanupSubagent(ctx, h.space, id, &lifecyclewire.CleanupRequest{
		Request: checkoutwire.Request{MaxTokens: hookMaxTokens, NoRecord: true}, Outcome: "success", Summary: summary})
	if err != nil {
		return "", fmt.Errorf("clean up subagent: %w", err)
	}
	return fmt.Sprintf("cleaned up subagent %s (seq %d)", id, c.Receipt.Seq), nil
}

// readHookPayload decodes the hook's JSON payload from r within ctx's time.
func readHookPayload(ctx context.Context, r io.Reader) (*hookPayload, error) {
	if r == nil {
		return nil, errors.New("no payload on stdin")
	}
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, maxHookPayload+1))
		done <- read{b, err}
	}()
	var got read
	select {
	case got = <-done:
	case <-ctx.Done():
		return nil, fmt.Errorf("read payload: %w", ctx.Err())
	}
	if got.err != nil {
		return nil, fmt.Errorf("read payload: %w", got.err)
	}
	if len(got.b) > maxHookPayload {
		return nil, fmt.Errorf("read payload: more than %d bytes", maxHookPayload)
	}
	var p hookPayload
	if err := json.Unmarshal(got.b, &p); err != nil {
		return nil, fmt.Errorf("read payload: not the hook's JSON: %w", err)
	}
	return &p, nil
}

// writeHookContext writes text for SessionStart to inject: plain, or in Claude Code's JSON
// form.
func writeHookContext(w io.Writer, text string, asJSON bool) error {
	if !asJSON {
		_, err := io.WriteString(w, text)
		return err
	}
	return json.NewEncoder(w).Encode(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": "SessionStart", "additionalContext": text}})
}

// oneLine is s on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
