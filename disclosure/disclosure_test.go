package disclosure_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/disclosure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/validation"
)

// bundle is the log every test works with, on a test transaction or a pool as the
// application role.
type bundle struct{ *fixture.Log }

// newFixture runs on a rolled-back test transaction (testcontainers.TestTx), where appends and
// projection batches are savepoints. The tests all use space demo, so each waits at its first
// append for the one before to end: they would wait for each other's graph creation anyway.
func newFixture(t testing.TB) *bundle {
	t.Helper()
	return &bundle{fixture.Tx(t)}
}

// newFixtureOn runs on db, a test transaction or a pool as the application role.
func newFixtureOn(t testing.TB, db pgexec.Executor) *bundle {
	t.Helper()
	return &bundle{fixture.New(t, db, projection.Config{})}
}

// ev builds an event; data is marshalled to JSON.
func ev(typ, session, content string, data map[string]any) eventloom.NewEvent {
	e := eventloom.NewEvent{Type: typ, SessionID: session, Actor: "ann", Content: content}
	if data != nil {
		e.Data = fixture.Data(data)
	}
	t := time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC)
	e.OccurredAt = &t
	return e
}

// append appends events to space, each one occurring a minute after the one before it.
func (f *bundle) append(t testing.TB, space string, events ...eventloom.NewEvent) []eventloom.Receipt {
	t.Helper()
	for i := range events {
		if events[i].OccurredAt != nil {
			ts := events[i].OccurredAt.Add(time.Duration(i) * time.Minute)
			events[i].OccurredAt = &ts
		}
	}
	return f.Append(t, space, events...)
}

