package eventloom

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/zaxy/zaxy/eventloom/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
	zsql "github.com/zaxy/zaxy/sql"
	"github.com/zaxy/zaxy/vocab"
)

// qAppend is hand-written (appendArgs says why); the other queries are generated (dbsqlc).
var qAppend = zsql.Query("eventloom/append")

// AppendParams is one append: one event or an all-or-nothing batch into one space.
type AppendParams struct {
	// SpaceID is the space to append to; it exists from its first append.
	SpaceID string
	// Events are appended in order, all or none.
	Events []NewEvent
	// IdempotencyKey, when set, makes a retry with the same key and body return the original
	// receipts; the same key with a different body is ErrConflict and appends nothing.
	IdempotencyKey string
	// Admin marks an append by a caller with admin rights (an admin token, auth off, or the
	// CLI with database access). Only such an append may hold redaction.configured events;
	// otherwise they are refused as invalid, naming the type field.
	Admin bool
	// ProjectLater appends without enqueuing the projection job in the append's transaction:
	// the caller enqueues it afterwards with EnqueueProjection, off its own critical path, and
	// the periodic sweep enqueues any that are lost (jobs/sweep.go, every 30 s). Meant for
	// bookkeeping records (a checkout's checkout.surfaced), never for memory an agent is about
	// to look for. With nothing to redact and no idempotency key, such an append is one
	// statement in one round trip.
	ProjectLater bool
}

// Append appends in its own transaction.
func (s *Store) Append(ctx context.Context, p *AppendParams) (*AppendResult, error) {
	ctx, span := startAppend(ctx, p)
	res, err := s.appendOwnTx(ctx, p)
	endAppend(span, res, err)
	return res, err
}

// appendOwnTx is Append, untraced.
func (s *Store) appendOwnTx(ctx context.Context, p *AppendParams) (*AppendResult, error) {
	pr, err := prepareAppend(ctx, p)
	if err != nil {
		return nil, err
	}
	if s.oneStatement(p, pr) {
		receipts, err := insertEvents(ctx, s.db, p.SpaceID, p.Events)
		if err != nil {
			return nil, err
		}
		return &AppendResult{SpaceID: p.SpaceID, Receipts: receipts}, nil
	}
	var res *AppendResult
	err = pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		var err error
		res, err = s.appendTx(ctx, tx, p, pr, false)
		return err
	})
	if errors.Is(err, errKeyTaken) {
		// A retry, or another request with this key committed first: answer from the record.
		err = pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
			var err error
			res, err = s.answerRetry(ctx, tx, p.SpaceID, p.IdempotencyKey, requestHash(p.Events))
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("append: idempotency key %q vanished", p.IdempotencyKey)
			}
			return err
		})
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// oneStatement reports whether p can be appended as one statement (its own implicit
// transaction: the batch is still all or nothing) because nothing else must commit with it: no
// projection job (ProjectLater, or no outbox), no idempotency record, and no secret to redact,
// whose mode would be read under the space's lock. Never on a store over a caller's
// transaction: a failing statement there would abort it, where the savepoint of the general
// path leaves it usable.
func (s *Store) oneStatement(p *AppendParams, pr preparedAppend) bool {
	_, inTx := s.db.(pgx.Tx)
	return !inTx && p.IdempotencyKey == "" && (s.outbox == nil || p.ProjectLater) && pr.redactions == 0
}

// EnqueueProjection enqueues the projection job of space's events up to headSeq, in its own
// transaction: what an append with ProjectLater left to its caller. Without an outbox it does
// nothing.
func (s *Store) EnqueueProjection(ctx context.Context, space string, headSeq int64) error {
	if s.outbox == nil {
		return nil
	}
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := s.outbox.EnqueueTx(ctx, tx, space, headSeq); err != nil {
			return fmt.Errorf("enqueue projection: %w", err)
		}
		return nil
	})
}

// preparedAppend is what an append works out before touching the database: its events with
// their secrets redacted, and how many were.
type preparedAppend struct {
	redacted   []NewEvent
	redactions int
}

