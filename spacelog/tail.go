package spacelog

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	zsql "github.com/zaxy/zaxy/sql"
)

// Hand-written: tail_events streams eventloom.Row like export_events.
var (
	qTailHead       = zsql.Query("spacelog/tail_head")
	qTailEvents     = zsql.Query("spacelog/tail_events")
	qTailKeys       = zsql.Query("spacelog/tail_keys")
	qImportContinue = zsql.Query("spacelog/import_continue")
)

// sqlstateNotContinued is raised by zaxy_import_continue for a copy that does not end where the
// tail begins.
const sqlstateNotContinued = "ZX041"

// ErrTailNotCopyable means the events after a copy's end cannot simply be appended to it: an
// erasure recorded since changed an event the copy holds. Copy the whole log again.
var ErrTailNotCopyable = errors.New("the log changed before the copy's end: copy it whole")

// ErrNotContinued means the target's copy of the space does not end at the seq and hash the
// tail continues.
var ErrNotContinued = errors.New("the copy does not end where the tail begins")

// TailParams says which tail CopyTail copies.
type TailParams struct {
	Space string
	// After is the seq the target's copy ends at; the events after it are copied.
	After int64
	// Outbox enqueues the space's projection on the target in the copy's transaction; nil
	// enqueues nothing.
	Outbox eventloom.Outbox
}

// CopyTail copies the events of p.Space after seq p.After from src to dst, whose copy of the
// space (an Import of an export taken earlier) ends at p.After: src is read in one REPEATABLE
// READ snapshot up to its chain head, dst written in one transaction through the import path of
// the events_link trigger (zaxy_import_continue, which refuses a copy that does not end at the
// source's event p.After), with the idempotency records of those events and the space's secret.
// Every hash dst computes must equal src's. A tail holding an erasure record is
// ErrTailNotCopyable: the erasure changed an event the copy holds. Runs as the schema owner on
// dst. It returns the summary of the whole log as dst now holds it (Events counts the tail).
func CopyTail(ctx context.Context, src, dst pgexec.Executor, p TailParams) (*Summary, error) {
	rtx, err := pgexec.BeginTx(ctx, src, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("copy tail: %w", err)
	}
	defer rtx.Rollback(ctx) //nolint:errcheck // read only
	var head int64
	var headHash, afterHash eventloom.Hash
	var erased bool
	if err := rtx.QueryRow(ctx, qTailHead, p.Space, p.After).Scan(&head, &headHash, &afterHash, &erased); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("%w: space %q has no events", eventloom.ErrNotFound, p.Space)
		}
		return nil, fmt.Errorf("copy tail: read chain head: %w", err)
	}
	if erased {
		return nil, fmt.Errorf("copy the tail of %q after seq %d: %w", p.Space, p.After, ErrTailNotCopyable)
	}
	if afterHash == nil {
		return nil, fmt.Errorf("copy the tail of %q after seq %d: %w (the source has no such event)", p.Space, p.After, ErrNotContinued)
	}
	wtx, err := pgexec.BeginTx(ctx, dst, pgx.TxOptions{})
	if err != nil {
		return nil, fmt.Errorf("copy tail: %w", err)
	}
	defer wtx.Rollback(ctx) //nolint:errcheck // committed below; a no-op then
	if _, err := wtx.Exec(ctx, qImportContinue, p.Space, p.After, []byte(afterHash)); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == sqlstateNotContinued {
			return nil, fmt.Errorf("%w: %s", ErrNotContinued, pgErr.Message)
		}
		return nil, fmt.Errorf("copy tail: begin import: %w", err)
	}
	sum := &Summary{SpaceID: p.Space, HeadSeq: p.After, HeadHash: afterHash}
	if err := copyTailRows(ctx, rtx, wtx, p, head, sum); err != nil {
		return nil, err
	}
	if sum.HeadSeq != head || !bytes.Equal(sum.HeadHash, headHash) {
		return nil, fmt.Errorf("copy tail: the log of %q holds events up to seq %d but its chain head is seq %d (run zaxy verify)", p.Space, sum.HeadSeq, head)
	}
	if p.Outbox != nil && sum.Events > 0 {
		if err := p.Outbox.EnqueueTx(ctx, wtx, p.Space, head); err != nil {
			return nil, fmt.Errorf("enqueue projection: %w", err)
		}
	}
	if err := wtx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("commit tail: %w", err)
	}
	return sum, nil
}

// copyTailRows streams the secret, the events after p.After up to head and their idempotency
// records from rtx into wtx.
func copyTailRows(ctx context.Context, rtx, wtx pgx.Tx, p TailParams, head int64, sum *Summary) error {
	secret, err := queryExportSecret(ctx, rtx, p.Space)
	switch {
	case err == nil:
		a := importSecretArgs{SpaceID: p.Space, Secret: []byte(secret.Secret), CreatedAt: secret.CreatedAt}
		if err := execImportSecret(ctx, wtx, a); err != nil {
			return fmt.Errorf("copy space secret: %w", err)
		}
		sum.SpaceSecret = true
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("read space secret: %w", err)
	}
	rows, err := rtx.Query(ctx, qTailEvents, p.Space, p.After, head)
	if err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	b := &batch{space: p.Space}
	for rows.Next() {
		e, err := eventloom.ScanEvent(rows)
		if err != nil {
			rows.Close()
			return fmt.Errorf("read events: %w", err)
		}
		b.add(e.Seq, &e)
		sum.Events++
		sum.HeadSeq, sum.HeadHash = e.Seq, e.Hash
		if b.full() {
			if err := b.flush(ctx, wtx); err != nil {
				rows.Close()
				return err
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	if err := b.flush(ctx, wtx); err != nil {
		return err
	}
	rows, err = rtx.Query(ctx, qTailKeys, p.Space, p.After, head)
	if err != nil {
		return fmt.Errorf("read idempotency keys: %w", err)
	}
	keys := keyBatch{space: p.Space}
	for rows.Next() {
		k, err := scanExportKey(rows)
		if err != nil {
			rows.Close()
			return fmt.Errorf("read idempotency keys: %w", err)
		}
		keys.add(&k)
		sum.IdempotencyKeys++
		if len(keys.key) >= batchEvents {
			if err := keys.flush(ctx, wtx); err != nil {
				rows.Close()
				return err
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read idempotency keys: %w", err)
	}
	return keys.flush(ctx, wtx)
}
