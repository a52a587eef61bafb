package eventloom

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// Hash is a SHA-256 digest; it is written as lowercase hex in JSON and text.
type Hash []byte

// ZeroHash is the prev_hash of the first event of every space: 32 zero bytes.
var ZeroHash = Hash(make([]byte, sha256.Size))

// String returns the hash as lowercase hex.
func (h Hash) String() string { return hex.EncodeToString(h) }

// MarshalJSON writes the hash as a hex string.
func (h Hash) MarshalJSON() ([]byte, error) { return json.Marshal(h.String()) }

// UnmarshalJSON reads a hex string.
func (h *Hash) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	d, err := hex.DecodeString(s)
	if err != nil || len(d) != sha256.Size {
		return fmt.Errorf("hash must be 64 hex characters")
	}
	*h = d
	return nil
}

// CanonicalTimeLayout is how timestamps appear in the hashed bytes (always UTC).
const CanonicalTimeLayout = "2006-01-02T15:04:05.000000Z"

// CanonicalBytes returns the exact bytes an event's hash covers after its prev_hash, as
// specified in docs/eventloom.md and computed in Postgres by zaxy_event_canonical (and inline
// by the events_link trigger). data and cues must be the jsonb text of the stored values
// (data::text); tools/verifylog rebuilds that text from an export.
func CanonicalBytes(e *Event) []byte {
	buf := make([]byte, 0, 128+len(e.Content)+len(e.Data)+len(e.Cues))
	buf = append(buf, "zaxy-event-v1\n"...)
	field := func(v string) {
		buf = strconv.AppendInt(buf, int64(len(v)), 10)
		buf = append(buf, ':')
		buf = append(buf, v...)
		buf = append(buf, '\n')
	}
	field(e.SpaceID)
	field(strconv.FormatInt(e.Seq, 10))
	field(e.Type)
	field(e.SessionID)
	field(e.Actor)
	field(e.OccurredAt.UTC().Format(CanonicalTimeLayout))
	field(e.RecordedAt.UTC().Format(CanonicalTimeLayout))
	field(e.Content)
	field(string(e.Data))
	field(string(e.Cues))
	return buf
}

// ComputeHash returns sha256(prevHash || CanonicalBytes(e)).
func ComputeHash(prevHash []byte, e *Event) Hash {
	h := sha256.New()
	h.Write(prevHash)
	h.Write(CanonicalBytes(e))
	return h.Sum(nil)
}
