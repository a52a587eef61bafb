package spacelog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	zsql "github.com/zaxy/zaxy/sql"
)

var (
	qImportBegin  = zsql.Query("spacelog/import_begin")
	qImportEvents = zsql.Query("spacelog/import_events")
	qImportKeys   = zsql.Query("spacelog/import_keys")
	qImportSecret = zsql.Query("spacelog/import_secret")
)

// execImportBegin runs import_begin.sql for the space.
func execImportBegin(ctx context.Context, tx pgx.Tx, spaceID string) error {
	_, err := tx.Exec(ctx, qImportBegin, spaceID)
	return err
}

// importSecretArgs are import_secret.sql's parameters: the exported Secret of SpaceID, made at
// CreatedAt.
type importSecretArgs struct {
	SpaceID   string
	Secret    []byte
	CreatedAt time.Time
}

// execImportSecret runs import_secret.sql.
func execImportSecret(ctx context.Context, tx pgx.Tx, a importSecretArgs) error {
	_, err := tx.Exec(ctx, qImportSecret, a.SpaceID, a.Secret, a.CreatedAt)
	return err
}

// queryImportEvents runs import_events.sql with b's space and columns; its rows are each
// inserted event's seq and hash, in order.
func queryImportEvents(ctx context.Context, tx pgx.Tx, b *batch) (pgx.Rows, error) {
	return tx.Query(ctx, qImportEvents, b.space, b.types, b.sessions, b.actors, b.occurred, b.recorded,
		b.contents, b.data, b.cues, b.versions, b.salts, b.digests, b.erasedBy)
}

// execImportKeys runs import_keys.sql with k's space and columns.
func execImportKeys(ctx context.Context, tx pgx.Tx, k *keyBatch) error {
	_, err := tx.Exec(ctx, qImportKeys, k.space, k.key, k.hash, k.first, k.last, k.created)
	return err
}

// Import batch bounds: a batch is inserted when it holds this many events or bytes of content
// and data, so memory stays bounded whatever the size of the log.
const (
	batchEvents = 1000
	batchBytes  = 8 << 20
)

// ImportParams says where a file goes and what it must hold.
type ImportParams struct {
	// Space is the space to import into. It must be the file's: every hash covers the space id.
	Space string
	// HeadHash, when set, is the chain head the file must end at, known from elsewhere (a
	// receipt, zaxy verify --json at the source, a copy kept off-site): it catches a file
	// whose every hash was recomputed after a change.
	HeadHash eventloom.Hash
	// Outbox enqueues the space's projection in the import's transaction, as an append does;
	// nil enqueues nothing (tools and tests of the bare log).
	Outbox eventloom.Outbox
}

