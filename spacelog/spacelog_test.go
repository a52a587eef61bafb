package spacelog_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/spacelog"
	"github.com/zaxy/zaxy/testcontainers"
)

// testBundle is one database with an event store (the application role, the service's outbox)
// and the owner's pool, which imports run on.
type testBundle struct {
	db    *testcontainers.Database
	store *eventloom.Store
	app   *pgxpool.Pool
	admin *pgxpool.Pool
	box   eventloom.Outbox
}

func setup(t testing.TB) *testBundle {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	app := db.AppPool(t)
	client, err := jobs.NewInsertOnlyClient(app, nil)
	require.NoError(t, err)
	box := jobs.NewOutbox(client)
	return &testBundle{db: db, store: eventloom.NewStore(app, box, nil), app: app, admin: db.AdminPool(t), box: box}
}

// appendVaried appends a chain that exercises every field the hash covers: unicode and
// escapes, number literals jsonb keeps as written, cues, sessions, actors, an explicit
// occurred_at, an idempotency key, a derived key (and so the space secret) and an erasure.
func appendVaried(t *testing.T, b *testBundle, space string) {
	t.Helper()
	ctx := context.Background()
	occurred := time.Date(2025, 3, 4, 5, 6, 7, 891000, time.FixedZone("x", 5*3600))
	events := []eventloom.NewEvent{
		{Type: "message", Actor: "user", SessionID: "s1", Content: "héllo \"world\" \u2028 <tag> & \t tab",
			Data: []byte(`{"role":"user","n":1.50,"big":123456789012345678901234567890,"z":-0,"e":1e3}`),
			Cues: []byte(`{"task":"t","repo":"r"}`)},
		{Type: "message", Actor: "assistant", Content: "שלום עולם", OccurredAt: &occurred,
			Data: []byte(`{"role":"assistant","nested":{"a":[1,2,{"b":"c\u0001"}],"aa":null}}`)},
		{Type: "note", Content: ""},
		{Type: "message", Content: "secret 555-0100 number", Data: []byte(`{"role":"user"}`)},
	}
	_, err := b.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: events, IdempotencyKey: "client-key-1"})
	require.NoError(t, err)
	keys, err := b.store.DerivedKeys(ctx, space, "doc", "material")
	require.NoError(t, err)
	for i := range 6 {
		_, err := b.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, IdempotencyKey: keys[0] + fmt.Sprint(i),
			Events: []eventloom.NewEvent{{Type: "message", Content: fmt.Sprintf("turn %d", i), Data: []byte(`{"role":"user"}`)}}})
		require.NoError(t, err)
	}
	_, err = b.admin.Exec(ctx, `SELECT zaxy_erase($1, 4, 'a phone number', 'ops')`, space)
	require.NoError(t, err)
	_, err = b.store.Append(ctx, &eventloom.AppendParams{SpaceID: space,
		Events: []eventloom.NewEvent{{Type: "message", Content: "after the erasure", Data: []byte(`{"role":"user"}`)}}})
	require.NoError(t, err)
}

func export(t testing.TB, b *testBundle, space string) []byte {
	t.Helper()
	var buf bytes.Buffer
	_, err := spacelog.Export(context.Background(), b.app, &buf, space)
	require.NoError(t, err)
	return buf.Bytes()
}

func replayAll(t *testing.T, store *eventloom.Store, space string) []eventloom.Event {
	t.Helper()
	var out []eventloom.Event
	require.NoError(t, store.ReplayAll(context.Background(), eventloom.ReplayParams{SpaceID: space},
		func(e *eventloom.Event) error { out = append(out, *e); return nil }))
	return out
}

