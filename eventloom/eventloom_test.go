package eventloom_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/testcontainers"
)

// newStore builds a Store with the service's outbox on a database of the test's own, for tests
// that commit or run several sessions at once.
func newStore(t *testing.T) (*eventloom.Store, *testcontainers.Database) { return newStoreTB(t) }

func newStoreTB(t testing.TB) (*eventloom.Store, *testcontainers.Database) {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	client, err := jobs.NewInsertOnlyClient(pool, nil)
	require.NoError(t, err)
	store := eventloom.NewStore(pool, jobs.NewOutbox(client), nil)
	storePools.Store(store, pool)
	return store, db
}

// newStoreTx builds a Store with the service's outbox on a rolled-back test transaction
// (testcontainers.TestTx), where each append runs in a savepoint: for tests that neither commit
// nor need a second session. Each such test appends to spaces no other test uses.
func newStoreTx(t *testing.T) (*eventloom.Store, pgx.Tx) {
	t.Helper()
	tx := testcontainers.TestTx(t)
	client, err := jobs.NewInsertOnlyClient(nil, nil)
	require.NoError(t, err)
	return eventloom.NewStore(tx, jobs.NewOutbox(client), nil), tx
}

// storePools remembers the pool each test store was built on (the store hands none out).
var storePools sync.Map

// poolOf is the pool newStore built store on.
func poolOf(store *eventloom.Store) *pgxpool.Pool {
	p, _ := storePools.Load(store)
	return p.(*pgxpool.Pool)
}

func msg(content string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: "message", Content: content, Data: []byte(`{"role":"user"}`)}
}

func TestAppend_ChainsAndVerifies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStoreTx(t)
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s1", Events: []eventloom.NewEvent{msg("a"), msg("b"), msg("c")}})
	require.NoError(t, err)
	require.Len(t, res.Receipts, 3)
	require.Equal(t, []byte(eventloom.ZeroHash), []byte(res.Receipts[0].PrevHash))
	for i, r := range res.Receipts {
		require.Equal(t, int64(i+1), r.Seq)
		if i > 0 {
			require.Equal(t, res.Receipts[i-1].Hash, r.PrevHash)
		}
	}
	page, err := store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "s1"})
	require.NoError(t, err)
	require.Equal(t, "b", page.Events[1].Content)
	for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
		v, err := store.VerifyWith(ctx, "s1", method)
		require.NoError(t, err)
		require.True(t, v.OK, method)
		require.Equal(t, int64(3), v.Events)
		require.Equal(t, res.Receipts[2].Hash, v.HeadHash)
	}
}

func TestVerify_CatchesTampering(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		tamper string
		broken int64
	}{
		{"edit content", `UPDATE events SET content = 'forged' WHERE space_id = 's' AND seq = 4`, 4},
		{"edit prev_hash", `UPDATE events SET prev_hash = sha256('x') WHERE space_id = 's' AND seq = 3`, 3},
		{"delete middle row", `DELETE FROM events WHERE space_id = 's' AND seq = 5`, 5},
		{"swap two rows", `UPDATE events SET seq = 100 WHERE space_id = 's' AND seq = 2; UPDATE events SET seq = 2 WHERE space_id = 's' AND seq = 6; UPDATE events SET seq = 6 WHERE space_id = 's' AND seq = 100`, 2},
		{"delete last row", `DELETE FROM events WHERE space_id = 's' AND seq = 8`, 8},
	}
	// One case after another: every case appends to space s, each in its own test transaction.
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			store, tx := newStoreTx(t)
			evs := make([]eventloom.NewEvent, 8)
			for i := range evs {
				evs[i] = msg(fmt.Sprintf("event %d", i+1))
			}
			_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", Events: evs})
			require.NoError(t, err)
			testcontainers.AsOwner(t, tx, func() {
				for _, q := range []string{`SET LOCAL session_replication_role = replica`, tc.tamper, `SET LOCAL session_replication_role = origin`} {
					_, err := tx.Exec(ctx, q)
					require.NoError(t, err)
				}
			})
			for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
				v, err := store.VerifyWith(ctx, "s", method)
				require.NoError(t, err)
				require.False(t, v.OK, method)
				require.Equal(t, tc.broken, v.BrokenSeq, "%s: %s", method, v.Reason)
			}
		})
	}
}

