package spacelog

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	zsql "github.com/zaxy/zaxy/sql"
)

// Hand-written: export_events streams eventloom.Row; the others are read in the same snapshot.
var (
	qExportHead   = zsql.Query("spacelog/export_head")
	qExportSecret = zsql.Query("spacelog/export_secret")
	qExportEvents = zsql.Query("spacelog/export_events")
	qExportKeys   = zsql.Query("spacelog/export_keys")
)

// exportHeadRow is export_head.sql's row: the space's chain head and the snapshot's time.
type exportHeadRow struct {
	HeadSeq    int64
	HeadHash   eventloom.Hash
	ExportedAt time.Time
}

// queryExportHead runs export_head.sql for the space; pgx.ErrNoRows when it has no events.
func queryExportHead(ctx context.Context, tx pgx.Tx, spaceID string) (exportHeadRow, error) {
	var r exportHeadRow
	err := tx.QueryRow(ctx, qExportHead, spaceID).Scan(&r.HeadSeq, &r.HeadHash, &r.ExportedAt)
	return r, err
}

// exportSecretRow is export_secret.sql's row: the space's secret and when it was made.
type exportSecretRow struct {
	Secret    eventloom.HexBytes
	CreatedAt time.Time
}

// queryExportSecret runs export_secret.sql for the space; pgx.ErrNoRows when it has none.
func queryExportSecret(ctx context.Context, tx pgx.Tx, spaceID string) (exportSecretRow, error) {
	var r exportSecretRow
	err := tx.QueryRow(ctx, qExportSecret, spaceID).Scan(&r.Secret, &r.CreatedAt)
	return r, err
}

// exportArgs are the parameters of export_events.sql and export_keys.sql: what of SpaceID is
// exported, up to its chain head HeadSeq.
type exportArgs struct {
	SpaceID string
	HeadSeq int64
}

// queryExportEvents runs export_events.sql; its rows, streamed, are read by eventloom.ScanEvent.
func queryExportEvents(ctx context.Context, tx pgx.Tx, a exportArgs) (pgx.Rows, error) {
	return tx.Query(ctx, qExportEvents, a.SpaceID, a.HeadSeq)
}

// queryExportKeys runs export_keys.sql; its rows, streamed, are read by scanExportKey.
func queryExportKeys(ctx context.Context, tx pgx.Tx, a exportArgs) (pgx.Rows, error) {
	return tx.Query(ctx, qExportKeys, a.SpaceID, a.HeadSeq)
}

// scanExportKey reads a row of export_keys.sql.
func scanExportKey(rows pgx.Rows) (keyLine, error) {
	k := keyLine{Kind: kindKey}
	err := rows.Scan(&k.Key, &k.RequestHash, &k.FirstSeq, &k.LastSeq, &k.CreatedAt)
	return k, err
}

