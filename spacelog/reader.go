package spacelog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"regexp"
	"strconv"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/strictjson"
)

// record is one verified line after the header: an event, the space secret or an idempotency
// record (exactly one is set), or the end of the file (all nil).
type record struct {
	line   int64
	event  *eventloom.Event
	secret *secretLine
	key    *keyLine
}

// reader reads a file line by line and verifies each line against the ones before it: the
// chain as verify checks it (seq gapless from 1, prev_hash, tombstone, hash, erasure
// records; a changed content or data shows as a hash that does not follow), the order of the parts, and at the end the trailer (counts, chain head,
// digest of the lines). It holds one line and the erasures still waiting for their record.
type reader struct {
	br     *bufio.Reader
	sum    hash.Hash
	header headerLine
	line   int64
	// stage is what was read last: 0 nothing, 1 the header, 2 the secret or an event,
	// 3 an idempotency record, 4 the trailer (nothing may follow).
	stage int
	// events, lastSeq, lastHash and lastAt describe the chain read so far.
	events   int64
	lastSeq  int64
	lastHash eventloom.Hash
	lastAt   time.Time
	keys     int64
	secret   bool
	// erasures maps an erasure record's seq to the erased events that name it.
	erasures map[int64][]int64
	buf      []byte
}

func newReader(r io.Reader) *reader {
	return &reader{br: bufio.NewReaderSize(r, 256<<10), sum: sha256.New(),
		lastHash: bytes.Clone(eventloom.ZeroHash), erasures: map[int64][]int64{}}
}

// fail is the error at the current line; seq is the event it is about (0: none).
func (r *reader) fail(seq int64, format string, args ...any) error {
	return &FileError{Line: r.line, Seq: seq, Reason: fmt.Sprintf(format, args...)}
}

// readLine returns the next line without its newline; io.EOF at the end of the file. A last
// line without a newline is a truncated file.
func (r *reader) readLine() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if len(r.buf) > MaxLineBytes {
			r.line++
			return nil, r.fail(r.lastSeq+1, "the line is longer than %d bytes", MaxLineBytes)
		}
		switch {
		case err == nil:
			r.line++
			return r.buf[:len(r.buf)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(r.buf) == 0:
			return nil, io.EOF
		case errors.Is(err, io.EOF):
			r.line++
			return nil, r.truncated("the last line has no newline")
		default:
			return nil, fmt.Errorf("read export: %w", err)
		}
	}
}

// truncated is the error for a file that ends before its trailer: it names the first seq the
// file should have held next.
func (r *reader) truncated(why string) error {
	return r.fail(r.lastSeq+1, "the file is truncated (%s; the header's chain head is seq %d, the file ends after seq %d without its trailer)",
		why, r.header.HeadSeq, r.lastSeq)
}

// readHeader reads and checks the first line.
func (r *reader) readHeader() (*headerLine, error) {
	b, err := r.readLine()
	if errors.Is(err, io.EOF) {
		return nil, &FileError{Line: 1, Reason: "the file is empty"}
	}
	if err != nil {
		return nil, err
	}
	if err := decodeLine(b, kindHeader, &r.header); err != nil {
		return nil, r.fail(0, "%s", err)
	}
	h := &r.header
	switch {
	case h.Format != Format:
		return nil, r.fail(0, "format must be %q, got %q", Format, h.Format)
	case h.Version != Version:
		return nil, r.fail(0, "version %d is not one this zaxy reads (it reads %d)", h.Version, Version)
	case eventloom.ValidateSpaceID(h.SpaceID) != nil:
		return nil, r.fail(0, "space_id %q is not a space id", h.SpaceID)
	case h.HeadSeq < 1 || len(h.HeadHash) != sha256.Size:
		return nil, r.fail(0, "head_seq and head_hash must name the chain head")
	}
	r.sum.Write(b)
	r.sum.Write([]byte{'\n'})
	r.stage = 1
	return h, nil
}