func TestAppend_RejectsUpdateDeleteTruncate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, db := newStore(t) // own database: the owner's TRUNCATE locks the table against every other test
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", Events: []eventloom.NewEvent{msg("a")}})
	require.NoError(t, err)
	for _, who := range []string{"app", "owner"} {
		pool := poolOf(store)
		if who == "owner" {
			pool = db.AdminPool(t)
		}
		for _, q := range []string{
			`UPDATE events SET content = 'x'`,
			`DELETE FROM events`,
			`TRUNCATE events CASCADE`,
		} {
			_, err := pool.Exec(ctx, q)
			require.Error(t, err, "%s: %s", who, q)
		}
	}
	// The owner is stopped by the triggers themselves (SQLSTATE ZX001).
	_, err = db.AdminPool(t).Exec(ctx, `DELETE FROM events`)
	require.ErrorContains(t, err, "append-only")
	v, err := store.Verify(ctx, "s")
	require.NoError(t, err)
	require.True(t, v.OK)
}

func TestAppend_ConcurrentWritersOneSpaceAreGapless(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t) // own database: eight sessions race on one space
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "busy", Events: []eventloom.NewEvent{msg("x")}}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	v, err := store.Verify(ctx, "busy")
	require.NoError(t, err)
	require.True(t, v.OK, v.Reason)
	require.Equal(t, int64(4000), v.Events)
	require.Equal(t, int64(4000), v.HeadSeq)
}

func TestAppend_Idempotency(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStoreTx(t)
	p := &eventloom.AppendParams{SpaceID: "idem", IdempotencyKey: "k1", Events: []eventloom.NewEvent{msg("a"), msg("b")}}
	first, err := store.Append(ctx, p)
	require.NoError(t, err)
	again, err := store.Append(ctx, p)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, first.Receipts, again.Receipts)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "idem", IdempotencyKey: "k1", Events: []eventloom.NewEvent{msg("other")}})
	require.ErrorIs(t, err, eventloom.ErrConflict)
	v, err := store.Verify(ctx, "idem")
	require.NoError(t, err)
	require.Equal(t, int64(2), v.Events)
}

func TestAppend_RolledBackAppendLeavesNoJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, outer := newStoreTx(t)
	// The caller's transaction is a savepoint of the test transaction; rolling it back undoes
	// exactly what a rolled-back transaction would.
	tx, err := outer.Begin(ctx)
	require.NoError(t, err)
	_, err = store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: "rolled-back", Events: []eventloom.NewEvent{msg("a")}})
	require.NoError(t, err)
	var inTx int
	require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'project_space'`).Scan(&inTx))
	require.Equal(t, 1, inTx)
	require.NoError(t, tx.Rollback(ctx))
	var after, events int
	require.NoError(t, outer.QueryRow(ctx, `SELECT count(*) FROM river_job`).Scan(&after))
	require.NoError(t, outer.QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&events))
	require.Zero(t, after)
	require.Zero(t, events)
}

func TestAppend_BadBatchAppendsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStoreTx(t)
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "bad-batch", Events: []eventloom.NewEvent{msg("a"), {Type: "Bad Type"}}})
	var ve *eventloom.ValidationError
	require.True(t, errors.As(err, &ve))
	require.Equal(t, "events[1].type", ve.Field)
	_, err = store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "bad-batch"})
	require.ErrorIs(t, err, eventloom.ErrNotFound)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "Bad Space", Events: []eventloom.NewEvent{msg("a")}})
	require.ErrorIs(t, err, eventloom.ErrInvalid)
	// A vertical tab is no JSON whitespace: refused with the field named, not left to jsonb.
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "bad-batch", Events: []eventloom.NewEvent{{Type: "note", Data: json.RawMessage("\v{}")}}})
	require.True(t, errors.As(err, &ve), "%v", err)
	require.Equal(t, "data", ve.Field)
	// What jsonb cannot store is refused naming the field, as over HTTP (strictjson.Check), not
	// left to fail the INSERT with no field named.
	for raw, field := range map[string]string{
		`{"a":"\ud800"}`:               "data.a",
		`{"a":{"b":["x\u0000"]}}`:      "data.a.b[0]",
		`{"a":1,"a":2}`:                "data.a",
		`{"n":1e1000000}`:              "data.n",
		`{"a":"\ud83d\ude00 \\u0000"}`: "",
	} {
		_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "bad-batch", Events: []eventloom.NewEvent{{Type: "note", Data: json.RawMessage(raw)}}})
		if field == "" {
			require.NoError(t, err, "%s: a surrogate pair and an escaped backslash are storable", raw)
			continue
		}
		require.True(t, errors.As(err, &ve), "%s: %v", raw, err)
		require.Equal(t, field, ve.Field, raw)
	}
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "bad-batch", Events: []eventloom.NewEvent{{Type: "note", Content: "x", Cues: json.RawMessage(`{"tool":"\udc00"}`)}}})
	require.True(t, errors.As(err, &ve), "%v", err)
	require.Equal(t, "cues.tool", ve.Field)
}

func TestAppend_SpacesDoNotWaitForEachOther(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t) // own database: a second session waits on the first's lock
	pool := poolOf(store)

	// Hold space "a"'s chain lock in an open transaction.
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck
	_, err = store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{msg("held")}})
	require.NoError(t, err)

	// Another space appends at once.
	quick, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err = store.Append(quick, &eventloom.AppendParams{SpaceID: "b", Events: []eventloom.NewEvent{msg("free")}})
	require.NoError(t, err)

	// The same space waits for the holder.
	short, cancel2 := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel2()
	_, err = store.Append(short, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{msg("blocked")}})
	require.Error(t, err)
	require.NoError(t, tx.Commit(ctx))
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{msg("after")}})
	require.NoError(t, err)
	v, err := store.Verify(ctx, "a")
	require.NoError(t, err)
	require.True(t, v.OK)
	require.Equal(t, int64(2), v.Events)
}

// pgCode returns err's SQLSTATE, or "" when it is not a Postgres error.
func pgCode(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// The chain tail a transaction carries between appends lives in a setting any client can
// change; events_head must refuse every statement whose events do not link.
func TestAppend_ForgedChainTailIsRejected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t) // own database: each case starts a transaction of its own, with no chain tail yet
	pool := poolOf(store)
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", Events: []eventloom.NewEvent{msg("a"), msg("b"), msg("c")}})
	require.NoError(t, err)
	const insert = `INSERT INTO events (space_id, type, content) VALUES ('s', 'message', 'x')`
	fakeHash := strings.Repeat("ab", 32)
	cases := []struct {
		name  string
		stmts []string
		code  string
	}{
		{"wrong prev_hash after an append", []string{insert,
			`SELECT set_config('zaxy.chain_tail', 's 4 ` + fakeHash + ` 2020-01-01T00:00:00.000000Z', true)`, insert}, "ZX002"},
		{"seq gap", []string{insert,
			`SELECT set_config('zaxy.chain_tail', regexp_replace(current_setting('zaxy.chain_tail'), '^s 4 ', 's 9 '), true)`, insert}, "ZX002"},
		{"recorded_at in the future", []string{insert,
			`SELECT set_config('zaxy.chain_tail', regexp_replace(current_setting('zaxy.chain_tail'), ' \S+$', ' 2999-01-01T00:00:00.000000Z'), true)`, insert}, "ZX002"},
		{"forged before the first append", []string{
			`SELECT set_config('zaxy.chain_tail', 's 3 ` + fakeHash + ` 2020-01-01T00:00:00.000000Z', true)`, insert}, "ZX002"},
		{"forged in the middle of a statement", []string{
			`INSERT INTO events (space_id, type, content)
			 SELECT 's', 'message', CASE WHEN g = 3
			   THEN set_config('zaxy.chain_tail', 's 5 ` + fakeHash + ` 2020-01-01T00:00:00.000000Z', true) ELSE 'x' END
			 FROM generate_series(1, 5) g`}, "ZX002"},
		{"stale but true tail", []string{
			`SELECT set_config('zaxy.chain_tail', 's 2 ' || (SELECT encode(hash, 'hex') FROM events WHERE space_id = 's' AND seq = 2) || ' 2020-01-01T00:00:00.000000Z', true)`,
			insert}, "23505"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
				for _, q := range tc.stmts {
					if _, err := tx.Exec(ctx, q); err != nil {
						return err
					}
				}
				return nil
			})
			require.Error(t, err)
			require.Equal(t, tc.code, pgCode(err), err.Error())
		})
	}
	v, err := store.VerifySQL(ctx, "s")
	require.NoError(t, err)
	require.True(t, v.OK, v.Reason)
	require.Equal(t, int64(3), v.Events)
}

// Several appends in one transaction, to one space and to several, through AppendTx, a
// rolled-back savepoint, one multi-space statement and COPY, all link into gapless chains.
func TestAppend_ManyStatementsInOneTransactionLink(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t) // own database: the next transaction must start from the committed head
	pool := poolOf(store)
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		for _, space := range []string{"a", "a", "b", "a", "b"} {
			if _, err := store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{msg("1"), msg("2")}}); err != nil {
				return err
			}
		}
		// Undone events must not be linked to.
		sp, err := tx.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := sp.Exec(ctx, `INSERT INTO events (space_id, type) SELECT 'a', 'message' FROM generate_series(1, 3)`); err != nil {
			return err
		}
		if err := sp.Rollback(ctx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO events (space_id, type, content)
			SELECT CASE WHEN g % 2 = 0 THEN 'a' ELSE 'b' END, 'message', g::text FROM generate_series(1, 6) g`); err != nil {
			return err
		}
		rows := [][]any{{"b", "message", "copied 1"}, {"a", "message", "copied 2"}, {"b", "message", "copied 3"}}
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"events"}, []string{"space_id", "type", "content"}, pgx.CopyFromRows(rows))
		return err
	})
	require.NoError(t, err)
	for space, n := range map[string]int64{"a": 6 + 3 + 1, "b": 4 + 3 + 2} {
		for _, method := range []string{eventloom.MethodGo, eventloom.MethodSQL} {
			v, err := store.VerifyWith(ctx, space, method)
			require.NoError(t, err)
			require.True(t, v.OK, "%s %s: %s", space, method, v.Reason)
			require.Equal(t, n, v.Events, space)
			require.Equal(t, n, v.HeadSeq, space)
		}
	}
	// The next transaction starts from the committed head again.
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{msg("after")}})
	require.NoError(t, err)
	require.Equal(t, int64(11), res.Receipts[0].Seq)
}