// Export writes space's whole log to w: a header, the space's secret, every event up to the
// chain head in seq order, the idempotency records and a trailer, one JSON object per line. It
// reads one REPEATABLE READ snapshot (appends that commit meanwhile are not in the file) and
// streams the rows, so its memory does not grow with the log. An unknown space is
// eventloom.ErrNotFound.
func Export(ctx context.Context, db pgexec.Executor, w io.Writer, space string) (*Summary, error) {
	if err := eventloom.ValidateSpaceID(space); err != nil {
		return nil, err
	}
	tx, err := pgexec.BeginTx(ctx, db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("export space: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read only
	x := newLineWriter(w)
	sum := &Summary{SpaceID: space}
	if err := export(ctx, tx, x, sum); err != nil {
		return nil, err
	}
	sum.Bytes = x.n
	return sum, nil
}

func export(ctx context.Context, tx pgx.Tx, x *lineWriter, sum *Summary) error {
	head, err := queryExportHead(ctx, tx, sum.SpaceID)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: space %q has no events", eventloom.ErrNotFound, sum.SpaceID)
	}
	if err != nil {
		return fmt.Errorf("read chain head: %w", err)
	}
	h := headerLine{Kind: kindHeader, Format: Format, Version: Version, SpaceID: sum.SpaceID,
		HeadSeq: head.HeadSeq, HeadHash: head.HeadHash, ExportedAt: head.ExportedAt.UTC()}
	x.object(h)

	secret, err := queryExportSecret(ctx, tx, sum.SpaceID)
	switch {
	case err == nil:
		x.object(secretLine{Kind: kindSecret, Secret: secret.Secret, CreatedAt: secret.CreatedAt.UTC()})
		sum.SpaceSecret = true
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("read space secret: %w", err)
	}

	rows, err := queryExportEvents(ctx, tx, exportArgs{SpaceID: sum.SpaceID, HeadSeq: h.HeadSeq})
	if err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	for rows.Next() {
		e, err := eventloom.ScanEvent(rows)
		if err != nil {
			rows.Close()
			return fmt.Errorf("read events: %w", err)
		}
		e.SpaceID = sum.SpaceID
		x.event(&e)
		sum.Events++
		sum.HeadSeq, sum.HeadHash = e.Seq, e.Hash
		if x.err != nil {
			rows.Close()
			return fmt.Errorf("write export: %w", x.err)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	if sum.HeadSeq != h.HeadSeq || sum.Events != h.HeadSeq {
		return fmt.Errorf("export space: the log holds %d events up to seq %d but its chain head is seq %d (run zaxy verify)",
			sum.Events, sum.HeadSeq, h.HeadSeq)
	}

	rows, err = queryExportKeys(ctx, tx, exportArgs{SpaceID: sum.SpaceID, HeadSeq: h.HeadSeq})
	if err != nil {
		return fmt.Errorf("read idempotency keys: %w", err)
	}
	for rows.Next() {
		k, err := scanExportKey(rows)
		if err != nil {
			rows.Close()
			return fmt.Errorf("read idempotency keys: %w", err)
		}
		k.CreatedAt = k.CreatedAt.UTC()
		x.object(k)
		sum.IdempotencyKeys++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read idempotency keys: %w", err)
	}

	x.object(trailerLine{Kind: kindTrailer, Events: sum.Events, HeadSeq: sum.HeadSeq, HeadHash: sum.HeadHash,
		IdempotencyKeys: sum.IdempotencyKeys, SHA256: x.sum.Sum(nil)})
	if err := x.flush(); err != nil {
		return fmt.Errorf("write export: %w", err)
	}
	return nil
}

// lineWriter writes lines through a buffer, counting the bytes and hashing them (the trailer
// carries the digest of every byte before it). The first error sticks.
type lineWriter struct {
	bw  *bufio.Writer
	sum hash.Hash
	buf []byte
	n   int64
	err error
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{bw: bufio.NewWriterSize(w, 256<<10), sum: sha256.New()}
}

// object writes v as one JSON line.
func (x *lineWriter) object(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		x.err = err
		return
	}
	x.line(append(b, '\n'))
}

func (x *lineWriter) line(b []byte) {
	if x.err != nil {
		return
	}
	x.sum.Write(b)
	n, err := x.bw.Write(b)
	x.n += int64(n)
	x.err = err
}

func (x *lineWriter) flush() error {
	if x.err != nil {
		return x.err
	}
	return x.bw.Flush()
}

// event writes an event line: the fields of `zaxy replay`, in its order, with data and cues
// as the stored jsonb text verbatim (the bytes the hash covers).
func (x *lineWriter) event(e *eventloom.Event) {
	b := x.buf[:0]
	b = append(b, `{"kind":"event","space_id":`...)
	b = appendString(b, e.SpaceID)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, e.Seq, 10)
	b = append(b, `,"type":`...)
	b = appendString(b, e.Type)
	if e.SessionID != "" {
		b = append(b, `,"session_id":`...)
		b = appendString(b, e.SessionID)
	}
	if e.Actor != "" {
		b = append(b, `,"actor":`...)
		b = appendString(b, e.Actor)
	}
	b = append(b, `,"occurred_at":"`...)
	b = e.OccurredAt.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","recorded_at":"`...)
	b = e.RecordedAt.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	if e.Content != "" {
		b = append(b, `,"content":`...)
		b = appendString(b, e.Content)
	}
	b = append(b, `,"data":`...)
	b = append(b, e.Data...)
	b = append(b, `,"cues":`...)
	b = append(b, e.Cues...)
	b = append(b, `,"prev_hash":"`...)
	b = appendHex(b, e.PrevHash)
	b = append(b, `","hash":"`...)
	b = appendHex(b, e.Hash)
	b = append(b, '"')
	if e.HashVersion != 0 {
		b = append(b, `,"hash_version":`...)
		b = strconv.AppendInt(b, int64(e.HashVersion), 10)
	}
	if e.Salt != nil {
		b = append(b, `,"salt":"`...)
		b = appendHex(b, e.Salt)
		b = append(b, '"')
	}
	if e.Erased() {
		b = append(b, `,"body_sha256":"`...)
		b = appendHex(b, e.BodyDigest)
		b = append(b, `","erased_by_seq":`...)
		b = strconv.AppendInt(b, e.ErasedBySeq, 10)
	}
	b = append(b, "}\n"...)
	x.buf = b
	x.line(b)
}

// appendString appends s as a JSON string (json.Marshal's escaping, which never fails for a
// string).
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

func appendHex(b []byte, v []byte) []byte {
	const digits = "0123456789abcdef"
	for _, c := range v {
		b = append(b, digits[c>>4], digits[c&0x0f])
	}
	return b
}
