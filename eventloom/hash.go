package eventloom

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// ZeroHash is the prev_hash of the first event of every space: 32 zero bytes.
var ZeroHash = Hash(make([]byte, sha256.Size))

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

// Hash rule versions (events.hash_version).
const (
	// HashV1 hashes content and data inline; such events cannot be erased.
	HashV1 = eventloomwire.HashV1
	// HashV2 hashes a salted digest of content and data (BodyDigest), so they can be erased.
	HashV2 = eventloomwire.HashV2
)

// ComputeBodyDigest returns SHA-256(salt || field(content) || field(data)), the digest a
// version 2 event's hash covers in place of its content and data (data as its jsonb text).
func ComputeBodyDigest(salt []byte, content string, data []byte) Hash {
	buf := make([]byte, 0, len(salt)+len(content)+len(data)+24)
	buf = append(buf, salt...)
	buf = appendField(buf, content)
	buf = appendField(buf, string(data))
	sum := sha256.Sum256(buf)
	return sum[:]
}

// CanonicalBytesV2 returns the bytes a version 2 event's hash covers after its prev_hash:
// version 1's fields with content and data replaced by the lowercase hex of bodyDigest
// (computed in Postgres by zaxy_event_canonical_v2 and inline by the events_link trigger).
func CanonicalBytesV2(e *Event, bodyDigest []byte) []byte {
	buf := make([]byte, 0, 192+len(e.Cues))
	buf = append(buf, "zaxy-event-v2\n"...)
	buf = appendField(buf, e.SpaceID)
	buf = appendField(buf, strconv.FormatInt(e.Seq, 10))
	buf = appendField(buf, e.Type)
	buf = appendField(buf, e.SessionID)
	buf = appendField(buf, e.Actor)
	buf = appendField(buf, e.OccurredAt.UTC().Format(CanonicalTimeLayout))
	buf = appendField(buf, e.RecordedAt.UTC().Format(CanonicalTimeLayout))
	buf = appendField(buf, hex.EncodeToString(bodyDigest))
	buf = appendField(buf, string(e.Cues))
	return buf
}

func appendField(buf []byte, v string) []byte {
	buf = strconv.AppendInt(buf, int64(len(v)), 10)
	buf = append(buf, ':')
	buf = append(buf, v...)
	return append(buf, '\n')
}

// ComputeHash returns sha256(prevHash || canonical bytes of e) under e's hash rule: for
// version 1 CanonicalBytes(e); for version 2 CanonicalBytesV2 with the body digest computed
// from e's salt, content and data, or, for an erased event, its stored BodyDigest.
func ComputeHash(prevHash []byte, e *Event) Hash {
	h := sha256.New()
	h.Write(prevHash)
	switch e.Version() {
	case HashV1:
		h.Write(CanonicalBytes(e))
	default:
		digest := []byte(e.BodyDigest)
		if !e.Erased() {
			digest = ComputeBodyDigest(e.Salt, e.Content, e.Data)
		}
		h.Write(CanonicalBytesV2(e, digest))
	}
	return h.Sum(nil)
}