// prepareAppend validates p and redacts its events, giving up with ctx's error when ctx is
// done. Redaction runs before the space's lock is taken; whether the redacted events are the ones stored depends on the mode, read under the
// lock (appendTx).
func prepareAppend(ctx context.Context, p *AppendParams) (preparedAppend, error) {
	if err := validateAppend(p); err != nil {
		return preparedAppend{}, err
	}
	redacted, redactions, err := redactEvents(ctx, p.Events)
	if err != nil {
		return preparedAppend{}, err
	}
	return preparedAppend{redacted: redacted, redactions: redactions}, nil
}

// validateAppend checks an append's space, events, idempotency key and privileges.
func validateAppend(p *AppendParams) error {
	if err := ValidateSpaceID(p.SpaceID); err != nil {
		return err
	}
	if err := ValidateBatch(p.Events); err != nil {
		return err
	}
	if p.IdempotencyKey != "" {
		if err := ValidateIdempotencyKey(p.IdempotencyKey); err != nil {
			return err
		}
	}
	return checkPrivileged(p)
}

// AppendTx appends inside the caller's transaction (which must be READ COMMITTED, the
// default): the events, the idempotency record and the outbox job commit or roll back with it.
// Writers to the same space wait for each other from the insert until commit. The append runs
// in a savepoint, so a failed append leaves the caller's transaction usable.
func (s *Store) AppendTx(ctx context.Context, tx pgx.Tx, p *AppendParams) (*AppendResult, error) {
	ctx, span := startAppend(ctx, p)
	pr, err := prepareAppend(ctx, p)
	var res *AppendResult
	if err == nil {
		res, err = s.appendTx(ctx, tx, p, pr, true)
	}
	endAppend(span, res, err)
	return res, err
}

// errKeyTaken: the idempotency key already has a record (a retry, or a concurrent request
// committed it first). Only returned when the append owns its transaction (no savepoint);
// Append then rolls back and answers from the record.
var errKeyTaken = errors.New("idempotency key already recorded")

// appendTx appends in tx. With savepoint, the append's writes can be undone without touching
// the rest of tx; without (the transaction is the append's own), that costs two round trips
// and a subtransaction less, and a taken idempotency key returns errKeyTaken.
//
// Round trips: the events (one statement), the outbox job, and with savepoint the savepoint
// and its release. With an idempotency key, the key lookup, the events and the key record
// travel in one pipelined batch: a retry therefore inserts and then undoes its events, which
// costs a retry a little and saves every first attempt two round trips.
func (s *Store) appendTx(ctx context.Context, tx pgx.Tx, p *AppendParams, pr preparedAppend, savepoint bool) (*AppendResult, error) {
	// With nothing to redact the mode does not matter and the lock is left to the insert.
	redacted, redactions := pr.redacted, pr.redactions

	w := tx
	if savepoint {
		sp, err := tx.Begin(ctx)
		if err != nil {
			return nil, fmt.Errorf("append: %w", err)
		}
		defer sp.Rollback(ctx) //nolint:errcheck // no-op after commit
		w = sp
	}

	events := p.Events
	if redactions > 0 {
		mode, err := lockedRedactionMode(ctx, w, p.SpaceID)
		if err != nil {
			return nil, err
		}
		if mode == vocab.RedactionOff {
			redactions = 0
		} else {
			events = redacted
		}
	}

	var receipts []Receipt
	if p.IdempotencyKey == "" {
		var err error
		if receipts, err = insertEvents(ctx, w, p.SpaceID, events); err != nil {
			return nil, err
		}
	} else {
		reqHash := requestHash(p.Events)
		var taken bool
		var err error
		if receipts, taken, err = insertEventsKeyed(ctx, w, p, events, reqHash); err != nil {
			return nil, err
		}
		if taken {
			if !savepoint {
				return nil, errKeyTaken
			}
			if err := w.Rollback(ctx); err != nil {
				return nil, fmt.Errorf("append: %w", err)
			}
			return s.answerRetry(ctx, tx, p.SpaceID, p.IdempotencyKey, reqHash)
		}
	}
	if s.outbox != nil && !p.ProjectLater {
		if err := s.outbox.EnqueueTx(ctx, w, p.SpaceID, receipts[len(receipts)-1].Seq); err != nil {
			return nil, fmt.Errorf("enqueue projection: %w", err)
		}
	}
	if savepoint {
		if err := w.Commit(ctx); err != nil {
			return nil, fmt.Errorf("append: %w", err)
		}
	}
	return &AppendResult{SpaceID: p.SpaceID, Receipts: receipts, Redactions: redactions}, nil
}

