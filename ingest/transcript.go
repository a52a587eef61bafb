package ingest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/redact"
	"github.com/zaxy/zaxy/vocab"
)

// Field limits, the same as the Eventloom's and the message vocabulary's.
const (
	maxSessionIDLen = 256
	maxActorLen     = 256
	maxNameLen      = 512
)

// Transcript appends turns as "message" events: content is the redacted turn content, data
// is {"role", "name"?}. Every turn is validated before anything is appended (an error names
// the turn as turns[i].field). The turns are appended in batches of Config.TranscriptBatch,
// each all-or-nothing in its own transaction with an idempotency key derived from
// TranscriptKeyMaterial(content hash, batch index) under the space's secret
// (eventloom.Store.DerivedKeys): a retried import into the space, even after a failure between
// batches, appends nothing twice, and the key says nothing of the turns to whoever sees it. An
// erasure of one of the batch's events forgets its key: the batch sent again is appended anew.
func (in *Ingester) Transcript(ctx context.Context, p *TranscriptParams) (*TranscriptResult, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	mode, err := in.store.RedactionMode(ctx, p.SpaceID)
	if err != nil {
		return nil, err
	}
	events, redactions, err := transcriptEvents(ctx, p, mode != vocab.RedactionOff)
	if err != nil {
		return nil, err
	}
	contentHash, err := eventsHash(events)
	if err != nil {
		return nil, err
	}
	var materials []string
	for start, i := 0, 0; start < len(events); start, i = start+in.cfg.TranscriptBatch, i+1 {
		materials = append(materials, TranscriptKeyMaterial(contentHash, i))
	}
	keys, err := in.store.DerivedKeys(ctx, p.SpaceID, transcriptKeyPrefix, materials...)
	if err != nil {
		return nil, err
	}
	res := &TranscriptResult{SpaceID: p.SpaceID, Replayed: true, Redactions: redactions}
	for start := 0; start < len(events); start += in.cfg.TranscriptBatch {
		batch := events[start:min(start+in.cfg.TranscriptBatch, len(events))]
		ar, err := in.store.Append(ctx, &eventloom.AppendParams{SpaceID: p.SpaceID, Events: batch,
			IdempotencyKey: keys[res.Batches]})
		if err != nil {
			return nil, fmt.Errorf("append transcript batch %d (turns %d-%d): %w", res.Batches, start, start+len(batch)-1, err)
		}
		res.Batches++
		res.Redactions += ar.Redactions
		if !ar.Replayed {
			res.AppendedBatches++
			res.Replayed = false
		}
		res.Receipts = append(res.Receipts, ar.Receipts...)
	}
	return res, nil
}

// transcriptKeyPrefix is the prefix of a transcript batch's derived idempotency key.
const transcriptKeyPrefix = "transcript"

// TranscriptKeyMaterial is what the idempotency key of one batch of a transcript import is
// derived from (eventloom.Store.DerivedKeys, prefix "transcript"): "transcript:" + contentHash
// + ":" + the batch index, where contentHash is the hex SHA-256 of the whole import's events
// (JSON array of the message events after redaction and defaults).
func TranscriptKeyMaterial(contentHash string, batch int) string {
	return fmt.Sprintf("transcript:%s:%d", contentHash, batch)
}

// TranscriptContentHash returns the content hash that Transcript derives its idempotency keys
// from: the hex SHA-256 of the JSON array of the message events (after redaction and the
// default session) in a space whose redaction is on. It validates the turns like Transcript.
func TranscriptContentHash(p *TranscriptParams) (string, error) {
	events, _, err := transcriptEvents(context.Background(), p, true)
	if err != nil {
		return "", err
	}
	return eventsHash(events)
}