func TestAppend_ConcurrentRetriesWithOneKeyAppendOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStore(t) // own database: eight sessions race for one key
	p := &eventloom.AppendParams{SpaceID: "s", IdempotencyKey: "same", Events: []eventloom.NewEvent{msg("a"), msg("b")}}
	results := make([]*eventloom.AppendResult, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each session sends its own copy of the request, as clients do: Append completes an
			// event's data in place (Validate), so one AppendParams is not shared between goroutines.
			p := &eventloom.AppendParams{SpaceID: p.SpaceID, IdempotencyKey: p.IdempotencyKey, Events: slices.Clone(p.Events)}
			if i%2 == 0 {
				results[i], errs[i] = store.Append(ctx, p)
				return
			}
			errs[i] = pgx.BeginFunc(ctx, poolOf(store), func(tx pgx.Tx) error {
				var err error
				results[i], err = store.AppendTx(ctx, tx, p)
				return err
			})
		}()
	}
	wg.Wait()
	replayed := 0
	for i := range results {
		require.NoError(t, errs[i])
		require.Equal(t, results[0].Receipts, results[i].Receipts)
		if results[i].Replayed {
			replayed++
		}
	}
	require.Equal(t, len(results)-1, replayed)
	v, err := store.Verify(ctx, "s")
	require.NoError(t, err)
	require.True(t, v.OK, v.Reason)
	require.Equal(t, int64(2), v.Events)
}