// next returns the next verified record; at the trailer, a record with nothing set.
func (r *reader) next() (*record, error) {
	if r.stage >= 4 {
		if _, err := r.readLine(); !errors.Is(err, io.EOF) {
			if err != nil {
				return nil, err
			}
			return nil, r.fail(0, "a line follows the trailer")
		}
		return &record{line: r.line}, nil
	}
	b, err := r.readLine()
	if errors.Is(err, io.EOF) {
		return nil, r.truncated("no trailer")
	}
	if err != nil {
		return nil, err
	}
	var probe struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, r.fail(r.lastSeq+1, "the line is not a JSON object: %s", err)
	}
	rec := &record{line: r.line}
	switch probe.Kind {
	case kindEvent:
		if r.stage > 2 {
			return nil, r.fail(r.lastSeq+1, "an event after the idempotency records")
		}
		var l eventLine
		if err := decodeLine(b, kindEvent, &l); err != nil {
			return nil, r.fail(r.lastSeq+1, "%s", err)
		}
		if err := r.checkEvent(&l.Event); err != nil {
			return nil, err
		}
		r.stage = 2
		rec.event = &l.Event
	case kindSecret:
		if r.stage != 1 {
			return nil, r.fail(0, "the space secret must come right after the header")
		}
		var l secretLine
		if err := decodeLine(b, kindSecret, &l); err != nil {
			return nil, r.fail(0, "%s", err)
		}
		if len(l.Secret) != 32 {
			return nil, r.fail(0, "secret must be 32 bytes (64 hex characters)")
		}
		r.secret = true
		r.stage = 2
		rec.secret = &l
	case kindKey:
		if r.lastSeq != r.header.HeadSeq {
			return nil, r.fail(r.lastSeq+1, "seq %d is missing (the events end at seq %d before the idempotency records, the header's chain head is seq %d)",
				r.lastSeq+1, r.lastSeq, r.header.HeadSeq)
		}
		var l keyLine
		if err := decodeLine(b, kindKey, &l); err != nil {
			return nil, r.fail(0, "%s", err)
		}
		switch {
		case eventloom.ValidateIdempotencyKey(l.Key) != nil && !derivedOrErasedKey(l.Key):
			return nil, r.fail(0, "key %q is not an idempotency key", l.Key)
		case l.FirstSeq < 1 || l.LastSeq < l.FirstSeq || l.LastSeq > r.lastSeq:
			return nil, r.fail(0, "first_seq %d and last_seq %d must be a seq range of the log (1 to %d)", l.FirstSeq, l.LastSeq, r.lastSeq)
		}
		r.keys++
		r.stage = 3
		rec.key = &l
	case kindTrailer:
		if err := r.checkTrailer(b); err != nil {
			return nil, err
		}
		r.stage = 4
		return r.next()
	default:
		return nil, r.fail(r.lastSeq+1, "kind must be one of header, space_secret, event, idempotency_key, trailer, got %q", probe.Kind)
	}
	r.sum.Write(b)
	r.sum.Write([]byte{'\n'})
	return rec, nil
}

// erasedKey is the shape erasure renames a derived key to (a client key never holds a space).
var erasedKey = regexp.MustCompile(`^erased [1-9][0-9]*$`)

// derivedOrErasedKey reports whether key is one the service itself stores: an erased derived
// key. (Derived keys "transcript:<hex>" and "doc:<hex>" are printable ASCII like client keys.)
func derivedOrErasedKey(key string) bool { return erasedKey.MatchString(key) }

// checkEvent verifies one event against the chain before it, in verify's order and words.
func (r *reader) checkEvent(e *eventloom.Event) error {
	expected := r.lastSeq + 1
	switch {
	case e.Seq > expected:
		return r.fail(expected, "seq %d is missing (the file jumps from seq %d to seq %d)", expected, expected-1, e.Seq)
	case e.Seq < expected:
		return r.fail(e.Seq, "seq %d is out of order (a duplicate or a moved line; seq %d was expected)", e.Seq, expected)
	case e.SpaceID != r.header.SpaceID:
		return r.fail(e.Seq, "space_id %q is not the header's %q", e.SpaceID, r.header.SpaceID)
	}
	if err := checkFields(e); err != nil {
		return r.fail(e.Seq, "%s", err)
	}
	switch {
	case r.events > 0 && e.RecordedAt.Before(r.lastAt):
		return r.fail(e.Seq, "recorded_at goes backwards")
	case !bytes.Equal(e.PrevHash, r.lastHash):
		return r.fail(e.Seq, "prev_hash does not match the hash of the previous event")
	case e.Version() == eventloom.HashV2 && e.Erased() && (e.Content != "" || string(e.Data) != "{}" || e.Salt != nil || len(e.BodyDigest) == 0):
		return r.fail(e.Seq, "an erased event holds more than the tombstone")
	case !bytes.Equal(eventloom.ComputeHash(e.PrevHash, e), e.Hash):
		return r.fail(e.Seq, "hash does not match the recomputed hash of the event")
	case e.Erased() && e.ErasedBySeq <= e.Seq:
		return r.fail(e.Seq, "the event is erased but no later erasure.recorded event names it")
	case e.Erased():
		r.erasures[e.ErasedBySeq] = append(r.erasures[e.ErasedBySeq], e.Seq)
	}
	for _, x := range r.erasures[e.Seq] {
		if e.Type != eventloom.ErasureType || eventloom.ErasureTarget(e.Data) != strconv.FormatInt(x, 10) {
			return r.fail(x, "the event is erased but no later erasure.recorded event names it (seq %d does not)", e.Seq)
		}
	}
	delete(r.erasures, e.Seq)
	r.events++
	r.lastSeq = e.Seq
	r.lastHash = append(r.lastHash[:0], e.Hash...)
	r.lastAt = e.RecordedAt
	return nil
}