func eventsHash(events []eventloom.NewEvent) (string, error) {
	b, err := json.Marshal(events)
	if err != nil {
		return "", fmt.Errorf("hash transcript: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// transcriptEvents validates the turns and builds their message events, with the secrets in
// their content redacted when redactOn (the Eventloom redacts actor and name on append). It
// returns ctx's error if ctx is done while it redacts.
func transcriptEvents(ctx context.Context, p *TranscriptParams, redactOn bool) ([]eventloom.NewEvent, int, error) {
	if err := checkText("session_id", p.SessionID, maxSessionIDLen); err != nil {
		return nil, 0, err
	}
	if len(p.Turns) == 0 {
		return nil, 0, invalid("turns", "must contain at least one turn")
	}
	events := make([]eventloom.NewEvent, len(p.Turns))
	redactions := 0
	for i := range p.Turns {
		ev, n, err := turnEvent(ctx, &p.Turns[i], p.SessionID, fmt.Sprintf("turns[%d].", i), redactOn)
		if err != nil {
			return nil, 0, err
		}
		events[i], redactions = ev, redactions+n
	}
	return events, redactions, nil
}

// validateTurn checks a turn; field names in errors are prefixed with path (e.g. "turns[3]." or
// "line 7: ").
func validateTurn(t *Turn, path string) error {
	if t.Role == "" {
		return invalid(path+"role", "is required (one of %s)", strings.Join(vocab.MessageRoles, ", "))
	}
	if !slices.Contains(vocab.MessageRoles, t.Role) {
		return invalid(path+"role", "must be one of %s, got %q", strings.Join(vocab.MessageRoles, ", "), t.Role)
	}
	if strings.TrimSpace(t.Content) == "" {
		return invalid(path+"content", "is required and must not be blank")
	}
	for _, f := range []struct {
		name, value string
		max         int
	}{{"content", t.Content, 0}, {"session_id", t.SessionID, maxSessionIDLen}, {"actor", t.Actor, maxActorLen}, {"name", t.Name, maxNameLen}} {
		if err := checkText(path+f.name, f.value, f.max); err != nil {
			return err
		}
	}
	if t.OccurredAt != nil {
		if y := t.OccurredAt.UTC().Year(); y < 1 || y > 9999 {
			return invalid(path+"occurred_at", "must be between years 0001 and 9999")
		}
	}
	return nil
}

// messageData is the data of a message event (vocab.Message).
type messageData = vocab.Message

func turnEvent(ctx context.Context, t *Turn, defaultSession, path string, redactOn bool) (eventloom.NewEvent, int, error) {
	if err := validateTurn(t, path); err != nil {
		return eventloom.NewEvent{}, 0, err
	}
	content, redactions := t.Content, 0
	if redactOn {
		var err error
		if content, redactions, err = redact.StringContext(ctx, t.Content); err != nil {
			return eventloom.NewEvent{}, 0, fmt.Errorf("redact %scontent: %w", path, err)
		}
	}
	data, err := json.Marshal(messageData{Role: t.Role, Name: t.Name})
	if err != nil {
		return eventloom.NewEvent{}, 0, fmt.Errorf("encode message data: %w", err)
	}
	session := t.SessionID
	if session == "" {
		session = defaultSession
	}
	return eventloom.NewEvent{Type: vocab.TypeMessage, SessionID: session, Actor: t.Actor,
		OccurredAt: t.OccurredAt, Content: content, Data: data}, redactions, nil
}

// maxLineBytes caps one transcript line.
const maxLineBytes = 16 << 20

// ParseTranscript reads JSON lines, one turn object per line ({"role", "content",
// "session_id"?, "actor"?, "occurred_at"?, "name"?}); blank lines are skipped. It validates
// every turn, and an error names the line and field, e.g. "line 7: role: must be one of
// user, assistant, system, tool".
func ParseTranscript(r io.Reader) ([]Turn, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	var turns []Turn
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		path := fmt.Sprintf("line %d: ", line)
		t, err := decodeTurn(sc.Bytes(), path)
		if err == nil {
			err = validateTurn(&t, path)
		}
		if err != nil {
			return nil, err
		}
		turns = append(turns, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read transcript line %d: %w", line+1, err)
	}
	return turns, nil
}

var turnFields = []string{"role", "content", "session_id", "actor", "occurred_at", "name"}

// decodeTurn parses one turn object strictly; errors name the field prefixed with path.
func decodeTurn(raw []byte, path string) (Turn, error) {
	var t Turn
	fields, err := decodeObject(raw, path, turnFields)
	if err != nil {
		return t, err
	}
	for name, dst := range map[string]*string{"role": &t.Role, "content": &t.Content, "session_id": &t.SessionID, "actor": &t.Actor, "name": &t.Name} {
		if err := decodeString(fields, name, path, dst); err != nil {
			return t, err
		}
	}
	var occurred string
	if err := decodeString(fields, "occurred_at", path, &occurred); err != nil {
		return t, err
	}
	if occurred != "" {
		ts, err := time.Parse(time.RFC3339Nano, occurred)
		if err != nil {
			return t, invalid(path+"occurred_at", "must be an RFC 3339 timestamp such as 2026-01-02T15:04:05Z, got %q", occurred)
		}
		t.OccurredAt = &ts
	}
	return t, nil
}

// DecodeTranscriptBody parses a POST .../transcripts body: {"session_id"?, "turns": [turn,
// ...]}. Unknown fields and wrong types are errors naming the field (e.g. "turns[3].role");
// turns are not validated here (Transcript does that).
func DecodeTranscriptBody(body []byte) (*TranscriptParams, error) {
	fields, err := decodeBody(body, []string{"session_id", "turns"})
	if err != nil {
		return nil, err
	}
	p := &TranscriptParams{}
	if err := decodeString(fields, "session_id", "", &p.SessionID); err != nil {
		return nil, err
	}
	items, err := decodeArray(fields, "turns")
	if err != nil {
		return nil, err
	}
	p.Turns = make([]Turn, len(items))
	for i, item := range items {
		if p.Turns[i], err = decodeTurn(item, fmt.Sprintf("turns[%d].", i)); err != nil {
			return nil, err
		}
	}
	return p, nil
}