// seed appends one event of every kind the views treat differently and projects them.
// Seqs: 1 message, 2 fact (superseded by 6), 3 decision, 4 task open, 5 tool failure,
// 6 fact, 7 message (invalidated by 9), 8 checkout bookkeeping, 9 invalidation, 10 task done,
// 11 document chunk, 12 zaxy bookkeeping, 13 custom note, 14 preference.
func seed(t testing.TB, f *bundle, space string) []eventloom.Receipt {
	t.Helper()
	r := f.append(t, space,
		ev("message", "s1", "Alice moved to the Oslo office last week; loop her in on the Postgres upgrade.", map[string]any{"role": "user", "name": "Ann"}),
		ev("fact.asserted", "s1", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}),
		ev("decision.recorded", "s1", "We compared drivers with Alice.", map[string]any{"decision": "Use pgx v5 with pgxpool", "rationale": "batching", "subject": "postgres driver"}),
		ev("task.updated", "s2", "", map[string]any{"task_id": "PG-117", "status": "open", "title": "Upgrade to Postgres 17"}),
		ev("tool_call.completed", "s2", "go test failed in projection.", map[string]any{"tool": "go test", "outcome": "failure", "error": "expected 1 invalidation, got 0\nmore"}),
		ev("fact.asserted", "s2", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Globex"}),
		ev("message", "s2", "Bob says Alice's office has a new VPN.\nSecond line.", map[string]any{"role": "assistant"}),
		ev("checkout.surfaced", "s2", "surfaced Alice", map[string]any{"items": []int{1, 2}}),
		ev("memory.invalidated", "s2", "", map[string]any{"target_seq": 7, "reason": "wrong office"}),
		ev("task.updated", "s2", "", map[string]any{"task_id": "PG-117", "status": "done"}),
		ev("document.chunk", "", "## Rollback\nRun zaxy rebuild.", map[string]any{"document_id": "ops.md", "path": "ops.md", "start": 0, "end": 29, "chunk_index": 0}),
		ev("zaxy.heartbeat", "", "internal", nil),
		ev("note", "s1", "Alice likes tea.", nil),
		ev("preference.stated", "s1", "", map[string]any{"topic": "code examples", "preference": "plain SQL"}),
	)
	f.Project(t, space)
	return r
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// requireCitationsVerify checks that every citation names an existing event of the space with
// that hash, and that the text cites each one.
func requireCitationsVerify(t *testing.T, db pgexec.Executor, space string, cites []disclosure.Citation, text string) {
	t.Helper()
	for _, c := range cites {
		var hash []byte
		require.NoError(t, db.QueryRow(context.Background(), `SELECT hash FROM events WHERE space_id = $1 AND seq = $2`, space, c.Seq).Scan(&hash))
		require.Equal(t, hash, []byte(c.Hash), "seq %d", c.Seq)
		require.Contains(t, text, fmt.Sprintf("#%d@%s", c.Seq, c.Hash.String()[:12]))
	}
}

func TestIndex_ListsTopicsWithTheCostOfTheirDetail(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	seed(t, f, "demo")

	v, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo"})
	require.NoError(t, err)
	t.Logf("index (%d tokens):\n%s", v.Tokens, v.Text)
	require.Equal(t, disclosure.DefaultIndexTokens, v.MaxTokens)
	require.LessOrEqual(t, v.Tokens, v.MaxTokens)
	require.Equal(t, disclosure.EstimateTokens(v.Text), v.Tokens)
	require.EqualValues(t, 14, v.HeadSeq)
	require.EqualValues(t, 14, v.ProjectedSeq)
	require.EqualValues(t, 12, v.Totals.Events, "bookkeeping events are not counted")
	require.EqualValues(t, 9, v.Totals.EventTypes)
	require.EqualValues(t, 2, v.Totals.Sessions)
	require.NotEmpty(t, v.Entities)
	require.Equal(t, "Alice", v.Entities[0].Name, "the most mentioned and connected entity comes first")

	// A large budget shows everything; every entry's cost is what loading it costs.
	all, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo", MaxTokens: 20000})
	require.NoError(t, err)
	require.Equal(t, disclosure.IndexCounts{}, all.Omitted)
	require.EqualValues(t, all.Totals.Entities, len(all.Entities))
	var types []string
	for _, e := range all.EventTypes {
		types = append(types, e.Name)
	}
	require.ElementsMatch(t, []string{"message", "fact.asserted", "task.updated", "decision.recorded", "tool_call.completed",
		"memory.invalidated", "document.chunk", "note", "preference.stated"}, types)
	require.Len(t, all.Sessions, 2)
	require.Equal(t, "s1", all.Sessions[0].Name, "most recent session first")
	for _, section := range [][]disclosure.IndexEntry{all.Entities, all.Predicates, all.EventTypes, all.Sessions} {
		for _, e := range section {
			item, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "demo", ID: e.Ref})
			require.NoError(t, err, e.Ref)
			require.Equal(t, item.Tokens, e.DetailTokens, "%s: index cost vs item", e.Ref)
			require.Equal(t, e.Ref, item.ID)
			require.Contains(t, all.Text, e.Name)
		}
	}
	require.NotContains(t, all.Text, "checkout.")
	require.NotContains(t, all.Text, "zaxy.")

	// Budgets are never exceeded, smaller budgets show a prefix of each section, and the
	// omitted counts add up.
	for _, max := range []int{20, 21, 40, 60, 100, 150, 300, 1000} {
		v, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo", MaxTokens: max})
		require.NoError(t, err)
		require.LessOrEqual(t, v.Tokens, max, "max_tokens %d", max)
		require.Equal(t, disclosure.EstimateTokens(v.Text), v.Tokens)
		require.Equal(t, all.Entities[:len(v.Entities)], v.Entities, "max_tokens %d", max)
		require.Equal(t, all.EventTypes[:len(v.EventTypes)], v.EventTypes, "max_tokens %d", max)
		require.EqualValues(t, v.Totals.Entities, int64(len(v.Entities))+v.Omitted.Entities)
	}

	// Two calls give byte-identical JSON.
	again, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo"})
	require.NoError(t, err)
	require.Equal(t, marshal(t, v), marshal(t, again))
}