// appendArgs are append.sql's parameters: the space and one array per column of the events,
// all of one length, in append order (a NULL element is an unset occurred_at, data or cues).
// The statement stays hand-written because zaxy bench append runs it, and a copy of its shape
// (bench_plain_append.sql), by name.
type appendArgs struct {
	SpaceID                             string
	Types, SessionIDs, Actors, Contents []string
	OccurredAts                         []pgtype.Timestamptz
	Datas, Cues                         []*string
}

// newAppendArgs are the append of events into space.
func newAppendArgs(space string, events []NewEvent) appendArgs {
	n := len(events)
	a := appendArgs{SpaceID: space, Types: make([]string, n), SessionIDs: make([]string, n), Actors: make([]string, n),
		Contents: make([]string, n), OccurredAts: make([]pgtype.Timestamptz, n), Datas: make([]*string, n), Cues: make([]*string, n)}
	for i, e := range events {
		a.Types[i], a.SessionIDs[i], a.Actors[i], a.Contents[i] = e.Type, e.SessionID, e.Actor, e.Content
		if e.OccurredAt != nil {
			a.OccurredAts[i] = pgtype.Timestamptz{Time: *e.OccurredAt, Valid: true}
		}
		a.Datas[i] = rawOrNil(e.Data)
		a.Cues[i] = rawOrNil(e.Cues)
	}
	return a
}

// queryAppend runs append.sql; its rows are the receipts' columns.
func queryAppend(ctx context.Context, db pgexec.Executor, a appendArgs) (pgx.Rows, error) {
	return db.Query(ctx, qAppend, a.SpaceID, a.Types, a.SessionIDs, a.Actors, a.OccurredAts, a.Contents, a.Datas, a.Cues)
}

// appendKeyedParams are AppendKeyed's columns of events, with the key and request digest.
func appendKeyedParams(p *AppendParams, events []NewEvent, reqHash []byte) dbsqlc.AppendKeyedParams {
	n := len(events)
	a := dbsqlc.AppendKeyedParams{SpaceID: p.SpaceID, Key: p.IdempotencyKey, RequestHash: reqHash,
		Types: make([]string, n), SessionIds: make([]string, n), Actors: make([]string, n),
		OccurredAts: make([]time.Time, n), OccurredAtSet: make([]bool, n), Contents: make([]string, n),
		Datas: make([]string, n), DataSet: make([]bool, n), Cues: make([]string, n), CuesSet: make([]bool, n)}
	for i, e := range events {
		a.Types[i], a.SessionIds[i], a.Actors[i], a.Contents[i] = e.Type, e.SessionID, e.Actor, e.Content
		if e.OccurredAt != nil {
			a.OccurredAts[i], a.OccurredAtSet[i] = *e.OccurredAt, true
		}
		a.Datas[i], a.DataSet[i] = string(e.Data), e.Data != nil
		a.Cues[i], a.CuesSet[i] = string(e.Cues), e.Cues != nil
	}
	return a
}

// insertEventsKeyed looks the key up and appends with its record in one pipelined batch.
// taken reports that the key already had a record or another request recorded it first; the
// events may then have been inserted and the caller must undo them.
func insertEventsKeyed(ctx context.Context, tx pgx.Tx, p *AppendParams, events []NewEvent, reqHash []byte) (receipts []Receipt, taken bool, err error) {
	b := &pgx.Batch{}
	dbsqlc.QueueIdempotencyGet(b, dbsqlc.IdempotencyGetParams{SpaceID: p.SpaceID, Key: p.IdempotencyKey})
	dbsqlc.QueueAppendKeyed(b, appendKeyedParams(p, events, reqHash))
	br := tx.SendBatch(ctx, b)
	defer br.Close() //nolint:errcheck // the results that matter are read below

	var stored dbsqlc.IdempotencyGetRow
	switch err := br.QueryRow().Scan(&stored.RequestHash, &stored.FirstSeq, &stored.LastSeq); {
	case err == nil:
		return nil, true, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, false, fmt.Errorf("read idempotency key: %w", err)
	}
	rows, err := br.Query()
	if err != nil {
		return nil, false, fmt.Errorf("append events: %w", mapPgError(err))
	}
	var recorded bool
	receipts, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (Receipt, error) {
		var r Receipt
		err := row.Scan(&r.Seq, &r.Hash, &r.PrevHash, &r.RecordedAt, &r.OccurredAt, &recorded) // AppendKeyedRow's columns
		r.RecordedAt, r.OccurredAt = r.RecordedAt.UTC(), r.OccurredAt.UTC()
		return r, err
	})
	if err != nil {
		return nil, false, fmt.Errorf("append events: %w", mapPgError(err))
	}
	if len(receipts) != len(events) {
		return nil, false, fmt.Errorf("append events: inserted %d of %d", len(receipts), len(events))
	}
	if !recorded {
		return nil, true, nil
	}
	return receipts, false, nil
}

