package eventloom

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zaxy/zaxy/internal/strictjson"
	"github.com/zaxy/zaxy/vocab"
)

var (
	spaceIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)
	typePattern    = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)
)

// Field limits, mirrored by constraints in the schema.
const (
	maxTypeLen           = 128
	maxSessionIDLen      = 256
	maxActorLen          = 256
	maxIdempotencyKeyLen = 255
)

// ValidateSpaceID checks a space id: 1–64 characters of [a-z0-9._-], starting with a letter
// or digit.
func ValidateSpaceID(id string) error {
	if !spaceIDPattern.MatchString(id) {
		return invalid("space", "must be 1-64 characters of [a-z0-9._-] starting with a letter or digit, got %q", id)
	}
	return nil
}

// ValidateIdempotencyKey checks an idempotency key: 1–255 printable ASCII characters.
func ValidateIdempotencyKey(key string) error {
	if len(key) == 0 || len(key) > maxIdempotencyKeyLen {
		return invalid("idempotency_key", "must be 1-%d characters", maxIdempotencyKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return invalid("idempotency_key", "must be printable ASCII without spaces")
		}
	}
	return nil
}

// ValidateEvent checks one event; field names in errors are prefixed with path (e.g. "events[3].").
// It first completes the event's data as its type allows (vocab.Complete: a message whose actor
// is user, assistant, system or tool gets that data.role when it has none), so the event that
// is stored, and hashed, says it.
func ValidateEvent(e *NewEvent, path string) error {
	switch {
	case e.Type == "":
		return invalid(path+"type", "is required")
	case len(e.Type) > maxTypeLen || !typePattern.MatchString(e.Type):
		return invalid(path+"type", "must match ^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$ (at most %d characters), got %q", maxTypeLen, e.Type)
	case e.Type == ErasureType:
		return invalid(path+"type", "%q is reserved: only the erasure operation appends it", ErasureType)
	}
	if err := CheckText(path+"session_id", e.SessionID, maxSessionIDLen); err != nil {
		return err
	}
	if err := CheckText(path+"actor", e.Actor, maxActorLen); err != nil {
		return err
	}
	if err := CheckText(path+"content", e.Content, 0); err != nil {
		return err
	}
	if e.OccurredAt != nil {
		if y := e.OccurredAt.UTC().Year(); y < 1 || y > 9999 {
			return invalid(path+"occurred_at", "must be between years 0001 and 9999")
		}
	}
	if err := checkObject(path+"data", e.Data); err != nil {
		return err
	}
	if err := checkObject(path+"cues", e.Cues); err != nil {
		return err
	}
	e.Data = vocab.Complete(e.Type, e.Actor, e.Data)
	var fe *vocab.FieldError
	if errors.As(vocab.Validate(e.Type, e.Content, e.Data), &fe) {
		return invalid(path+fe.Field, "%s", fe.Message)
	}
	return nil
}

// CheckText rejects what Postgres text cannot store (invalid UTF-8, NUL) and caps the length
// in characters (maxChars 0 means no cap), as a *ValidationError naming field.
func CheckText(field, s string, maxChars int) error {
	if !utf8.ValidString(s) {
		return invalid(field, "must be valid UTF-8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return invalid(field, "must not contain NUL characters")
	}
	if maxChars > 0 && utf8.RuneCountInString(s) > maxChars {
		return invalid(field, "must be at most %d characters", maxChars)
	}
	return nil
}

// checkObject accepts nil (meaning {}) or a JSON object that Postgres' jsonb can store.
func checkObject(field string, raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	trimmed := strictjson.TrimSpace(raw) // JSON's whitespace: a leading vertical tab is no JSON
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return invalid(field, "must be a JSON object")
	}
	if !utf8.Valid(trimmed) {
		return invalid(field, "must be valid UTF-8")
	}
	// The strict rules every request body passes (strictjson.Check): a Go caller's data must
	// not reach jsonb with what it cannot store (a lone surrogate escape, \u0000, a number out
	// of range), which failed the INSERT with no field named, nor with duplicate keys.
	if err := strictjson.Check(trimmed); err != nil {
		var se *strictjson.Error
		if errors.As(err, &se) && se.Path != "" {
			return invalid(field+"."+se.Path, "%s", se.Message)
		}
		return invalid(field, "%s", err.Error())
	}
	return nil
}

// ValidateBatch checks a whole batch; the first bad event is reported as events[i].field.
func ValidateBatch(events []NewEvent) error {
	if len(events) == 0 {
		return invalid("events", "must contain at least one event")
	}
	for i := range events {
		path := ""
		if len(events) > 1 {
			path = fmt.Sprintf("events[%d].", i)
		}
		if err := ValidateEvent(&events[i], path); err != nil {
			return err
		}
	}
	return nil
}

// parseTime reads an RFC 3339 timestamp.
func parseTime(field, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, invalid(field, "must be an RFC 3339 timestamp such as 2026-01-02T15:04:05Z, got %q", s)
	}
	return t, nil
}