func TestTimeline_NewestFirstCitedAndLabelled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	r := seed(t, f, "demo")

	v, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "demo"})
	require.NoError(t, err)
	t.Logf("timeline (%d tokens):\n%s", v.Tokens, v.Text)
	require.LessOrEqual(t, v.Tokens, disclosure.DefaultTimelineTokens)
	var seqs []int64
	for _, e := range v.Entries {
		seqs = append(seqs, e.Seq)
		require.Equal(t, r[e.Seq-1].Hash, e.Hash, "seq %d cites its hash", e.Seq)
		require.Contains(t, disclosure.TimelineTypes, e.Type)
		require.Contains(t, v.Text, fmt.Sprintf("#%d@%s", e.Seq, e.Hash.String()[:12]))
	}
	// 8, 12 are bookkeeping; 11 (document.chunk) and 13 (note) are not actions.
	require.Equal(t, []int64{14, 10, 9, 7, 6, 5, 4, 3, 2, 1}, seqs)
	require.False(t, v.More)
	byseq := map[int64]disclosure.EventLine{}
	for _, e := range v.Entries {
		byseq[e.Seq] = e
	}
	require.Equal(t, []string{"invalidated"}, byseq[7].Labels)
	require.EqualValues(t, 9, byseq[7].Invalidated.By.Seq)
	require.Equal(t, "wrong office", byseq[7].Invalidated.Reason)
	require.Equal(t, []string{"superseded"}, byseq[2].Labels, "the fact seq 2 recorded was superseded")
	require.Equal(t, []string{"superseded"}, byseq[4].Labels, "task status open was superseded by done")
	require.Empty(t, byseq[6].Labels)
	require.Equal(t, "assistant: Bob says Alice's office has a new VPN.", byseq[7].Summary, "messages are summarized to their first line")
	require.Equal(t, "decision on postgres driver: Use pgx v5 with pgxpool", byseq[3].Summary)

	// The session filter.
	s1, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "demo", SessionID: "s1"})
	require.NoError(t, err)
	seqs = nil
	for _, e := range s1.Entries {
		seqs = append(seqs, e.Seq)
		require.Equal(t, "s1", e.SessionID)
	}
	require.Equal(t, []int64{14, 3, 2, 1}, seqs)

	// Small budgets page through the same entries without gaps; the budget always holds.
	var paged []int64
	p := disclosure.TimelineParams{SpaceID: "demo", MaxTokens: 40}
	for range 20 {
		page, err := disclosure.Timeline(ctx, f.DB, p)
		require.NoError(t, err)
		require.LessOrEqual(t, page.Tokens, 40)
		require.NotEmpty(t, page.Entries)
		for _, e := range page.Entries {
			paged = append(paged, e.Seq)
		}
		if !page.More {
			break
		}
		p.BeforeSeq = page.NextBeforeSeq
	}
	require.Equal(t, []int64{14, 10, 9, 7, 6, 5, 4, 3, 2, 1}, paged)
	// At the smallest budget the newest line is clipped, citation intact, and paging still
	// visits every entry.
	paged = nil
	p = disclosure.TimelineParams{SpaceID: "demo", MaxTokens: disclosure.MinMaxTokens}
	for range 20 {
		page, err := disclosure.Timeline(ctx, f.DB, p)
		require.NoError(t, err)
		require.LessOrEqual(t, page.Tokens, disclosure.MinMaxTokens)
		require.Len(t, page.Entries, 1, page.Text)
		e := page.Entries[0]
		require.Contains(t, page.Text, fmt.Sprintf("#%d@%s", e.Seq, e.Hash.String()[:12]))
		paged = append(paged, e.Seq)
		if !page.More {
			break
		}
		p.BeforeSeq = page.NextBeforeSeq
	}
	require.Equal(t, []int64{14, 10, 9, 7, 6, 5, 4, 3, 2, 1}, paged)

	// An event appended a moment ago is on the timeline before projection.
	fresh := f.append(t, "demo", ev("decision.recorded", "s1", "", map[string]any{"decision": "Ship on Friday"}))
	v2, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "demo"})
	require.NoError(t, err)
	require.Equal(t, fresh[0].Seq, v2.Entries[0].Seq)
	require.Equal(t, "decision: Ship on Friday", v2.Entries[0].Summary)

	// Deterministic.
	v3, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "demo"})
	require.NoError(t, err)
	require.Equal(t, marshal(t, v2), marshal(t, v3))
}

