package eventloom

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/internal/pgexec"
	zsql "github.com/zaxy/zaxy/sql"
)

// Hand-written: verify_rows streams eventloom.Row (a space can hold millions of events, more
// than a generated :many should load at once); verify_sql reads a set-returning function's
// columns, which sqlc does not see.
var (
	qVerifyRows = zsql.Query("eventloom/verify_rows")
	qVerifySQL  = zsql.Query("eventloom/verify_sql")
)

// queryVerifyRows runs verify_rows.sql: every event of the space, in seq order; ScanEvent reads
// its rows.
func queryVerifyRows(ctx context.Context, db pgexec.Executor, spaceID string) (pgx.Rows, error) {
	return db.Query(ctx, qVerifyRows, spaceID)
}

// verifySQLRow is verify_sql.sql's row: zaxy_verify's answer for one space (nil where the
// function returns NULL).
type verifySQLRow struct {
	Events    int64
	HeadSeq   *int64
	HeadHash  Hash
	OK        bool
	BrokenSeq *int64
	Reason    *string
}

// queryVerifySQL runs verify_sql.sql for the space; pgx.ErrNoRows when it has no events.
func queryVerifySQL(ctx context.Context, db pgexec.Executor, spaceID string) (verifySQLRow, error) {
	var r verifySQLRow
	err := db.QueryRow(ctx, qVerifySQL, spaceID).Scan(&r.Events, &r.HeadSeq, &r.HeadHash, &r.OK, &r.BrokenSeq, &r.Reason)
	return r, err
}

// Verification methods.
const (
	// MethodGo recomputes the chain in this process from the stored values.
	MethodGo = "go"
	// MethodSQL runs the zaxy_verify function inside Postgres.
	MethodSQL = "sql"
)

// Verify recomputes every hash of a space in Go, checks every prev_hash link, gapless seq from 1
// and the recorded chain head. It runs in one REPEATABLE READ snapshot. An unknown space is
// ErrNotFound.
func (s *Store) Verify(ctx context.Context, spaceID string) (*VerifyResult, error) {
	if err := ValidateSpaceID(spaceID); err != nil {
		return nil, err
	}
	res := &VerifyResult{SpaceID: spaceID, Method: MethodGo}
	tx, err := pgexec.BeginTx(ctx, s.db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read only
	err = func() error {
		head, err := s.q.SpaceHead(ctx, tx, spaceID)
		headSeq, headHash := head.HeadSeq, head.HeadHash
		noHead := errors.Is(err, pgx.ErrNoRows)
		if err != nil && !noHead {
			return fmt.Errorf("read chain head: %w", err)
		}
		rows, err := queryVerifyRows(ctx, tx, spaceID)
		if err != nil {
			return fmt.Errorf("read events: %w", err)
		}
		defer rows.Close()
		var (
			e        Event
			prevHash = bytes.Clone(ZeroHash)
			expected = int64(1)
			// erasures maps an erasure record's seq to the erased events that name it.
			erasures = map[int64][]int64{}
		)
		e.SpaceID = spaceID
		for rows.Next() {
			e, err = ScanEvent(rows)
			if err != nil {
				return fmt.Errorf("read events: %w", err)
			}
			e.SpaceID = spaceID
			res.Events++
			// The erased events that name this seq as their erasure record.
			for _, x := range erasures[e.Seq] {
				if !(e.Type == ErasureType && ErasureTarget(e.Data) == strconv.FormatInt(x, 10)) {
					breakAt(res, x, reasonErasureUnbound)
				}
			}
			delete(erasures, e.Seq)
			if res.BrokenSeq == 0 {
				switch {
				case e.Seq > expected:
					res.BrokenSeq = expected
					res.Reason = fmt.Sprintf("seq %d is missing (the log jumps from seq %d to seq %d)", expected, expected-1, e.Seq)
				case e.Seq < expected:
					res.BrokenSeq = e.Seq
					res.Reason = fmt.Sprintf("seq %d is out of order", e.Seq)
				case !bytes.Equal(e.PrevHash, prevHash):
					res.BrokenSeq = e.Seq
					res.Reason = "prev_hash does not match the hash of the previous event"
				case e.Version() == HashV2 && !e.Erased() &&
					(e.Salt == nil || !bytes.Equal(ComputeBodyDigest(e.Salt, e.Content, e.Data), e.BodyDigest)):
					res.BrokenSeq = e.Seq
					res.Reason = "content or data does not match the event's body digest"
				case e.Version() == HashV2 && e.Erased() && (e.Content != "" || string(e.Data) != "{}" || e.Salt != nil):
					res.BrokenSeq = e.Seq
					res.Reason = "an erased event holds more than the tombstone"
				case !bytes.Equal(ComputeHash(e.PrevHash, &e), e.Hash):
					res.BrokenSeq = e.Seq
					res.Reason = "hash does not match the recomputed hash of the event"
				case e.Erased() && e.ErasedBySeq <= e.Seq:
					res.BrokenSeq = e.Seq
					res.Reason = reasonErasureUnbound
				case e.Erased():
					erasures[e.ErasedBySeq] = append(erasures[e.ErasedBySeq], e.Seq)
				}
			}
			expected = e.Seq + 1
			prevHash = append(prevHash[:0], e.Hash...)
			res.HeadSeq = e.Seq
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read events: %w", err)
		}
		for _, xs := range erasures { // erasure records past the end of the log
			for _, x := range xs {
				breakAt(res, x, reasonErasureUnbound)
			}
		}
		if res.Events == 0 && noHead {
			return fmt.Errorf("%w: space %q has no events", ErrNotFound, spaceID)
		}
		res.HeadHash = Hash(bytes.Clone(prevHash))
		if res.Events == 0 {
			res.HeadHash = nil
		}
		if res.BrokenSeq == 0 {
			checkHead(res, noHead, headSeq, headHash)
		}
		return nil
	}()
	if err != nil {
		return nil, err
	}
	res.OK = res.BrokenSeq == 0
	return res, nil
}

// reasonErasureUnbound is the verify reason for an erased event without its erasure record.
const reasonErasureUnbound = "the event is erased but no later erasure.recorded event names it"

// ErasureTarget is data->>'seq' of an erasure record: the seq it names, as text ("" when
// absent or not a number or string), read as zaxy_verify reads it.
func ErasureTarget(data []byte) string {
	var d map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&d) != nil {
		return ""
	}
	switch v := d["seq"].(type) {
	case json.Number:
		return v.String()
	case string:
		return v
	}
	return ""
}

