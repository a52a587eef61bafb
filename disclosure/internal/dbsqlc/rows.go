package dbsqlc

// Written by hand, not generated (sqlc leaves this file alone): the rows of disclosure's
// hand-written queries (sql/disclosure/handwritten), read by column name with
// pgx.RowToStructByName. They are exported only so that pgx can fill them when they are
// embedded; the internal directory keeps them inside disclosure.

import "time"

// LineRow is an event line as the line queries select it (timeline.sql and the grouped
// listings): the event's columns, its content cut to 2,000 characters, the first invalidation
// that targets it (inv_*) and the statuses of the closed facts it recorded.
type LineRow struct {
	Seq        int64     `db:"seq"`
	Hash       []byte    `db:"hash"`
	Type       string    `db:"type"`
	SessionID  string    `db:"session_id"`
	Actor      string    `db:"actor"`
	OccurredAt time.Time `db:"occurred_at"`
	Content    string    `db:"content"`
	Data       string    `db:"data"`
	InvSeq     *int64    `db:"inv_seq"`
	InvHash    []byte    `db:"inv_hash"`
	InvReason  *string   `db:"inv_reason"`
	Statuses   []string  `db:"statuses"`
}

// GroupKey leads the rows of a grouped listing: the group (grp) and, for some, the group's
// total.
type GroupKey struct {
	Group string `db:"grp"`
	Total int64  `db:"total"`
}
