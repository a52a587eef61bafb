package eventloom_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/vocab"
)

// Fake credentials (valid nowhere).
const (
	fakeAnthropic = "sk-ant-api03-abcDEF123456_ghiJKL789012-mnoPQR"
	fakeGitHub    = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	fakeAWSID     = "AKIAIOSFODNN7EXAMPLE"
	fakeZaxy      = "zx_1f2e3d4c5b6a7988_fiMir8WQf9LEn30AYuMQbdTgI1BP4yWGJXUDBwhSVeg"
)

// secretEvent carries a secret in every field the Eventloom redacts.
func secretEvent() eventloom.NewEvent {
	return eventloom.NewEvent{
		Type:    "message",
		Actor:   "bot " + fakeZaxy,
		Content: "my key is " + fakeAnthropic + " ok",
		Data:    json.RawMessage(`{"role":"user","name":"` + fakeGitHub + `","path":"https://u:hunter22@h.example/x","deep":{"list":[{"password":"pw"}]},"n":7}`),
		Cues:    json.RawMessage(`{"repo":"acme","tool":"aws ` + fakeAWSID + `"}`),
	}
}

var secretsOfEvent = []string{fakeZaxy, fakeAnthropic, fakeGitHub, "hunter22", `"pw"`, fakeAWSID}

func storedText(t *testing.T, store *eventloom.Store, space string) string {
	t.Helper()
	page, err := store.Replay(context.Background(), &eventloom.ReplayParams{SpaceID: space})
	require.NoError(t, err)
	b, err := json.Marshal(page.Events)
	require.NoError(t, err)
	return string(b)
}

func configure(mode string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: vocab.TypeRedactionConfigured, Actor: "ops", Data: json.RawMessage(`{"mode":"` + mode + `"}`)}
}

func TestAppend_RedactsEveryFieldByDefault(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, tx := newStoreTx(t)
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "r1", Events: []eventloom.NewEvent{secretEvent(), msg("plain")}})
	require.NoError(t, err)
	require.Equal(t, 6, res.Redactions)

	// The keyed path and AppendTx redact too; a retry answers from the record.
	p := &eventloom.AppendParams{SpaceID: "r1", Events: []eventloom.NewEvent{secretEvent()}, IdempotencyKey: "k1"}
	err = pgx.BeginFunc(ctx, tx, func(tx pgx.Tx) error {
		res, err = store.AppendTx(ctx, tx, p)
		return err
	})
	require.NoError(t, err)
	require.Equal(t, 6, res.Redactions)
	again, err := store.Append(ctx, p)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, res.Receipts, again.Receipts)

	log := storedText(t, store, "r1")
	for _, s := range secretsOfEvent {
		require.NotContains(t, log, s)
	}
	page, err := store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "r1"})
	require.NoError(t, err)
	e := page.Events[0]
	require.Equal(t, "bot [REDACTED:zaxy_token]", e.Actor)
	require.Equal(t, "my key is [REDACTED:anthropic_api_key] ok", e.Content)
	require.JSONEq(t, `{"role":"user","name":"[REDACTED:github_token]","path":"https://u:[REDACTED:url_password]@h.example/x",
		"deep":{"list":[{"password":"[REDACTED:password]"}]},"n":7}`, string(e.Data))
	require.JSONEq(t, `{"repo":"acme","tool":"aws [REDACTED:aws_access_key_id]"}`, string(e.Cues))
	require.Equal(t, "plain", page.Events[1].Content)
	v, err := store.Verify(ctx, "r1")
	require.NoError(t, err)
	require.True(t, v.OK)
}