func insertEvents(ctx context.Context, db pgexec.Executor, space string, events []NewEvent) ([]Receipt, error) {
	rows, err := queryAppend(ctx, db, newAppendArgs(space, events))
	if err != nil {
		return nil, fmt.Errorf("append events: %w", mapPgError(err))
	}
	receipts, err := pgx.CollectRows(rows, scanReceipt)
	if err != nil {
		return nil, fmt.Errorf("append events: %w", mapPgError(err))
	}
	if len(receipts) != len(events) {
		return nil, fmt.Errorf("append events: inserted %d of %d", len(receipts), len(events))
	}
	return receipts, nil
}

func rawOrNil(r json.RawMessage) *string {
	if r == nil {
		return nil
	}
	s := string(r)
	return &s
}

func scanReceipt(row pgx.CollectableRow) (Receipt, error) {
	var r Receipt
	err := row.Scan(&r.Seq, &r.Hash, &r.PrevHash, &r.RecordedAt, &r.OccurredAt)
	r.RecordedAt, r.OccurredAt = r.RecordedAt.UTC(), r.OccurredAt.UTC()
	return r, err
}

// answerRetry answers from an existing idempotency record; pgx.ErrNoRows when there is none.
func (s *Store) answerRetry(ctx context.Context, tx pgx.Tx, space, key string, reqHash []byte) (*AppendResult, error) {
	rec, err := s.q.IdempotencyGet(ctx, tx, dbsqlc.IdempotencyGetParams{SpaceID: space, Key: key})
	stored, first, last := rec.RequestHash, rec.FirstSeq, rec.LastSeq
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, err
		}
		return nil, fmt.Errorf("read idempotency key: %w", err)
	}
	if string(stored) != string(reqHash) {
		return nil, fmt.Errorf("%w: idempotency key %q was already used with a different request body (seq %d-%d)", ErrConflict, key, first, last)
	}
	rows, err := s.q.Receipts(ctx, tx, dbsqlc.ReceiptsParams{SpaceID: space, FirstSeq: first, LastSeq: last})
	if err != nil {
		return nil, fmt.Errorf("read receipts: %w", err)
	}
	receipts := make([]Receipt, len(rows))
	for i, r := range rows {
		receipts[i] = Receipt{Seq: r.Seq, Hash: r.Hash, PrevHash: r.PrevHash, RecordedAt: r.RecordedAt.UTC(), OccurredAt: r.OccurredAt.UTC()}
	}
	return &AppendResult{SpaceID: space, Receipts: receipts, Replayed: true}, nil
}

// requestHash digests what the client sent (before defaults), so a retry of the same request
// matches even when occurred_at was left to default.
func requestHash(events []NewEvent) []byte {
	type norm struct {
		Type, SessionID, Actor, OccurredAt, Content string
		Data, Cues                                  any
	}
	list := make([]norm, len(events))
	for i, e := range events {
		n := norm{Type: e.Type, SessionID: e.SessionID, Actor: e.Actor, Content: e.Content,
			Data: normalizeJSON(e.Data), Cues: normalizeJSON(e.Cues)}
		if e.OccurredAt != nil {
			n.OccurredAt = e.OccurredAt.UTC().Format(time.RFC3339Nano)
		}
		list[i] = n
	}
	b, err := json.Marshal(list)
	if err != nil {
		panic(err) // only maps, slices, strings and json.Number: cannot fail
	}
	sum := sha256.Sum256(b)
	return sum[:]
}

// normalizeJSON decodes a validated object so that key order and whitespace do not matter.
func normalizeJSON(raw json.RawMessage) any {
	if raw == nil {
		return map[string]any{}
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	return v
}
