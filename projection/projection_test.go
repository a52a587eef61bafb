package projection_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// bundle is the log a test works with, and the test's own database when it has one (nil on a
// test transaction).
type bundle struct {
	*fixture.Log
	db *testcontainers.Database
}

// newFixtureTx runs on a rolled-back test transaction: for a test that neither commits nor
// needs a second session.
func newFixtureTx(t testing.TB, cfg projection.Config) *bundle {
	t.Helper()
	return &bundle{Log: fixture.New(t, testcontainers.TestTx(t), cfg)}
}

// newFixture runs on a database of the test's own: for a test that runs several sessions,
// cancels a statement, acts as the owner or times a pool-level bound.
func newFixture(t testing.TB, cfg projection.Config) *bundle {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	return &bundle{Log: fixture.New(t, db.AppPool(t), cfg), db: db}
}

func ev(typ, content string, data any) eventloom.NewEvent {
	e := eventloom.NewEvent{Type: typ, Content: content}
	if data != nil {
		b, err := json.Marshal(data)
		if err != nil {
			panic(err)
		}
		e.Data = b
	}
	return e
}

func at(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func (f *bundle) facts(t *testing.T, p graph.FactsParams) []graph.Fact {
	t.Helper()
	facts, err := graph.Facts(context.Background(), f.DB, p)
	require.NoError(t, err)
	return facts
}

func valueOf(t *testing.T, f graph.Fact) string {
	t.Helper()
	if f.Object != nil {
		return f.Object.Name
	}
	var s string
	require.NoError(t, json.Unmarshal(f.Value, &s))
	return s
}

func TestProject_FactVersionsAreClosedNeverOverwritten(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	space := "facts"
	occurred := func(e eventloom.NewEvent, ts string) eventloom.NewEvent { e.OccurredAt = at(ts); return e }
	r := f.Append(t, space,
		occurred(ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}), "2024-01-01T00:00:00Z"),
		occurred(ev("fact.asserted", "", map[string]any{"subject": "alice", "predicate": "Works  at", "object": "ACME"}), "2024-02-01T00:00:00Z"),
		occurred(ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Globex"}), "2024-06-01T00:00:00Z"),
		occurred(ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "city", "value": "Berlin"}), "2024-01-01T00:00:00Z"),
	)
	f.Project(t, space)

	// Now: Alice works at Globex (version 2) and lives in Berlin.
	current := f.facts(t, graph.FactsParams{SpaceID: space, Entity: "ALICE"})
	require.Len(t, current, 2)
	require.Equal(t, "city", current[0].Predicate)
	require.Equal(t, "Berlin", valueOf(t, current[0]))
	require.Equal(t, "works at", current[1].Predicate)
	require.Equal(t, "Globex", valueOf(t, current[1]))
	require.Equal(t, int32(2), current[1].Version)
	require.Equal(t, r[2].Seq, current[1].RecordedSeq)
	require.Equal(t, r[2].Hash, current[1].RecordedHash)

	// Valid in March 2024: Acme, with two pieces of evidence (the reassertion adds evidence).
	march := f.facts(t, graph.FactsParams{SpaceID: space, Entity: "alice", View: graph.ViewAt, At: *at("2024-03-01T00:00:00Z")})
	require.Len(t, march, 2)
	acme := march[1]
	require.Equal(t, "Acme", valueOf(t, acme))
	require.Equal(t, "superseded", acme.Status)
	require.Equal(t, []graph.Evidence{{Seq: r[0].Seq, Hash: r[0].Hash}, {Seq: r[1].Seq, Hash: r[1].Hash}}, acme.Evidence)
	require.Equal(t, current[1].ID, *acme.SupersededBy)
	require.Equal(t, *at("2024-06-01T00:00:00Z"), *acme.ValidTo)

	// As of seq 2, memory said Acme was current.
	asOf := f.facts(t, graph.FactsParams{SpaceID: space, Entity: "alice", View: graph.ViewAsOf, AsOfSeq: r[1].Seq})
	require.Len(t, asOf, 1)
	require.Equal(t, "Acme", valueOf(t, asOf[0]))
	require.Equal(t, "current", asOf[0].StatusThen)

	// Retracting the current value closes it; retracting a value that is not current does nothing.
	f.Append(t, space,
		ev("fact.retracted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Initech"}),
		ev("fact.retracted", "", map[string]any{"subject": "Alice", "predicate": "works at", "reason": "left the company"}),
	)
	f.Project(t, space)
	current = f.facts(t, graph.FactsParams{SpaceID: space, Entity: "alice"})
	require.Len(t, current, 1)
	require.Equal(t, "city", current[0].Predicate)
	all := f.facts(t, graph.FactsParams{SpaceID: space, Entity: "alice", View: graph.ViewAsOf, AsOfSeq: 1 << 40})
	require.Len(t, all, 1, "as of the end of the log only the open fact remains")

	var statuses []string
	rows, err := f.DB.Query(ctx, `SELECT status || ':' || coalesce(close_reason, '') FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) ORDER BY recorded_seq`, space)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		statuses = append(statuses, s)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"superseded:superseded", "retracted:left the company", "current:"}, statuses)
}

