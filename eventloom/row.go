package eventloom

import (
	"time"

	"github.com/jackc/pgx/v5"
)

// Row is an events row as every query that returns events selects it, whichever package owns
// the query: columns named as in the events table, with data and cues read as text
// (data::text AS data), which are the exact bytes that were hashed, and
// coalesce(erased_by_seq, 0) AS erased_by_seq. A query may select a subset (columns it leaves
// out stay zero). It is the one row type of the event concept; ScanEvent is its one mapper.
type Row struct {
	SpaceID     string    `db:"space_id"`
	Seq         int64     `db:"seq"`
	Type        string    `db:"type"`
	SessionID   string    `db:"session_id"`
	Actor       string    `db:"actor"`
	OccurredAt  time.Time `db:"occurred_at"`
	RecordedAt  time.Time `db:"recorded_at"`
	Content     string    `db:"content"`
	Data        string    `db:"data"`
	Cues        string    `db:"cues"`
	PrevHash    []byte    `db:"prev_hash"`
	Hash        []byte    `db:"hash"`
	HashVersion int       `db:"hash_version"`
	Salt        []byte    `db:"salt"`
	BodyDigest  []byte    `db:"body_digest"`
	ErasedBySeq int64     `db:"erased_by_seq"`
}

// Event maps the row onto an Event: times in UTC, and hash version 1 left implicit (0, absent
// in JSON).
func (r *Row) Event() Event {
	e := Event{
		SpaceID: r.SpaceID, Seq: r.Seq, Type: r.Type, SessionID: r.SessionID, Actor: r.Actor,
		OccurredAt: r.OccurredAt.UTC(), RecordedAt: r.RecordedAt.UTC(), Content: r.Content,
		Data: []byte(r.Data), Cues: []byte(r.Cues), PrevHash: r.PrevHash, Hash: r.Hash,
		HashVersion: r.HashVersion, Salt: r.Salt, BodyDigest: r.BodyDigest, ErasedBySeq: r.ErasedBySeq,
	}
	if e.HashVersion == HashV1 {
		e.HashVersion = 0 // absent in JSON means version 1
	}
	return e
}

// ScanEvent reads one Row by column name and maps it; use it with pgx.CollectRows or per row
// of pgx.Rows. Every query that returns events goes through it.
func ScanEvent(row pgx.CollectableRow) (Event, error) {
	r, err := pgx.RowToStructByNameLax[Row](row)
	if err != nil {
		return Event{}, err
	}
	return r.Event(), nil
}