func TestExportImport_ReproducesTheChainOnAnotherDatabase(t *testing.T) {
	ctx := context.Background()
	src, dst := setup(t), setup(t)
	const space = "moved.space"
	appendVaried(t, src, space)
	file := export(t, src, space)

	checked, err := spacelog.Check(bytes.NewReader(file), space, nil)
	require.NoError(t, err)
	require.Equal(t, int64(12), checked.Events)
	require.True(t, checked.SpaceSecret)

	sum, err := spacelog.Import(ctx, dst.admin, bytes.NewReader(file), spacelog.ImportParams{Space: space, Outbox: dst.box})
	require.NoError(t, err)
	require.Equal(t, checked.HeadHash, sum.HeadHash)
	require.Equal(t, int64(7), sum.IdempotencyKeys)

	for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
		res, err := dst.store.VerifyWith(ctx, space, method)
		require.NoError(t, err)
		require.True(t, res.OK, "%s: %+v", method, res)
		require.Equal(t, []byte(sum.HeadHash), []byte(res.HeadHash))
	}
	require.Equal(t, replayAll(t, src.store, space), replayAll(t, dst.store, space))

	// Exported again from the target, the file is the same but for the header's export time
	// and the trailer's digest, which covers the header.
	again := export(t, dst, space)
	lines, againLines := strings.Split(string(file), "\n"), strings.Split(string(again), "\n")
	require.Equal(t, len(lines), len(againLines))
	require.Equal(t, lines[1:len(lines)-2], againLines[1:len(againLines)-2])

	// The projection job is enqueued with the events, as an append's.
	var jobs int
	require.NoError(t, dst.admin.QueryRow(ctx,
		`SELECT count(*) FROM river_job WHERE kind = 'project_space' AND args->>'space_id' = $1`, space).Scan(&jobs))
	require.Equal(t, 1, jobs)

	// The copy is served: a retry of an original request is answered from its record, and
	// the chain continues.
	srcKeys, err := src.store.DerivedKeys(ctx, space, "doc", "material")
	require.NoError(t, err)
	res, err := dst.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, IdempotencyKey: srcKeys[0] + "0",
		Events: []eventloom.NewEvent{{Type: "message", Content: "turn 0", Data: []byte(`{"role":"user"}`)}}})
	require.NoError(t, err)
	require.True(t, res.Replayed)
	require.Equal(t, int64(5), res.Receipts[0].Seq)
	dstKeys, err := dst.store.DerivedKeys(ctx, space, "doc", "material")
	require.NoError(t, err)
	require.Equal(t, srcKeys, dstKeys, "the space secret travels with the log")
	res, err = dst.store.Append(ctx, &eventloom.AppendParams{SpaceID: space,
		Events: []eventloom.NewEvent{{Type: "message", Content: "on the target", Data: []byte(`{"role":"user"}`)}}})
	require.NoError(t, err)
	require.Equal(t, sum.HeadSeq+1, res.Receipts[0].Seq)
	v, err := dst.store.Verify(ctx, space)
	require.NoError(t, err)
	require.True(t, v.OK, "%+v", v)
}

// edit returns file with fn applied to its lines (the header is line 0).
func edit(file []byte, fn func(lines []string) []string) []byte {
	lines := strings.Split(strings.TrimSuffix(string(file), "\n"), "\n")
	return []byte(strings.Join(fn(lines), "\n") + "\n")
}

// eventLine is the index of seq's line in a file with a space secret (header, secret, events).
func eventLine(seq int) int { return seq + 1 }