// A request that loses the race for its idempotency key (the winner commits while the loser
// waits for the chain lock) undoes its events and answers from the winner's record, whether
// it owns its transaction (Append) or not (AppendTx).
func TestAppend_LostKeyRaceAnswersFromWinner(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"Append", "AppendTx"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			store, _ := newStore(t) // own database: the winner commits while the loser waits
			p := &eventloom.AppendParams{SpaceID: "s", IdempotencyKey: "k", Events: []eventloom.NewEvent{msg("a"), msg("b")}}
			winner, err := poolOf(store).Begin(ctx)
			require.NoError(t, err)
			defer winner.Rollback(ctx) //nolint:errcheck
			won, err := store.AppendTx(ctx, winner, p)
			require.NoError(t, err)

			done := make(chan error, 1)
			var lost *eventloom.AppendResult
			go func() {
				if mode == "Append" {
					var err error
					lost, err = store.Append(ctx, p)
					done <- err
					return
				}
				done <- pgx.BeginFunc(ctx, poolOf(store), func(tx pgx.Tx) error {
					var err error
					lost, err = store.AppendTx(ctx, tx, p)
					return err
				})
			}()
			// The loser is now waiting for the space's chain lock.
			require.Eventually(t, func() bool {
				var waiting int
				err := poolOf(store).QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
					WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
				return err == nil && waiting > 0
			}, time.Minute, 10*time.Millisecond)
			require.NoError(t, winner.Commit(ctx))
			require.NoError(t, <-done)
			require.True(t, lost.Replayed)
			require.Equal(t, won.Receipts, lost.Receipts)
			v, err := store.Verify(ctx, "s")
			require.NoError(t, err)
			require.True(t, v.OK, v.Reason)
			require.Equal(t, int64(2), v.Events)
		})
	}
}

// The worked example in docs/eventloom.md.
func TestCanonicalBytes_DocumentedExample(t *testing.T) {
	t.Parallel()
	o, err := time.Parse(time.RFC3339Nano, "2026-01-02T03:04:05.5Z")
	require.NoError(t, err)
	r, err := time.Parse(time.RFC3339Nano, "2026-01-02T03:04:05.678901Z")
	require.NoError(t, err)
	e := &eventloom.Event{SpaceID: "demo", Seq: 1, Type: "message", OccurredAt: o, RecordedAt: r,
		Content: "héllo", Data: []byte(`{"n": 1.50, "role": "user"}`), Cues: []byte(`{}`)}
	require.Equal(t, "zaxy-event-v1\n4:demo\n1:1\n7:message\n0:\n0:\n27:2026-01-02T03:04:05.500000Z\n"+
		"27:2026-01-02T03:04:05.678901Z\n6:héllo\n27:{\"n\": 1.50, \"role\": \"user\"}\n2:{}\n", string(eventloom.CanonicalBytes(e)))
	require.Equal(t, "c9443c5b80aafb168fccabafc2b0ec9244b78f48a258993aa0d97229bd699109", eventloom.ComputeHash(eventloom.ZeroHash, e).String())
}