func TestItem_EventFactEntityAndListings(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	r := seed(t, f, "demo")
	item := func(id string) *disclosure.ItemView {
		t.Helper()
		v, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "demo", ID: id})
		require.NoError(t, err, id)
		require.Equal(t, disclosure.EstimateTokens(v.Text), v.Tokens)
		requireCitationsVerify(t, f.DB, "demo", v.Citations, v.Text)
		again, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "demo", ID: id})
		require.NoError(t, err)
		require.Equal(t, marshal(t, v), marshal(t, again), "deterministic")
		return v
	}

	// An invalidated event: full text, labelled, citing the invalidation.
	e7 := item("ev:7")
	t.Logf("ev:7 (%d tokens):\n%s", e7.Tokens, e7.Text)
	require.Equal(t, disclosure.KindEvent, e7.Kind)
	require.Equal(t, []string{"invalidated"}, e7.Labels)
	require.Equal(t, "Bob says Alice's office has a new VPN.\nSecond line.", e7.Event.Content)
	require.Contains(t, e7.Text, "Second line.")
	require.Len(t, e7.Event.Invalidations, 1)
	require.Equal(t, r[8].Hash, e7.Event.Invalidations[0].By.Hash)
	require.Contains(t, e7.Text, "invalidated by #9@")
	require.True(t, e7.Event.Projected)
	require.NotEmpty(t, e7.Event.Mentions)

	// An event that recorded a fact since superseded.
	e2 := item("ev:2")
	require.Len(t, e2.Event.Facts, 1)
	factID := e2.Event.Facts[0].ID
	require.Equal(t, "superseded", e2.Event.Facts[0].Status)

	// The fact, by either id form: status, superseded_by, versions, evidence cited.
	fv := item(memoryitem.FactID(factID))
	t.Logf("fact (%d tokens):\n%s", fv.Tokens, fv.Text)
	bare := item(factID)
	require.Equal(t, marshal(t, fv), marshal(t, bare))
	require.Equal(t, memoryitem.FactID(factID), fv.ID)
	require.Equal(t, []string{"superseded"}, fv.Labels)
	require.Equal(t, "Alice works at Acme", fv.Fact.Statement)
	require.NotNil(t, fv.Fact.SupersededBy)
	require.Len(t, fv.Fact.Versions, 2)
	require.Equal(t, []disclosure.Citation{{Seq: 2, Hash: r[1].Hash}, {Seq: 6, Hash: r[5].Hash}}, fv.Citations)
	require.Contains(t, fv.Text, "superseded by fact:"+*fv.Fact.SupersededBy)

	// The entity: facts and the events that mention it.
	alice, err := graph.ResolveEntity(ctx, f.DB, "demo", "Alice")
	require.NoError(t, err)
	ent := item(alice.ID)
	t.Logf("entity (%d tokens):\n%s", ent.Tokens, ent.Text)
	require.Equal(t, disclosure.KindEntity, ent.Kind)
	require.EqualValues(t, 2, ent.Entity.FactsTotal)
	require.NotEmpty(t, ent.Entity.MentionedIn)
	require.Equal(t, marshal(t, ent), marshal(t, item("entity:"+alice.ID)))

	// Listings.
	sess := item("session:s2")
	require.EqualValues(t, 6, sess.List.Total, "bookkeeping left out")
	for _, e := range sess.List.Events {
		require.False(t, strings.HasPrefix(e.Type, "checkout."))
	}
	msgs := item("type:message")
	require.EqualValues(t, 2, msgs.List.Total)
	require.Equal(t, []int64{7, 1}, []int64{msgs.List.Events[0].Seq, msgs.List.Events[1].Seq})
	pred := item("predicate:Works At")
	require.Equal(t, "predicate:works at", pred.ID)
	require.EqualValues(t, 1, pred.List.Current)
	require.EqualValues(t, 2, pred.List.Total)

	// Not found: bookkeeping events never appear; unknown items and spaces.
	for _, id := range []string{"ev:8", "ev:12", "ev:999", "fact:f00000000000000000000", "e00000000000000000000",
		"session:nope", "type:checkout.surfaced", "type:nope", "predicate:nope"} {
		_, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "demo", ID: id})
		require.ErrorIs(t, err, disclosure.ErrItemNotFound, id)
	}

	// Read-your-writes: an event not projected yet is shown, labelled.
	fresh := f.append(t, "demo", ev("message", "s1", "just now", map[string]any{"role": "user"}))
	nv := item(memoryitem.EventID(fresh[0].Seq))
	require.Equal(t, []string{"not_projected"}, nv.Labels)
	require.False(t, nv.Event.Projected)
}