func TestProject_InvalidationClosesFactsAndIsRecorded(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	space := "inval"
	r := f.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "deploy", "predicate": "target", "value": "eu-west-1"}),
		ev("message", "We deploy to eu-west-1 on Fridays", map[string]any{"role": "user"}),
	)
	f.Append(t, space, ev("memory.invalidated", "", map[string]any{"target_seq": r[0].Seq, "reason": "wrong region"}))
	f.Project(t, space)
	require.Empty(t, f.facts(t, graph.FactsParams{SpaceID: space, Entity: "deploy"}))
	asOf := f.facts(t, graph.FactsParams{SpaceID: space, Entity: "deploy", View: graph.ViewAsOf, AsOfSeq: r[1].Seq})
	require.Len(t, asOf, 1, "before the invalidation memory still said it")
	require.Equal(t, "invalidated", asOf[0].Status)
	var reason string
	require.NoError(t, f.DB.QueryRow(context.Background(),
		`SELECT reason FROM invalidations WHERE space_id = $1 AND target_seq = $2`, space, r[0].Seq).Scan(&reason))
	require.Equal(t, "wrong region", reason)
}

func TestProject_MentionsLinkEntitiesToByteRanges(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	space := "mentions"
	text := "Ask @dana to review cmd/zaxy/main.go before Friday"
	r := f.Append(t, space, ev("message", text, map[string]any{"role": "user"}), ev("custom.thing", "@dana again", map[string]any{"x": 1}))
	f.Project(t, space)
	rows, err := f.DB.Query(context.Background(),
		`SELECT m.start_byte, m.end_byte, m.seq, e.key FROM mentions m JOIN spaces s USING (space_key)
		 JOIN entities e ON e.space_key = m.space_key AND e.entity_id = m.entity_id
		 WHERE s.space_id = $1 ORDER BY m.seq, m.start_byte`, space)
	require.NoError(t, err)
	var found []string
	for rows.Next() {
		var start, end int
		var seq int64
		var key string
		require.NoError(t, rows.Scan(&start, &end, &seq, &key))
		require.Equal(t, r[0].Seq, seq, "unknown types are not extracted")
		found = append(found, text[start:end])
	}
	require.NoError(t, rows.Err())
	require.Contains(t, found, "@dana")
	require.Contains(t, found, "cmd/zaxy/main.go")

	// Both events are memory items (unknown types keep their text); full-text finds them.
	var n int
	require.NoError(t, f.DB.QueryRow(context.Background(),
		`SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND tsv @@ plainto_tsquery('english', 'dana')`, space).Scan(&n))
	require.Equal(t, 2, n)
}