// Import reads an export from r into the empty space p.Space in one transaction: it verifies
// each line as it reads it (the chain as verify checks it, the order of the parts, the trailer)
// and inserts the events in batches through the import path of the events_link trigger, which
// computes every hash on this database; the import fails unless each equals the file's. On any
// error nothing is written: a bad file is a *FileError naming the first bad seq (ErrBadFile), a
// space with events ErrNotEmpty. On success the projection job is enqueued with the events.
// Imports run as the schema owner (zaxy_import_begin is not granted to the application role).
func Import(ctx context.Context, db pgexec.Executor, r io.Reader, p ImportParams) (*Summary, error) {
	if err := eventloom.ValidateSpaceID(p.Space); err != nil {
		return nil, err
	}
	tx, err := pgexec.BeginTx(ctx, db, pgx.TxOptions{})
	if err != nil {
		return nil, fmt.Errorf("import space: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // committed below; a no-op then
	sum, err := importTx(ctx, tx, r, p)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("commit import: %w", err)
	}
	return sum, nil
}

func importTx(ctx context.Context, tx pgx.Tx, r io.Reader, p ImportParams) (*Summary, error) {
	rd := newReader(r)
	h, err := rd.readHeader()
	if err != nil {
		return nil, err
	}
	if err := checkTarget(h, p); err != nil {
		return nil, err
	}
	if err := execImportBegin(ctx, tx, p.Space); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == sqlstateNotEmpty {
			return nil, fmt.Errorf("%w: %s", ErrNotEmpty, pgErr.Message)
		}
		if errors.As(err, &pgErr) && pgErr.Code == "42501" { // insufficient_privilege
			return nil, fmt.Errorf("begin import (imports run as the schema owner, the role zaxy migrate runs as): %w", err)
		}
		return nil, fmt.Errorf("begin import: %w", err)
	}
	b := &batch{space: p.Space}
	keys := keyBatch{space: p.Space}
	seen := map[string]int64{}
	for {
		rec, err := rd.next()
		if err != nil {
			return nil, err
		}
		switch {
		case rec.secret != nil:
			a := importSecretArgs{SpaceID: p.Space, Secret: []byte(rec.secret.Secret), CreatedAt: rec.secret.CreatedAt}
			if err := execImportSecret(ctx, tx, a); err != nil {
				return nil, fmt.Errorf("import space secret: %w", err)
			}
		case rec.event != nil:
			b.add(rec.line, rec.event)
			if b.full() {
				if err := b.flush(ctx, tx); err != nil {
					return nil, err
				}
			}
		case rec.key != nil:
			if line, dup := seen[rec.key.Key]; dup {
				return nil, &FileError{Line: rec.line, Reason: fmt.Sprintf("idempotency key %q is already on line %d", rec.key.Key, line)}
			}
			seen[rec.key.Key] = rec.line
			if err := b.flush(ctx, tx); err != nil { // the records name the events
				return nil, err
			}
			keys.add(rec.key)
			if len(keys.key) >= batchEvents {
				if err := keys.flush(ctx, tx); err != nil {
					return nil, err
				}
			}
		default: // the trailer, and nothing after it
			if err := b.flush(ctx, tx); err != nil {
				return nil, err
			}
			if err := keys.flush(ctx, tx); err != nil {
				return nil, err
			}
			if p.Outbox != nil {
				if err := p.Outbox.EnqueueTx(ctx, tx, p.Space, rd.lastSeq); err != nil {
					return nil, fmt.Errorf("enqueue projection: %w", err)
				}
			}
			return rd.summary(), nil
		}
	}
}

// checkTarget refuses a file that is not the log p asks for.
func checkTarget(h *headerLine, p ImportParams) error {
	if h.SpaceID != p.Space {
		return &FileError{Line: 1, Reason: fmt.Sprintf(
			"the file is the log of space %q, not %q (every hash covers the space id, so it imports only as %q)", h.SpaceID, p.Space, h.SpaceID)}
	}
	if p.HeadHash != nil && !bytes.Equal(p.HeadHash, h.HeadHash) {
		return &FileError{Line: 1, Seq: h.HeadSeq, Reason: fmt.Sprintf(
			"the file's chain head is %s, not the expected %s", h.HeadHash, p.HeadHash)}
	}
	return nil
}

// Check verifies a file without a database: everything Import checks before it inserts (the
// hashes as this process computes them; Import also compares them with the database's). space,
// when set, must be the file's; headHash, when set, its chain head.
func Check(r io.Reader, space string, headHash eventloom.Hash) (*Summary, error) {
	rd := newReader(r)
	h, err := rd.readHeader()
	if err != nil {
		return nil, err
	}
	if space == "" {
		space = h.SpaceID
	}
	if err := checkTarget(h, ImportParams{Space: space, HeadHash: headHash}); err != nil {
		return nil, err
	}
	for {
		rec, err := rd.next()
		if err != nil {
			return nil, err
		}
		if rec.event == nil && rec.secret == nil && rec.key == nil {
			return rd.summary(), nil
		}
	}
}

// summary describes what the reader has read.
func (r *reader) summary() *Summary {
	return &Summary{SpaceID: r.header.SpaceID, Events: r.events, HeadSeq: r.lastSeq,
		HeadHash: eventloom.Hash(bytes.Clone(r.lastHash)), IdempotencyKeys: r.keys, SpaceSecret: r.secret}
}

// batch is the events read and not yet inserted, as the columns of import_events.sql.
type batch struct {
	space    string
	lines    []int64
	seqs     []int64
	hashes   [][]byte
	types    []string
	sessions []string
	actors   []string
	occurred []time.Time
	recorded []time.Time
	contents []string
	data     []string
	cues     []string
	versions []int16
	salts    [][]byte
	digests  [][]byte
	erasedBy []*int64
	bytes    int
}

