package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// The limits of what zaxy hook reads from a harness's transcript and records of a turn.
const (
	// transcriptTailBytes is how much of a transcript's end is read: a turn longer than this
	// is recorded from where the read starts.
	transcriptTailBytes = 4 << 20
	// maxTurnEvents caps the events recorded of one turn: the prompt and the latest others.
	maxTurnEvents = 200
	// maxTurnText caps a message's content; maxToolText a tool call's arguments and error.
	maxTurnText = 8000
	maxToolText = 2000
)

// transcriptEntry is one line of a Claude Code transcript (JSON lines): a user or assistant
// message, with its content a string or a list of blocks (text, tool_use, tool_result). Lines
// of other types (summary, system) and lines that do not parse are skipped.
type transcriptEntry struct {
	Type        string `json:"type"`
	UUID        string `json:"uuid"`
	IsSidechain bool   `json:"isSidechain"`
	// IsMeta marks a message the harness added (not the user's); IsCompactSummary the summary
	// that opens the context after a compaction.
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	Timestamp        string `json:"timestamp"`
	Message          struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// transcriptBlock is one block of a message's content.
type transcriptBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// blocks are e's content as blocks: a string content is one text block.
func (e *transcriptEntry) blocks() []transcriptBlock {
	var s string
	if json.Unmarshal(e.Message.Content, &s) == nil {
		return []transcriptBlock{{Type: "text", Text: s}}
	}
	var bs []transcriptBlock
	_ = json.Unmarshal(e.Message.Content, &bs)
	return bs
}

// isPrompt reports whether e is a user's prompt (text), not a tool result handed back.
func (e *transcriptEntry) isPrompt() bool {
	if e.Type != "user" || e.IsSidechain || e.IsMeta || e.IsCompactSummary {
		return false
	}
	for _, b := range e.blocks() {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" && !strings.HasPrefix(b.Text, "<command-") {
			return true
		}
	}
	return false
}

// lastTurn is the last turn of the main thread of the transcript at path (subagents'
// sidechain entries and the harness's own messages are left out): the last user prompt and
// what followed it, as events, and the uuid of the turn's last entry (the turn's identity in
// the idempotency key). A turn that a compaction cut starts after the compaction's summary:
// pre-compact recorded the part before it.
func lastTurn(path string) (events []eventloomwire.NewEvent, lastUUID string, err error) {
	entries, err := readTranscript(path)
	if err != nil {
		return nil, "", err
	}
	start := -1
	for i := len(entries) - 1; i >= 0 && start < 0; i-- {
		e := &entries[i]
		switch {
		case e.IsSidechain:
			continue
		case e.IsCompactSummary:
			start = i + 1
		case e.isPrompt():
			start = i
		}
		if lastUUID == "" {
			lastUUID = e.UUID
		}
	}
	if start < 0 {
		return nil, lastUUID, nil
	}
	tools := map[string]transcriptBlock{}
	for i := start; i < len(entries); i++ {
		e := &entries[i]
		if e.IsSidechain || e.IsMeta || e.IsCompactSummary {
			continue
		}
		at := entryTime(e.Timestamp)
		var text []string
		for _, b := range e.blocks() {
			switch {
			case b.Type == "text" && strings.TrimSpace(b.Text) != "":
				text = append(text, strings.TrimSpace(b.Text))
			case b.Type == "tool_use":
				tools[b.ID] = b
			case b.Type == "tool_result":
				events = append(events, toolEvent(tools[b.ToolUseID], b, at))
			}
		}
		if len(text) > 0 && (e.Type == "user" || e.Type == "assistant") {
			data, _ := json.Marshal(map[string]string{"role": e.Type})
			events = append(events, eventloomwire.NewEvent{Type: "message", Actor: e.Type, OccurredAt: at,
				Content: clipText(strings.Join(text, "\n\n"), maxTurnText), Data: data})
		}
	}
	if len(events) > maxTurnEvents {
		events = append(events[:1], events[len(events)-maxTurnEvents+1:]...)
	}
	return events, lastUUID, nil
}

// toolEvent is a tool_call.completed of the call use and its result res.
func toolEvent(use, res transcriptBlock, at *time.Time) eventloomwire.NewEvent {
	d := map[string]string{"tool": use.Name, "outcome": "success"}
	if d["tool"] == "" {
		d["tool"] = "unknown"
	}
	if len(use.Input) > 0 {
		d["arguments"] = clipText(string(use.Input), maxToolText)
	}
	if res.IsError {
		d["outcome"] = "failure"
		d["error"] = clipText(toolResultText(res.Content), maxToolText)
		if d["error"] == "" {
			d["error"] = "failed"
		}
	}
	data, _ := json.Marshal(d)
	return eventloomwire.NewEvent{Type: "tool_call.completed", Actor: "assistant", OccurredAt: at, Data: data}
}

// toolResultText is a tool result's content as text: a string, or its text blocks joined.
func toolResultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var bs []transcriptBlock
	_ = json.Unmarshal(raw, &bs)
	var parts []string
	for _, b := range bs {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// lastAssistantText is the text of the last assistant message of the transcript at path (of
// its sidechain entries only, when onlySidechain), clipped: a subagent's own account of its
// work, from the subagent's transcript or from the sidechain of its parent's.
func lastAssistantText(path string, onlySidechain bool) (string, error) {
	entries, err := readTranscript(path)
	if err != nil {
		return "", err
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := &entries[i]
		if e.Type != "assistant" || onlySidechain && !e.IsSidechain {
			continue
		}
		for _, b := range e.blocks() {
			if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
				return clipText(strings.TrimSpace(b.Text), maxToolText), nil
			}
		}
	}
	return "", nil
}

// readTranscript reads the entries of the last transcriptTailBytes of the transcript at path.
func readTranscript(path string) ([]transcriptEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if st, err := f.Stat(); err == nil && st.Size() > transcriptTailBytes {
		if _, err := f.Seek(st.Size()-transcriptTailBytes, io.SeekStart); err != nil {
			return nil, fmt.Errorf("read transcript: %w", err)
		}
		br := bufio.NewReader(f)
		_, _ = br.ReadString('\n') // a partial first line
		r = br
	}
	var out []transcriptEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), transcriptTailBytes)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		var e transcriptEntry
		if len(line) == 0 || json.Unmarshal(line, &e) != nil || (e.Type != "user" && e.Type != "assistant") {
			continue
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read transcript: %w", err)
	}
	return out, nil
}

// entryTime is a transcript timestamp, or nil (the server's now) when it does not parse.
func entryTime(s string) *time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return nil
	}
	t = t.UTC()
	return &t
}

// clipText is s cut to at most n bytes on a rune boundary, marked with "…" when cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