func TestProject_BadDataOfAKnownTypeKeepsItsText(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	space := "legacy"
	// Written with plain SQL, as an event appended before validation existed could be.
	_, err := f.DB.Exec(context.Background(), `INSERT INTO events (space_id, type, content, data) VALUES ($1, 'fact.asserted', 'legacy text', '{"subject": 7}')`, space)
	require.NoError(t, err)
	f.Project(t, space)
	var text string
	require.NoError(t, f.DB.QueryRow(context.Background(), `SELECT coalesce(i.text, e.content) FROM memory_items i
		JOIN events e ON e.space_id = $1 AND e.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, space).Scan(&text))
	require.Equal(t, "legacy text", text)
}

// randomWorkload appends n events of every kind the projector understands, with facts that
// collide on purpose (few subjects, few predicates, few values).
func randomWorkload(t testing.TB, f *bundle, space string, n int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	subjects := []string{"Alice", "Bob", "Carol", "repo zaxy", "Service Mesh"}
	predicates := []string{"works at", "owns", "status", "prefers", "depends on"}
	values := []string{"Acme", "Globex", "Initech", "green", "red"}
	var batch []eventloom.NewEvent
	seq := int64(0)
	for i := 0; i < n; i++ {
		var e eventloom.NewEvent
		switch k := rng.IntN(10); {
		case k < 3:
			d := map[string]any{"subject": subjects[rng.IntN(len(subjects))], "predicate": predicates[rng.IntN(len(predicates))]}
			if rng.IntN(2) == 0 {
				d["object"] = values[rng.IntN(len(values))]
			} else {
				d["value"] = values[rng.IntN(len(values))]
			}
			e = ev("fact.asserted", "", d)
		case k == 3:
			e = ev("fact.retracted", "", map[string]any{"subject": subjects[rng.IntN(len(subjects))], "predicate": predicates[rng.IntN(len(predicates))]})
		case k == 4 && seq > 1:
			e = ev("memory.invalidated", "", map[string]any{"target_seq": 1 + rng.Int64N(seq), "reason": "test"})
		case k == 5:
			e = ev("task.updated", "", map[string]any{"task_id": fmt.Sprintf("T%d", rng.IntN(4)), "status": []string{"open", "in_progress", "done"}[rng.IntN(3)]})
		case k == 7 && seq > 1 && rng.IntN(2) == 0:
			e = reinforcingEvent(rng, seq)
		case k == 6:
			e = ev("tool_call.completed", "", map[string]any{"tool": "go test", "outcome": []string{"success", "failure"}[rng.IntN(2)]})
		default:
			e = ev("message", fmt.Sprintf("%s told @%s about %s in docs/%d.md", subjects[rng.IntN(len(subjects))],
				[]string{"dana", "eve"}[rng.IntN(2)], values[rng.IntN(len(values))], rng.IntN(5)), map[string]any{"role": "user"})
		}
		batch = append(batch, e)
		seq++
		if len(batch) == 50 || i == n-1 {
			f.Append(t, space, batch...)
			batch = nil
		}
	}
}

// reinforcingEvent is a random event of the salience ledger naming earlier events (the
// workload's seq so far is seq): feedback, a pin or unpin, a checkout's surfacing or a policy
// change.
func reinforcingEvent(rng *rand.Rand, seq int64) eventloom.NewEvent {
	target := func() int64 { return 1 + rng.Int64N(seq) }
	switch rng.IntN(5) {
	case 0:
		return ev("feedback.recorded", "", map[string]any{"target_seqs": []int64{target(), target()},
			"signal": []string{"helpful", "unhelpful", "wrong", "outdated"}[rng.IntN(4)]})
	case 1:
		return ev("memory.pinned", "", map[string]any{"target_seqs": []int64{target()}})
	case 2:
		return ev("memory.unpinned", "", map[string]any{"target_seqs": []int64{target()}})
	case 3:
		return ev("checkout.surfaced", "", map[string]any{"items": []map[string]any{
			{"item_id": fmt.Sprintf("ev:%d", target()), "tier": "query"}, {"item_id": fmt.Sprintf("ev:%d", target()), "tier": "query"}}})
	default:
		return ev("salience.configured", "", map[string]any{"half_life_days": 1 + rng.IntN(60)})
	}
}

func TestProject_IncrementalEqualsRebuildUnderConcurrentWorkers(t *testing.T) {
	f := newFixture(t, projection.Config{BatchSize: 7})
	ctx := context.Background()
	space := "random"
	randomWorkload(t, f, space, 600, 42)

	// Eight workers race to project the same space in small batches.
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, err := f.Proj.ProjectSpace(ctx, space)
				if err == nil {
					return
				}
				if err != projection.ErrBusy {
					t.Error(err)
					return
				}
				time.Sleep(time.Millisecond)
			}
		}()
	}
	wg.Wait()
	f.Project(t, space)
	lag, err := projection.Lag(ctx, f.DB, space)
	require.NoError(t, err)
	require.Equal(t, int64(0), lag[0].Lag)
	require.Equal(t, int64(600), lag[0].ProjectedSeq)

	incremental, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.NotZero(t, incremental.Facts)
	require.NotZero(t, incremental.Mentions)
	require.NotZero(t, incremental.Reinforcements)

	rebuilt, err := f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, 600, rebuilt.Events)
	after, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, after)

	// A rebuild with one big batch gives the same state too.
	big, err := projection.New(ctx, f.DB, projection.Config{BatchSize: 1000})
	require.NoError(t, err)
	_, err = big.Rebuild(ctx, space)
	require.NoError(t, err)
	again, err := big.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, again)
}

func TestProject_CancelledMidBatchLeavesNothingHalfApplied(t *testing.T) {
	f := newFixture(t, projection.Config{BatchSize: 100})
	space := "cancel"
	randomWorkload(t, f, space, 1000, 7)
	for i := 0; i < 20; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(1+i)*time.Millisecond)
		_, _ = f.Proj.ProjectSpace(ctx, space)
		cancel()
	}
	f.Project(t, space)
	ctx := context.Background()
	incremental, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	rebuilt, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, rebuilt)
}

func TestNew_RejectsUnknownTextSearchConfig(t *testing.T) {
	_, err := projection.New(context.Background(), testcontainers.TestTx(t), projection.Config{TextSearchConfig: "klingon"})
	require.ErrorContains(t, err, `text search configuration "klingon" does not exist`)
}

func TestRebuild_KeepsEmbeddingsOfUnchangedItemsAndPrunesTheRest(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	space := "emb"
	f.Append(t, space,
		ev("message", "The deploy runs from cmd/deploy/main.go", map[string]any{"role": "user"}),
		ev("fact.asserted", "", map[string]any{"subject": "deploy", "predicate": "owner", "value": "Dana"}),
	)
	f.Project(t, space)
	emb := projection.NewEmbedder(f.DB, embedding.NewOffline(), 0)
	n, err := emb.EmbedSpace(ctx, space)
	require.NoError(t, err)
	require.Equal(t, 2, n, "the message and the fact version")

	// An embedding of an item that no longer exists (as after a projection change) is pruned.
	_, err = f.DB.Exec(ctx, `INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash)
		SELECT space_id, 'ev:999', model, dim, embedding, text_hash FROM embeddings WHERE space_id = $1 LIMIT 1`, space)
	require.NoError(t, err)
	res, err := f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, int64(1), res.EmbeddingsPruned)
	n, err = emb.EmbedSpace(ctx, space)
	require.NoError(t, err)
	require.Zero(t, n, "unchanged items keep their vectors")
}
