package spacelog

import (
	"time"

	"github.com/zaxy/zaxy/eventloom"
)

// Format names the file format in its header; Version is the version this package writes and
// reads.
const (
	Format  = "zaxy-space-log"
	Version = 1
)

// Line kinds: every line of a file is one JSON object whose "kind" is one of these. A file is a
// header, the space secret (when the space has one), the events in seq order, the idempotency
// records, and a trailer, in that order.
const (
	kindHeader  = "header"
	kindSecret  = "space_secret"
	kindEvent   = "event"
	kindKey     = "idempotency_key"
	kindTrailer = "trailer"
)

// MaxLineBytes bounds one line of a file (an event's content and data are its bulk).
const MaxLineBytes = 64 << 20

// headerLine is a file's first line.
type headerLine struct {
	Kind    string `json:"kind"`
	Format  string `json:"format"`
	Version int    `json:"version"`
	SpaceID string `json:"space_id"`
	// HeadSeq and HeadHash are the chain head of the exported snapshot (the last event's).
	HeadSeq    int64          `json:"head_seq"`
	HeadHash   eventloom.Hash `json:"head_hash"`
	ExportedAt time.Time      `json:"exported_at"`
}

// secretLine is the space's secret (space_secrets), which keys the idempotency keys the service
// derives from request content.
type secretLine struct {
	Kind      string             `json:"kind"`
	Secret    eventloom.HexBytes `json:"secret"`
	CreatedAt time.Time          `json:"created_at"`
}

// eventLine is one event: the fields of eventloom.Event as `zaxy replay` prints them, except
// that data and cues are the jsonb text the hash covers, verbatim.
type eventLine struct {
	Kind string `json:"kind"`
	eventloom.Event
}

// keyLine is one idempotency record (idempotency_keys): a client's key, or a derived key,
// naming the seq range its request appended and the digest of its body.
type keyLine struct {
	Kind        string         `json:"kind"`
	Key         string         `json:"key"`
	RequestHash eventloom.Hash `json:"request_hash"`
	FirstSeq    int64          `json:"first_seq"`
	LastSeq     int64          `json:"last_seq"`
	CreatedAt   time.Time      `json:"created_at"`
}

// trailerLine is a file's last line; a file without it is truncated.
type trailerLine struct {
	Kind            string         `json:"kind"`
	Events          int64          `json:"events"`
	HeadSeq         int64          `json:"head_seq"`
	HeadHash        eventloom.Hash `json:"head_hash"`
	IdempotencyKeys int64          `json:"idempotency_keys"`
	// SHA256 is the digest of every byte of the file before the trailer.
	SHA256 eventloom.Hash `json:"sha256"`
}

// Summary describes a file written or read.
type Summary struct {
	SpaceID string `json:"space_id"`
	// Events is the number of events; HeadSeq and HeadHash the last one's seq and hash.
	Events   int64          `json:"events"`
	HeadSeq  int64          `json:"head_seq"`
	HeadHash eventloom.Hash `json:"head_hash"`
	// IdempotencyKeys is the number of idempotency records; SpaceSecret whether the file
	// carries the space's secret.
	IdempotencyKeys int64 `json:"idempotency_keys"`
	SpaceSecret     bool  `json:"space_secret"`
	// Bytes is the size of the file.
	Bytes int64 `json:"bytes"`
}