func TestAppend_RedactionOffMustBeRecordedByAnAdmin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStoreTx(t)
	mode, err := store.RedactionMode(ctx, "r2")
	require.NoError(t, err)
	require.Equal(t, vocab.RedactionOn, mode, "on before any append")

	// Without admin rights the switch is refused and nothing is appended.
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "r2", Events: []eventloom.NewEvent{msg("a"), configure("off")}})
	var ve *eventloom.ValidationError
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "events[1].type", ve.Field)
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "r2", Events: []eventloom.NewEvent{{Type: vocab.TypeRedactionConfigured, Data: json.RawMessage(`{"mode":"maybe"}`)}}, Admin: true})
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "data.mode", ve.Field)
	_, err = store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "r2"})
	require.ErrorIs(t, err, eventloom.ErrNotFound)

	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "r2", Events: []eventloom.NewEvent{configure("off")}, Admin: true})
	require.NoError(t, err)
	mode, err = store.RedactionMode(ctx, "r2")
	require.NoError(t, err)
	require.Equal(t, vocab.RedactionOff, mode)
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "r2", Events: []eventloom.NewEvent{secretEvent()}})
	require.NoError(t, err)
	require.Zero(t, res.Redactions)
	require.Contains(t, storedText(t, store, "r2"), fakeAnthropic, "off stores what was sent")

	// Other spaces keep their own mode.
	res, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "r2-other", Events: []eventloom.NewEvent{secretEvent()}})
	require.NoError(t, err)
	require.Equal(t, 6, res.Redactions)

	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "r2", Events: []eventloom.NewEvent{configure("on")}, Admin: true})
	require.NoError(t, err)
	res, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "r2", Events: []eventloom.NewEvent{{Type: "note", Content: "k " + fakeGitHub}}})
	require.NoError(t, err)
	require.Equal(t, 1, res.Redactions)
	page, err := store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "r2", AfterSeq: res.Receipts[0].Seq - 1})
	require.NoError(t, err)
	require.Equal(t, "k [REDACTED:github_token]", page.Events[0].Content)
}

// An append waiting for the space's lock while an admin switches redaction off sees the
// switch once it gets the lock: the mode is read under the lock, not before it.
func TestAppend_RedactionModeIsReadUnderTheChainLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, db := newStore(t) // own database: a second session waits for the admin's commit
	_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "r3", Events: []eventloom.NewEvent{msg("first")}})
	require.NoError(t, err)

	tx, err := poolOf(store).Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck
	_, err = store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: "r3", Events: []eventloom.NewEvent{configure("off")}, Admin: true})
	require.NoError(t, err)

	type result struct {
		res *eventloom.AppendResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "r3", Events: []eventloom.NewEvent{{Type: "note", Content: fakeAnthropic}}})
		done <- result{res, err}
	}()
	admin := db.AdminPool(t)
	require.Eventually(t, func() bool {
		var waiting int
		err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&waiting)
		return err == nil && waiting > 0
	}, time.Minute, 10*time.Millisecond, "the second append waits for the space's lock")
	require.NoError(t, tx.Commit(ctx))

	r := <-done
	require.NoError(t, r.err)
	require.Zero(t, r.res.Redactions)
	require.True(t, strings.Contains(storedText(t, store, "r3"), fakeAnthropic))
}

func TestKeyRecords_AnswersKeyedAppendsWithoutAppending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, _ := newStoreTx(t)
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "k", Events: []eventloom.NewEvent{msg("a"), msg("b")}, IdempotencyKey: "one"})
	require.NoError(t, err)
	recs, err := store.KeyRecords(ctx, "k", []*eventloom.AppendParams{
		{SpaceID: "k", Events: []eventloom.NewEvent{msg("a"), msg("b")}, IdempotencyKey: "one"},
		{SpaceID: "k", Events: []eventloom.NewEvent{msg("other")}, IdempotencyKey: "one"},
		{SpaceID: "k", Events: []eventloom.NewEvent{msg("a")}, IdempotencyKey: "two"},
	})
	require.NoError(t, err)
	require.Equal(t, &eventloom.KeyRecord{FirstSeq: res.Receipts[0].Seq, LastSeq: res.Receipts[1].Seq, SameBody: true}, recs[0])
	require.False(t, recs[1].SameBody)
	require.Nil(t, recs[2])
	_, err = store.KeyRecords(ctx, "k", []*eventloom.AppendParams{{SpaceID: "k", Events: []eventloom.NewEvent{msg("a")}}})
	require.Error(t, err, "an append without a key is refused")
	page, err := store.Replay(ctx, &eventloom.ReplayParams{SpaceID: "k"})
	require.NoError(t, err)
	require.Len(t, page.Events, 2)
}