func (b *batch) add(line int64, e *eventloom.Event) {
	b.lines = append(b.lines, line)
	b.seqs = append(b.seqs, e.Seq)
	b.hashes = append(b.hashes, e.Hash)
	b.types = append(b.types, e.Type)
	b.sessions = append(b.sessions, e.SessionID)
	b.actors = append(b.actors, e.Actor)
	b.occurred = append(b.occurred, e.OccurredAt)
	b.recorded = append(b.recorded, e.RecordedAt)
	b.contents = append(b.contents, e.Content)
	b.data = append(b.data, string(e.Data))
	b.cues = append(b.cues, string(e.Cues))
	b.versions = append(b.versions, int16(e.Version()))
	var salt, digest []byte
	var erasedBy *int64
	if e.Salt != nil {
		salt = e.Salt
	}
	if e.Erased() {
		digest, erasedBy = e.BodyDigest, &e.ErasedBySeq
	}
	b.salts = append(b.salts, salt)
	b.digests = append(b.digests, digest)
	b.erasedBy = append(b.erasedBy, erasedBy)
	b.bytes += len(e.Content) + len(e.Data) + len(e.Cues)
}

func (b *batch) full() bool { return len(b.seqs) >= batchEvents || b.bytes >= batchBytes }

// flush inserts the batch and compares the hashes the database computed with the file's.
func (b *batch) flush(ctx context.Context, tx pgx.Tx) error {
	if len(b.seqs) == 0 {
		return nil
	}
	rows, err := queryImportEvents(ctx, tx, b)
	if err != nil {
		return b.insertError(err)
	}
	i := 0
	var seq int64
	var got []byte
	_, err = pgx.ForEachRow(rows, []any{&seq, &got}, func() error {
		if i >= len(b.seqs) || seq != b.seqs[i] {
			return &FileError{Line: b.lines[min(i, len(b.lines)-1)], Seq: b.seqs[min(i, len(b.seqs)-1)],
				Reason: fmt.Sprintf("the database assigned seq %d to it", seq)}
		}
		if !bytes.Equal(got, b.hashes[i]) {
			return &FileError{Line: b.lines[i], Seq: seq, Reason: fmt.Sprintf(
				"hash does not match the hash this database computed for the event (%s; data or cues not in jsonb's text form?)", eventloom.Hash(got))}
		}
		i++
		return nil
	})
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			return err
		}
		return b.insertError(err)
	}
	b.reset()
	return nil
}

// insertError names the batch's first seq in a refusal of its INSERT (a constraint the reader
// does not check, a recorded_at ahead of this server's clock).
func (b *batch) insertError(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code != "" && pgErr.Code[:2] != "08" && pgErr.Code[:2] != "57" {
		return &FileError{Line: b.lines[0], Seq: b.seqs[0], Reason: fmt.Sprintf(
			"the database refused the events from seq %d to %d: %s (SQLSTATE %s)", b.seqs[0], b.seqs[len(b.seqs)-1], pgErr.Message, pgErr.Code)}
	}
	return fmt.Errorf("import events: %w", err)
}

func (b *batch) reset() {
	b.lines, b.seqs, b.hashes = b.lines[:0], b.seqs[:0], b.hashes[:0]
	b.types, b.sessions, b.actors = b.types[:0], b.sessions[:0], b.actors[:0]
	b.occurred, b.recorded, b.contents = b.occurred[:0], b.recorded[:0], b.contents[:0]
	b.data, b.cues, b.versions = b.data[:0], b.cues[:0], b.versions[:0]
	b.salts, b.digests, b.erasedBy = b.salts[:0], b.digests[:0], b.erasedBy[:0]
	b.bytes = 0
}

// keyBatch is the idempotency records of space read and not yet inserted, as the columns of
// import_keys.sql.
type keyBatch struct {
	space   string
	key     []string
	hash    [][]byte
	first   []int64
	last    []int64
	created []time.Time
}

func (k *keyBatch) add(l *keyLine) {
	k.key = append(k.key, l.Key)
	k.hash = append(k.hash, l.RequestHash)
	k.first = append(k.first, l.FirstSeq)
	k.last = append(k.last, l.LastSeq)
	k.created = append(k.created, l.CreatedAt)
}

func (k *keyBatch) flush(ctx context.Context, tx pgx.Tx) error {
	if len(k.key) == 0 {
		return nil
	}
	if err := execImportKeys(ctx, tx, k); err != nil {
		return fmt.Errorf("import idempotency keys: %w", err)
	}
	*k = keyBatch{space: k.space, key: k.key[:0], hash: k.hash[:0], first: k.first[:0], last: k.last[:0], created: k.created[:0]}
	return nil
}