func TestViews_RejectBadInputNamingTheField(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	seed(t, f, "demo")
	for _, tc := range []struct {
		name  string
		call  func() error
		field string
	}{
		{"index max_tokens low", func() error {
			_, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo", MaxTokens: 19})
			return err
		}, "max_tokens"},
		{"index max_tokens high", func() error {
			_, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo", MaxTokens: 20001})
			return err
		}, "max_tokens"},
		{"index bad space", func() error {
			_, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "Bad Space"})
			return err
		}, "space"},
		{"timeline max_tokens", func() error {
			_, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "demo", MaxTokens: -5})
			return err
		}, "max_tokens"},
		{"timeline session", func() error {
			_, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "demo", SessionID: strings.Repeat("s", 257)})
			return err
		}, "session_id"},
		{"timeline before_seq", func() error {
			_, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "demo", BeforeSeq: -1})
			return err
		}, "before_seq"},
		{"item id", func() error {
			_, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "demo", ID: "Alice"})
			return err
		}, "id"},
	} {
		err := tc.call()
		var ve *validation.Error
		require.True(t, errors.As(err, &ve), "%s: %v", tc.name, err)
		require.Equal(t, tc.field, ve.Field, tc.name)
	}
	for _, call := range []func() error{
		func() error {
			_, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "nope"})
			return err
		},
		func() error {
			_, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "nope"})
			return err
		},
	} {
		require.NoError(t, call(), "a space with no events has empty views")
	}
	_, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "nope", ID: "ev:1"})
	require.ErrorIs(t, err, disclosure.ErrItemNotFound, "a space with no events has no items")
	v, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "nope"})
	require.NoError(t, err)
	require.Zero(t, v.HeadSeq)
	require.Zero(t, v.Totals.Events)
}

func TestViews_WorkInsideACallersTransaction(t *testing.T) {
	t.Parallel()
	f := newFixtureOn(t, testcontainers.NewDatabase(t).AppPool(t)) // own database: compares a pool with a transaction, so the seed must commit
	ctx := context.Background()
	seed(t, f, "demo")
	tx, err := f.DB.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	a, err := disclosure.Index(ctx, tx, disclosure.IndexParams{SpaceID: "demo"})
	require.NoError(t, err)
	b, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo"})
	require.NoError(t, err)
	require.Equal(t, marshal(t, a), marshal(t, b))
	_, err = disclosure.Timeline(ctx, tx, disclosure.TimelineParams{SpaceID: "demo"})
	require.NoError(t, err)
	_, err = disclosure.Item(ctx, tx, disclosure.ItemParams{SpaceID: "demo", ID: "ev:1"})
	require.NoError(t, err)
}

func TestIndexAndItem_InvalidatedEntityIsLabelledAndRankedLast(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	seed(t, f, "demo")
	alice, err := graph.ResolveEntity(ctx, f.DB, "demo", "Alice")
	require.NoError(t, err)
	r := f.append(t, "demo", ev("memory.invalidated", "", "", map[string]any{"target_id": alice.ID, "reason": "merged into Alicia"}))
	f.Project(t, "demo")

	all, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "demo", MaxTokens: 20000})
	require.NoError(t, err)
	last := all.Entities[len(all.Entities)-1]
	require.Equal(t, alice.ID, last.Ref, "attenuated, not erased: still listed, ranked last")
	require.Equal(t, []string{"invalidated"}, last.Labels)
	require.Contains(t, all.Text, "Alice "+alice.ID)

	v, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "demo", ID: alice.ID})
	require.NoError(t, err)
	require.Equal(t, []string{"invalidated"}, v.Labels)
	require.Equal(t, "merged into Alicia", v.Entity.Invalidated.Reason)
	require.Equal(t, r[0].Hash, v.Entity.Invalidated.By.Hash)
	requireCitationsVerify(t, f.DB, "demo", v.Citations, v.Text)
	require.Equal(t, last.DetailTokens, v.Tokens)
}