func TestImport_RefusesABadFileNamingTheFirstBadSeq(t *testing.T) {
	ctx := context.Background()
	src, dst := setup(t), setup(t)
	const space = "tampered"
	appendVaried(t, src, space)
	file := export(t, src, space)
	require.Contains(t, strings.Split(string(file), "\n")[eventLine(5)], `"seq":5,`)

	cases := []struct {
		name string
		file []byte
		seq  int64
		want string
	}{
		{"tampered content", edit(file, func(l []string) []string {
			l[eventLine(5)] = strings.Replace(l[eventLine(5)], `"turn 0"`, `"turn X"`, 1)
			return l
		}), 5, "hash does not match"},
		{"tampered data number scale", edit(file, func(l []string) []string {
			l[eventLine(1)] = strings.Replace(l[eventLine(1)], `1.50`, `1.5`, 1)
			return l
		}), 1, "hash does not match"},
		{"tampered hash", edit(file, func(l []string) []string {
			i := strings.Index(l[eventLine(6)], `"hash":"`) + len(`"hash":"`)
			l[eventLine(6)] = l[eventLine(6)][:i] + "00" + l[eventLine(6)][i+2:]
			return l
		}), 6, "hash does not match"},
		{"removed line", edit(file, func(l []string) []string {
			return append(l[:eventLine(7)], l[eventLine(7)+1:]...)
		}), 7, "seq 7 is missing"},
		{"removed last event", edit(file, func(l []string) []string {
			return append(l[:eventLine(12)], l[eventLine(12)+1:]...)
		}), 12, "seq 12 is missing"},
		{"reordered pair", edit(file, func(l []string) []string {
			l[eventLine(8)], l[eventLine(9)] = l[eventLine(9)], l[eventLine(8)]
			return l
		}), 8, "seq 8 is missing"},
		{"duplicated line", edit(file, func(l []string) []string {
			return append(l[:eventLine(4)], append([]string{l[eventLine(3)]}, l[eventLine(4):]...)...)
		}), 3, "out of order"},
		{"malformed line", edit(file, func(l []string) []string {
			l[eventLine(9)] = l[eventLine(9)][:40]
			return l
		}), 9, "not a JSON object"},
		{"unknown field", edit(file, func(l []string) []string {
			l[eventLine(9)] = strings.Replace(l[eventLine(9)], `"kind":"event",`, `"kind":"event","extra":1,`, 1)
			return l
		}), 9, "not a known field"},
		{"truncated at a line", edit(file, func(l []string) []string { return l[:eventLine(10)] }), 10, "truncated"},
		{"truncated within a line", file[:bytes.Index(file, []byte(`"seq":10,`))+3], 10, "truncated"},
		{"trailer removed", edit(file, func(l []string) []string { return l[:len(l)-1] }), 13, "truncated"},
		{"erasure record removed", edit(file, func(l []string) []string {
			return append(l[:eventLine(11)], l[eventLine(11)+1:]...)
		}), 11, "seq 11 is missing"},
		{"erasure unbound", edit(file, func(l []string) []string {
			l[eventLine(4)] = strings.Replace(l[eventLine(4)], `"erased_by_seq":11`, `"erased_by_seq":12`, 1)
			return l
		}), 4, "no later erasure.recorded event names it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := spacelog.Check(bytes.NewReader(tc.file), space, nil)
			var fe *spacelog.FileError
			require.ErrorAs(t, err, &fe, "check")
			require.Equal(t, tc.seq, fe.Seq, "check: %v", err)
			require.Contains(t, err.Error(), tc.want)

			_, err = spacelog.Import(ctx, dst.admin, bytes.NewReader(tc.file), spacelog.ImportParams{Space: space, Outbox: dst.box})
			require.ErrorAs(t, err, &fe, "import")
			require.ErrorIs(t, err, spacelog.ErrBadFile)
			require.Equal(t, tc.seq, fe.Seq, "import: %v", err)
			exists, err := dst.store.SpaceExists(ctx, space)
			require.NoError(t, err)
			require.False(t, exists, "nothing of a refused file is written")
		})
	}

	// A key line changed is caught by the trailer's digest; a file for another space and a
	// chain head other than the expected one are refused before anything is read.
	_, err := spacelog.Check(bytes.NewReader(bytes.Replace(file, []byte(`"key":"client-key-1"`), []byte(`"key":"client-key-2"`), 1)), space, nil)
	require.ErrorContains(t, err, "sha256")
	_, err = spacelog.Import(ctx, dst.admin, bytes.NewReader(file), spacelog.ImportParams{Space: "other"})
	require.ErrorContains(t, err, `imports only as "tampered"`)
	_, err = spacelog.Import(ctx, dst.admin, bytes.NewReader(file), spacelog.ImportParams{Space: space, HeadHash: eventloom.ZeroHash})
	require.ErrorContains(t, err, "chain head")

	// The good file still imports after all the refusals.
	_, err = spacelog.Import(ctx, dst.admin, bytes.NewReader(file), spacelog.ImportParams{Space: space, Outbox: dst.box})
	require.NoError(t, err)
}

// A file whose every hash was recomputed in Go after a change the database's jsonb would print
// differently passes the file's own checks and is refused when the target's hash differs.
func TestImport_ComparesEveryHashWithTheDatabases(t *testing.T) {
	ctx := context.Background()
	dst := setup(t)
	e := eventloom.Event{SpaceID: "rehashed", Seq: 1, Type: "message", OccurredAt: time.Unix(1700000000, 0).UTC(),
		RecordedAt: time.Unix(1700000000, 0).UTC(), Content: "x", Data: []byte(`{"b":1,"a":2}`), Cues: []byte(`{}`),
		PrevHash: eventloom.ZeroHash, HashVersion: 2, Salt: bytes.Repeat([]byte{7}, 16)}
	e.Hash = eventloom.ComputeHash(e.PrevHash, &e)
	file := spacelog.FileOf(t, []eventloom.Event{e})
	_, err := spacelog.Check(bytes.NewReader(file), "", nil)
	require.NoError(t, err)
	_, err = spacelog.Import(ctx, dst.admin, bytes.NewReader(file), spacelog.ImportParams{Space: "rehashed"})
	var fe *spacelog.FileError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, int64(1), fe.Seq)
	require.ErrorContains(t, err, "this database computed")
}