// checkTrailer compares the trailer with what the file held.
func (r *reader) checkTrailer(b []byte) error {
	var t trailerLine
	if err := decodeLine(b, kindTrailer, &t); err != nil {
		return r.fail(r.lastSeq+1, "%s", err)
	}
	if x := r.firstUnboundErasure(); x > 0 { // erasure records past the end of the log
		return r.fail(x, "the event is erased but no later erasure.recorded event names it")
	}
	switch {
	case r.lastSeq < r.header.HeadSeq:
		return r.fail(r.lastSeq+1, "seq %d is missing (the file ends at seq %d, its header's chain head is seq %d)",
			r.lastSeq+1, r.lastSeq, r.header.HeadSeq)
	case r.lastSeq > r.header.HeadSeq:
		return r.fail(r.header.HeadSeq+1, "the file continues past its header's chain head (seq %d)", r.header.HeadSeq)
	case !bytes.Equal(r.lastHash, r.header.HeadHash):
		return r.fail(r.lastSeq, "the last event's hash does not match the header's chain head")
	case t.Events != r.events || t.HeadSeq != r.lastSeq || !bytes.Equal(t.HeadHash, r.lastHash):
		return r.fail(r.lastSeq, "the trailer names %d events up to seq %d hash %s, the file holds %d up to seq %d hash %s",
			t.Events, t.HeadSeq, t.HeadHash, r.events, r.lastSeq, eventloom.Hash(r.lastHash))
	case t.IdempotencyKeys != r.keys:
		return r.fail(0, "the trailer names %d idempotency records, the file holds %d", t.IdempotencyKeys, r.keys)
	case !bytes.Equal(t.SHA256, r.sum.Sum(nil)):
		return r.fail(0, "the trailer's sha256 does not match the lines before it (a line was changed)")
	}
	return nil
}

// decodeLine decodes one line of the given kind into dst under strictjson's rules (no unknown
// or duplicate fields, nothing jsonb cannot store).
func decodeLine(b []byte, kind string, dst any) error {
	if err := strictjson.Decode(b, dst); err != nil {
		return fmt.Errorf("malformed %s line: %w", kind, err)
	}
	var probe struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(b, &probe)
	if probe.Kind != kind {
		return fmt.Errorf("kind must be %q, got %q", kind, probe.Kind)
	}
	return nil
}

var typePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)

// checkFields checks what the events table constrains, so that a bad event is named by its seq
// instead of failing its batch's INSERT.
func checkFields(e *eventloom.Event) error {
	switch {
	case len(e.Type) > 128 || !typePattern.MatchString(e.Type):
		return fmt.Errorf("type %q is not an event type", e.Type)
	case e.HashVersion < 0 || e.HashVersion > eventloom.HashV2:
		return fmt.Errorf("hash_version must be 1 or 2, got %d", e.HashVersion)
	case len(e.Data) == 0 || e.Data[0] != '{' || len(e.Cues) == 0 || e.Cues[0] != '{':
		return errors.New("data and cues must be JSON objects")
	case len(e.PrevHash) != sha256.Size || len(e.Hash) != sha256.Size:
		return errors.New("prev_hash and hash are required")
	case e.OccurredAt.IsZero() || e.RecordedAt.IsZero():
		return errors.New("occurred_at and recorded_at are required")
	case e.Version() == eventloom.HashV1 && (e.Salt != nil || e.BodyDigest != nil || e.ErasedBySeq != 0):
		return errors.New("a version 1 event has no salt, body_sha256 or erased_by_seq")
	case e.Version() == eventloom.HashV2 && !e.Erased() && (len(e.Salt) != 16 || e.BodyDigest != nil):
		return errors.New("a version 2 event not erased has a 16-byte salt and no body_sha256")
	case e.ErasedBySeq < 0:
		return errors.New("erased_by_seq must be positive")
	}
	if err := eventloom.CheckText("session_id", e.SessionID, 256); err != nil {
		return err
	}
	if err := eventloom.CheckText("actor", e.Actor, 256); err != nil {
		return err
	}
	return eventloom.CheckText("content", e.Content, 0)
}

// firstUnboundErasure is the lowest erased seq whose erasure record the file has not reached
// (0 when none).
func (r *reader) firstUnboundErasure() int64 {
	first := int64(0)
	for _, xs := range r.erasures {
		for _, x := range xs {
			if first == 0 || x < first {
				first = x
			}
		}
	}
	return first
}
