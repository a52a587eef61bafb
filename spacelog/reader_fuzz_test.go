package spacelog

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/zaxy/zaxy/eventloom"
)

// seedChain is a small valid chain: a message, an erased event and its erasure record.
func seedChain() []eventloom.Event {
	at := time.Date(2026, 1, 2, 3, 4, 5, 678901000, time.UTC)
	prev := eventloom.Hash(bytes.Clone(eventloom.ZeroHash))
	var out []eventloom.Event
	add := func(e eventloom.Event) {
		e.SpaceID, e.Seq, e.PrevHash = "fuzz", int64(len(out)+1), prev
		if e.OccurredAt.IsZero() {
			e.OccurredAt = at
		}
		e.RecordedAt = at.Add(time.Duration(len(out)) * time.Millisecond)
		if e.Cues == nil {
			e.Cues = []byte(`{}`)
		}
		e.Hash = eventloom.ComputeHash(prev, &e)
		prev = e.Hash
		out = append(out, e)
	}
	add(eventloom.Event{Type: "message", Content: "héllo \"x\"", Data: []byte(`{"n": 1.50, "role": "user"}`),
		Cues: []byte(`{"task": "t"}`), HashVersion: 2, Salt: bytes.Repeat([]byte{1}, 16)})
	add(eventloom.Event{Type: "message", Data: []byte(`{}`), HashVersion: 2,
		BodyDigest: eventloom.ComputeBodyDigest(bytes.Repeat([]byte{2}, 16), "secret", []byte(`{}`)), ErasedBySeq: 3})
	add(eventloom.Event{Type: eventloom.ErasureType, Actor: "ops", Data: []byte(`{"seq": 2, "reason": "asked"}`),
		HashVersion: 2, Salt: bytes.Repeat([]byte{3}, 16)})
	return out
}

// FuzzReadFile feeds arbitrary files to the importer's line reader (everything Import checks
// before it writes): it never panics, every refusal is a *FileError, and a file it accepts
// holds a gapless chain ending at its header's head.
func FuzzReadFile(f *testing.F) {
	good := FileOf(f, seedChain())
	f.Add(good)
	f.Add(good[:len(good)-10])
	f.Add(bytes.Replace(good, []byte(`"seq":2,`), []byte(`"seq":3,`), 1))
	f.Add(bytes.Replace(good, []byte(`1.50`), []byte(`1.5`), 1))
	f.Add([]byte("{\"kind\":\"header\"}\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, file []byte) {
		r := newReader(bytes.NewReader(file))
		h, err := r.readHeader()
		if err != nil {
			requireFileError(t, err)
			return
		}
		var events int64
		for {
			rec, err := r.next()
			if err != nil {
				requireFileError(t, err)
				return
			}
			if rec.event != nil {
				events++
				if rec.event.Seq != events {
					t.Fatalf("accepted seq %d as event %d", rec.event.Seq, events)
				}
				continue
			}
			if rec.secret == nil && rec.key == nil {
				break
			}
		}
		if events != h.HeadSeq || !bytes.Equal(r.lastHash, h.HeadHash) {
			t.Fatalf("accepted a file of %d events ending at %s; its header says seq %d hash %s", events, r.lastHash, h.HeadSeq, h.HeadHash)
		}
	})
}

func requireFileError(t *testing.T, err error) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("refused with %T, not a *FileError: %v", err, err)
	}
}

func TestReadFile_AcceptsTheSeedChain(t *testing.T) {
	sum, err := Check(bytes.NewReader(FileOf(t, seedChain())), "fuzz", nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Events != 3 {
		t.Fatalf("events = %d", sum.Events)
	}
}