// checkHead compares the end of the log with the recorded chain head, in the same way and
// with the same words as zaxy_verify.
func checkHead(res *VerifyResult, noHead bool, headSeq int64, headHash []byte) {
	switch {
	case noHead:
		res.BrokenSeq, res.Reason = 1, "the space has events but no chain head"
	case headSeq > res.HeadSeq:
		res.BrokenSeq = res.HeadSeq + 1
		res.Reason = fmt.Sprintf("the chain head is seq %d but the log ends at seq %d", headSeq, res.HeadSeq)
	case headSeq < res.HeadSeq:
		res.BrokenSeq = headSeq + 1
		res.Reason = fmt.Sprintf("the log continues past the chain head (seq %d)", headSeq)
	case !bytes.Equal(headHash, res.HeadHash):
		res.BrokenSeq, res.Reason = res.HeadSeq, "the last event's hash does not match the chain head"
	}
}

// VerifySQL runs the same check inside Postgres (the zaxy_verify function).
func (s *Store) VerifySQL(ctx context.Context, spaceID string) (*VerifyResult, error) {
	if err := ValidateSpaceID(spaceID); err != nil {
		return nil, err
	}
	res := &VerifyResult{SpaceID: spaceID, Method: MethodSQL}
	row, err := queryVerifySQL(ctx, s.db, spaceID)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: space %q has no events", ErrNotFound, spaceID)
	}
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	res.Events, res.HeadHash, res.OK = row.Events, row.HeadHash, row.OK
	if row.HeadSeq != nil {
		res.HeadSeq = *row.HeadSeq
	}
	if row.BrokenSeq != nil {
		res.BrokenSeq = *row.BrokenSeq
	}
	if row.Reason != nil {
		res.Reason = *row.Reason
	}
	return res, nil
}

// VerifyWith runs the named method (MethodGo or MethodSQL; "" means MethodGo).
func (s *Store) VerifyWith(ctx context.Context, spaceID, method string) (*VerifyResult, error) {
	switch method {
	case "", MethodGo:
		return s.Verify(ctx, spaceID)
	case MethodSQL:
		return s.VerifySQL(ctx, spaceID)
	}
	return nil, invalid("method", "must be %q or %q, got %q", MethodGo, MethodSQL, method)
}

// breakAt records a break at seq in res unless an earlier one is already recorded.
func breakAt(res *VerifyResult, seq int64, reason string) {
	if res.BrokenSeq == 0 || seq < res.BrokenSeq {
		res.BrokenSeq, res.Reason = seq, reason
	}
}
