package graph

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// FactRow is a fact version as every query that returns facts selects it, whichever package
// owns the query (graph/facts, the disclosure views): the facts table's columns plus
// subject_name and object_name from entities, value and evidence read as text
// (f.value::text AS value), and, for views of a past moment, status_then. A query may leave
// out status_then (it then equals status). It is the one row type of the fact concept;
// ScanFact is its one mapper.
type FactRow struct {
	FactID       string     `db:"fact_id"`
	SubjectID    string     `db:"subject_id"`
	SubjectName  string     `db:"subject_name"`
	Predicate    string     `db:"predicate"`
	ObjectID     *string    `db:"object_id"`
	ObjectName   *string    `db:"object_name"`
	Value        *string    `db:"value"`
	Version      int32      `db:"version"`
	ValidFrom    time.Time  `db:"valid_from"`
	ValidTo      *time.Time `db:"valid_to"`
	RecordedSeq  int64      `db:"recorded_seq"`
	RecordedHash []byte     `db:"recorded_hash"`
	ClosedSeq    *int64     `db:"closed_seq"`
	StatusThen   string     `db:"status_then"`
	Status       string     `db:"status"`
	SupersededBy *string    `db:"superseded_by"`
	Authority    string     `db:"authority"`
	ReviewStatus string     `db:"review_status"`
	Inferred     bool       `db:"inferred"`
	Confidence   *float32   `db:"confidence"`
	Evidence     string     `db:"evidence"`
	CloseReason  *string    `db:"close_reason"`
}

// Fact maps the row onto a Fact: times in UTC, the object only when there is one, the
// evidence decoded.
func (r *FactRow) Fact() (Fact, error) {
	f := Fact{
		ID: r.FactID, Subject: EntityRef{ID: r.SubjectID, Name: r.SubjectName}, Predicate: r.Predicate,
		Version: r.Version, ValidFrom: r.ValidFrom.UTC(), RecordedSeq: r.RecordedSeq,
		RecordedHash: r.RecordedHash, ClosedSeq: r.ClosedSeq, StatusThen: r.StatusThen, Status: r.Status,
		SupersededBy: r.SupersededBy, Authority: r.Authority, ReviewStatus: r.ReviewStatus,
		Inferred: r.Inferred, Confidence: r.Confidence, CloseReason: r.CloseReason,
	}
	if f.StatusThen == "" {
		f.StatusThen = f.Status
	}
	if r.ObjectID != nil {
		f.Object = &EntityRef{ID: *r.ObjectID}
		if r.ObjectName != nil {
			f.Object.Name = *r.ObjectName
		}
	}
	if r.Value != nil {
		f.Value = json.RawMessage(*r.Value)
	}
	if r.ValidTo != nil {
		t := r.ValidTo.UTC()
		f.ValidTo = &t
	}
	if err := json.Unmarshal([]byte(r.Evidence), &f.Evidence); err != nil {
		return f, fmt.Errorf("fact %s evidence: %w", f.ID, err)
	}
	return f, nil
}

// ScanFact reads one FactRow by column name and maps it; use it with pgx.CollectRows. Every
// query that returns facts goes through it.
func ScanFact(row pgx.CollectableRow) (Fact, error) {
	r, err := pgx.RowToStructByNameLax[FactRow](row)
	if err != nil {
		return Fact{}, err
	}
	return r.Fact()
}