// Version 1 events (appended before migration 000011) import under their own rule.
func TestImport_KeepsVersion1Events(t *testing.T) {
	ctx := context.Background()
	dst := setup(t)
	at := time.Date(2024, 1, 2, 3, 4, 5, 678901000, time.UTC)
	var events []eventloom.Event
	prev := eventloom.Hash(bytes.Clone(eventloom.ZeroHash))
	for i := int64(1); i <= 3; i++ {
		e := eventloom.Event{SpaceID: "old", Seq: i, Type: "message", OccurredAt: at, RecordedAt: at.Add(time.Duration(i) * time.Second),
			Content: fmt.Sprintf("v1 event %d", i), Data: []byte(`{"n": 1.50, "role": "user"}`), Cues: []byte(`{}`), PrevHash: prev}
		if i == 3 { // the log turns version 2 after the migration
			e.HashVersion, e.Salt = 2, bytes.Repeat([]byte{1}, 16)
		}
		e.Hash = eventloom.ComputeHash(prev, &e)
		prev = e.Hash
		events = append(events, e)
	}
	_, err := spacelog.Import(ctx, dst.admin, bytes.NewReader(spacelog.FileOf(t, events)), spacelog.ImportParams{Space: "old"})
	require.NoError(t, err)
	res, err := dst.store.VerifySQL(ctx, "old")
	require.NoError(t, err)
	require.True(t, res.OK, "%+v", res)
	got := replayAll(t, dst.store, "old")
	require.Equal(t, 0, got[0].HashVersion)
	require.Equal(t, at.Add(time.Second), got[0].RecordedAt)
	require.Equal(t, []byte(prev), []byte(got[2].Hash))
}

func TestImport_RefusesASpaceThatHasEvents(t *testing.T) {
	ctx := context.Background()
	src, dst := setup(t), setup(t)
	appendVaried(t, src, "busy")
	file := export(t, src, "busy")
	_, err := dst.store.Append(ctx, &eventloom.AppendParams{SpaceID: "busy",
		Events: []eventloom.NewEvent{{Type: "note", Content: "already here"}}})
	require.NoError(t, err)
	_, err = spacelog.Import(ctx, dst.admin, bytes.NewReader(file), spacelog.ImportParams{Space: "busy"})
	require.ErrorIs(t, err, spacelog.ErrNotEmpty)

	_, err = spacelog.Import(ctx, src.admin, bytes.NewReader(file), spacelog.ImportParams{Space: "busy"})
	require.ErrorIs(t, err, spacelog.ErrNotEmpty, "importing a space's own export onto itself")
	v, err := src.store.Verify(ctx, "busy")
	require.NoError(t, err)
	require.True(t, v.OK)
}

// The ordinary append path cannot use the import path: the application role may not open an
// import, and a zaxy.import setting no zaxy_import_begin backs changes nothing.
func TestImportPath_IsClosedToTheAppendPath(t *testing.T) {
	ctx := context.Background()
	tx := testcontainers.TestTx(t)
	_, err := tx.Exec(ctx, `SAVEPOINT a`)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `SELECT zaxy_import_begin('forged')`)
	require.ErrorContains(t, err, "permission denied")
	_, err = tx.Exec(ctx, `ROLLBACK TO SAVEPOINT a`)
	require.NoError(t, err)

	_, err = tx.Exec(ctx, `SELECT set_config('zaxy.import', 'forged', true)`)
	require.NoError(t, err)
	var at time.Time
	var version int
	var salt []byte
	require.NoError(t, tx.QueryRow(ctx, `
		INSERT INTO events (space_id, type, recorded_at, hash_version, salt, erased_by_seq)
		VALUES ('forged', 'note', '2001-01-01', 1, '\x00000000000000000000000000000000', NULL)
		RETURNING recorded_at, hash_version, salt`).Scan(&at, &version, &salt))
	require.Greater(t, at.Year(), 2020, "recorded_at is the clock's")
	require.Equal(t, 2, version)
	require.NotEqual(t, make([]byte, 16), salt)
}

// A move copies a log without a file between: the export streams into the import through a
// pipe (the caller closes each end with the other side's error, so a failure stops both).
func TestExportImport_StreamsThroughAPipe(t *testing.T) {
	ctx := context.Background()
	src, dst := setup(t), setup(t)
	appendVaried(t, src, "piped")
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := spacelog.Export(ctx, src.app, pw, "piped")
		pw.CloseWithError(err)
		done <- err
	}()
	sum, err := spacelog.Import(ctx, dst.admin, pr, spacelog.ImportParams{Space: "piped", Outbox: dst.box})
	pr.CloseWithError(err) // a refused import ends the export's writes
	require.NoError(t, err)
	require.NoError(t, <-done)
	res, err := dst.store.Verify(ctx, "piped")
	require.NoError(t, err)
	require.True(t, res.OK)
	require.Equal(t, []byte(sum.HeadHash), []byte(res.HeadHash))
}
