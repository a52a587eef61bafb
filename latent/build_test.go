package latent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// testBundle is what each test works with: one rolled-back transaction (or a committed
// database for the tests that need one), the log and a builder on it, and a clock scripting
// events a minute apart.
type testBundle struct {
	*fixture.Log
	*fixture.Clock
	db      pgx.Tx
	builder *latent.Builder
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	tx := testcontainers.TestTx(t)
	b := bundleOn(t, tx)
	b.db = tx
	return b
}

// bundleOn is a test bundle whose log and builder run on db.
func bundleOn(t *testing.T, db pgexec.Executor) *testBundle {
	t.Helper()
	log := fixture.New(t, db, projection.Config{})
	builder, err := latent.NewBuilder(context.Background(), db, log.Store, latent.Config{})
	require.NoError(t, err)
	return &testBundle{Log: log, Clock: fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)), builder: builder}
}

// projectAndBuild projects the space and builds its artifacts.
func (b *testBundle) projectAndBuild(t *testing.T, space string) *latent.Result {
	t.Helper()
	b.Project(t, space)
	res, err := b.builder.Build(context.Background(), space)
	require.NoError(t, err)
	return res
}

type artifactRow struct {
	ID, Slot, Type, Summary, Review string
	Seqs                            []int64
	StaleSeq                        *int64
	StaleReason, Supersedes         *string
}

func (b *testBundle) artifacts(t *testing.T, space, where string) []artifactRow {
	t.Helper()
	rows, err := b.db.Query(context.Background(), `SELECT artifact_id, slot, artifact_type, summary, review_status, source_seqs,
		stale_seq, stale_reason, supersedes FROM latent_artifacts WHERE space_id = $1 AND `+where+` ORDER BY slot, artifact_id`, space)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (artifactRow, error) {
		var a artifactRow
		err := r.Scan(&a.ID, &a.Slot, &a.Type, &a.Summary, &a.Review, &a.Seqs, &a.StaleSeq, &a.StaleReason, &a.Supersedes)
		return a, err
	})
	require.NoError(t, err)
	return out
}

// requireRebuildEqualsIncremental rebuilds the space's projections and artifacts from the log
// and requires the checksum the incremental builds reached.
func (b *testBundle) requireRebuildEqualsIncremental(t *testing.T, space string) {
	t.Helper()
	ctx := context.Background()
	incremental, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	_, err = b.builder.Rebuild(ctx, space)
	require.NoError(t, err)
	again, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, again, "a rebuild from the log equals the incremental builds")
}

// workSession is a session that pulls, builds and tests (the recurring procedure), fails once
// on a flaky test and fixes it.
func (b *testBundle) workSession(s string) []eventloom.NewEvent {
	return []eventloom.NewEvent{
		b.Message(s, fmt.Sprintf("Please fix the billing export bug in session %s. The CSV has the wrong currency column.", s)),
		b.Tool(s, "git pull", "success", ""),
		b.Tool(s, "go build", "success", ""),
		b.Tool(s, "go test", "success", ""),
		b.Tool(s, "go vet", "failure", "vet: billing/export.go:42: unreachable code"),
		b.Tool(s, "gofmt", "success", ""),
		b.Tool(s, "go vet", "success", ""),
		b.Message(s, "The billing export now writes the currency column. Tests pass."),
	}
}

func TestBuild_RebuildEqualsIncremental(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-eq"
	b.AppendSeqs(t, space, b.workSession("s1")...)
	b.AppendSeqs(t, space, b.Event("preference.stated", "s1", "", map[string]string{"holder": "Ana", "topic": "editor", "preference": "vim"}))
	b.projectAndBuild(t, space)

	b.AppendSeqs(t, space, b.Event("decision.recorded", "s2", "", map[string]string{"decision": "enable go vet in CI"}))
	b.AppendSeqs(t, space, b.workSession("s2")...)
	seqs := b.AppendSeqs(t, space, b.Message("s2", "Remember that the staging database is called ledger-7."))
	b.AppendSeqs(t, space, b.Event("preference.stated", "s2", "", map[string]string{"holder": "Ana", "topic": "editor", "preference": "helix"}))
	b.projectAndBuild(t, space)

	b.AppendSeqs(t, space, b.workSession("s3")...)
	b.AppendSeqs(t, space, b.Event("memory.invalidated", "s3", "", map[string]any{"target_seq": seqs[0], "reason": "it is ledger-8"}))
	res := b.projectAndBuild(t, space)
	require.Equal(t, 2, res.Proposed, "the two procedures are put up for review (the failure pattern was, after two sessions)")
	b.projectAndBuild(t, space) // projects the proposals; the artifacts now read as proposed

	incremental, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.NotZero(t, incremental.Artifacts)
	require.NotEmpty(t, b.artifacts(t, space, "stale_at IS NOT NULL"), "the invalidation and the preference change staled artifacts")
	require.Len(t, b.artifacts(t, space, "artifact_type = 'procedure' AND stale_at IS NULL AND review_status = 'proposed'"), 2)
	require.Len(t, b.artifacts(t, space, "artifact_type = 'causal' AND review_status = 'proposed'"), 1)
	require.Len(t, b.artifacts(t, space, "artifact_type = 'preference' AND stale_at IS NULL"), 1)
	require.Len(t, b.artifacts(t, space, "artifact_type = 'failure' AND stale_at IS NULL"), 1)

	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	rebuilt, err := b.builder.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Zero(t, rebuilt.Proposed, "a rebuild finds the proposals already made")
	again, err := b.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, again)
}

func TestBuild_InvalidatedSourceMarksItsArtifactsStale(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-stale"
	seqs := b.AppendSeqs(t, space,
		b.Message("trip", "We are planning a trip to Lisbon in May with the whole team."),
		b.Message("trip", "The hotel near Alfama is booked for four nights."),
		b.Message("trip", "Flights leave from Berlin on the second of May."))
	b.projectAndBuild(t, space)
	before := b.artifacts(t, space, "artifact_type = 'episode'")
	require.Len(t, before, 1)
	require.Equal(t, seqs, before[0].Seqs)
	require.Contains(t, before[0].Summary, fmt.Sprintf("[%d]", seqs[1]), "the summary cites what it quotes")

	inv := b.AppendSeqs(t, space, b.Event("memory.invalidated", "trip", "", map[string]any{"target_seq": seqs[1], "reason": "the booking fell through"}))
	b.projectAndBuild(t, space)

	stale := b.artifacts(t, space, "stale_at IS NOT NULL")
	require.Len(t, stale, 1)
	require.Equal(t, before[0].ID, stale[0].ID)
	require.Equal(t, inv[0], *stale[0].StaleSeq)
	require.Equal(t, "invalidated", *stale[0].StaleReason)

	current := b.artifacts(t, space, "stale_at IS NULL")
	require.Len(t, current, 1)
	require.Equal(t, []int64{seqs[0], seqs[2]}, current[0].Seqs, "the new version does without the invalidated event")
	require.NotContains(t, current[0].Summary, "Alfama")
	require.Equal(t, stale[0].ID, *current[0].Supersedes)

	var readable int
	require.NoError(t, b.db.QueryRow(ctx, `SELECT count(*) FROM latent_current WHERE space_id = $1 AND artifact_id = $2`, space, stale[0].ID).Scan(&readable))
	require.Zero(t, readable, "a stale artifact is never read as current")
}

func TestBuild_ProcedureNeedsThreeSessions(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-proc"
	for _, s := range []string{"a", "b"} {
		b.AppendSeqs(t, space, b.workSession(s)...)
	}
	b.projectAndBuild(t, space)
	require.Empty(t, b.artifacts(t, space, "artifact_type = 'procedure'"), "two sessions are not enough")
	require.Len(t, b.artifacts(t, space, "artifact_type = 'failure'"), 1, "a failure repeated twice is a pattern")

	b.AppendSeqs(t, space, b.workSession("c")...)
	res := b.projectAndBuild(t, space)
	procs := b.artifacts(t, space, "artifact_type = 'procedure'")
	require.Len(t, procs, 2, "the longest sequence stands for its sub-sequences (git pull → go build is none)")
	require.Equal(t, "procedure:git pull → go build → go test", procs[0].Slot)
	require.Equal(t, "procedure:gofmt → go vet", procs[1].Slot)
	require.Len(t, procs[0].Seqs, 9, "every trace of the three sessions is cited")
	require.Equal(t, 2, res.Proposed)

	var kind, key string
	var evidence int
	require.NoError(t, b.db.QueryRow(ctx, `SELECT data->>'kind', data->'artifact'->>'key', jsonb_array_length(data->'evidence')
		FROM events WHERE space_id = $1 AND type = 'proposal.created' AND data->'artifact'->>'id' = $2`, space, procs[0].ID).
		Scan(&kind, &key, &evidence))
	require.Equal(t, "skill", kind)
	require.Equal(t, procs[0].Slot, key)
	require.Equal(t, 9, evidence)

	b.projectAndBuild(t, space)
	require.Equal(t, "proposed", b.artifacts(t, space, "artifact_type = 'procedure'")[0].Review)
	b.AppendSeqs(t, space, b.workSession("d")...)
	res = b.projectAndBuild(t, space)
	require.Zero(t, res.Proposed, "a slot is proposed once")
	procs = b.artifacts(t, space, "artifact_type = 'procedure'")
	require.Len(t, procs, 2, "the new versions replaced the old")
	require.Len(t, procs[0].Seqs, 12)
	require.Equal(t, "proposed", procs[0].Review, "the new version carries the slot's review status")
}

func TestBuild_SpacesAreIsolated(t *testing.T) {
	b := setup(t)
	for _, space := range []string{"latent-iso-a", "latent-iso-b"} {
		b.Clock.T = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		b.AppendSeqs(t, space, b.Message("s", "The deploy pipeline runs every night at two."), b.Message("s", "Nobody watches the nightly deploy logs."))
	}
	b.projectAndBuild(t, "latent-iso-a")
	a := b.artifacts(t, "latent-iso-a", "true")
	require.Len(t, a, 1)
	require.Empty(t, b.artifacts(t, "latent-iso-b", "true"), "building one space derives nothing in another")
	b.projectAndBuild(t, "latent-iso-b")
	other := b.artifacts(t, "latent-iso-b", "true")
	require.Len(t, other, 1)
	require.Equal(t, a[0].Summary, other[0].Summary)
	require.NotEqual(t, a[0].ID, other[0].ID, "the space is part of the address")
}

func TestBuild_PreferenceChangeSupersedesAndContradicts(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-pref"
	b.AppendSeqs(t, space, b.Event("preference.stated", "", "", map[string]string{"holder": "Ana", "topic": "tabs", "preference": "spaces"}))
	b.AppendSeqs(t, space, b.Event("preference.stated", "", "", map[string]string{"holder": "Ana", "topic": "tabs", "preference": "spaces"}))
	b.projectAndBuild(t, space)
	first := b.artifacts(t, space, "artifact_type = 'preference'")
	require.Len(t, first, 1)
	require.Len(t, first[0].Seqs, 2, "restating a preference makes it more certain, not another one")
	change := b.AppendSeqs(t, space, b.Event("preference.stated", "", "", map[string]string{"holder": "Ana", "topic": "tabs", "preference": "tabs"}))
	b.projectAndBuild(t, space)
	stale := b.artifacts(t, space, "artifact_type = 'preference' AND stale_at IS NOT NULL")
	require.Len(t, stale, 1)
	require.Equal(t, first[0].ID, stale[0].ID)
	require.Equal(t, "superseded", *stale[0].StaleReason)
	require.Equal(t, change[0], *stale[0].StaleSeq)
	var validTo, contradicts string
	require.NoError(t, b.db.QueryRow(ctx, `SELECT o.valid_to::text, n.contradicts::text FROM latent_artifacts o
		JOIN latent_artifacts n ON n.space_id = o.space_id AND n.supersedes = o.artifact_id
		WHERE o.space_id = $1 AND o.artifact_id = $2`, space, first[0].ID).Scan(&validTo, &contradicts))
	require.Equal(t, fmt.Sprintf("{%s}", first[0].ID), contradicts)
	require.NotEmpty(t, validTo, "a superseded preference stops holding")
}

// ageBundle is a test bundle on pool, a database of its own (AGE's label tables are made
// outside any test transaction); the test is skipped where AGE is not installed.
func ageBundle(t *testing.T, pool *pgxpool.Pool) *testBundle {
	t.Helper()
	ctx := context.Background()
	ok, err := graph.AGEInstalled(ctx, pool)
	require.NoError(t, err)
	if !ok {
		t.Skip("AGE is not installed in the test database")
	}
	return bundleOn(t, pool)
}

func TestBuild_MirrorsArtifactsIntoAGE(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	b := ageBundle(t, pool)
	const space = "latent-age"
	seqs := b.AppendSeqs(t, space, b.Message("s", "Ask @maria about the Postgres upgrade plan."), b.Message("s", "The Postgres upgrade waits for the vendor."),
		b.Message("s", "Maria will write the upgrade runbook."))
	b.projectAndBuild(t, space)
	b.AppendSeqs(t, space, b.Event("memory.invalidated", "s", "", map[string]any{"target_seq": seqs[1], "reason": "vendor replied"}))
	b.projectAndBuild(t, space)

	count := func(q string) int {
		res, err := graph.Cypher(ctx, pool, graph.CypherParams{SpaceID: space, Query: q})
		require.NoError(t, err)
		require.Len(t, res.Rows, 1)
		var n int
		require.NoError(t, json.Unmarshal(res.Rows[0][0], &n))
		return n
	}
	require.Equal(t, 2, count(`MATCH (a:LatentArtifact) RETURN count(a)`))
	require.Equal(t, 5, count(`MATCH (a:LatentArtifact)-[:DERIVED_FROM]->(e:SourceEvent) RETURN count(e)`), "3 sources, then 2")
	require.Equal(t, 3, count(`MATCH (e:SourceEvent) RETURN count(e)`))
	require.Equal(t, 1, count(`MATCH (a:LatentArtifact)-[:SUPERSEDES]->(o:LatentArtifact) RETURN count(o)`))
	require.Positive(t, count(`MATCH (a:LatentArtifact)-[:COVERS]->(e:Entity) RETURN count(e)`))
	// The query of docs/latent.md passes the Cypher filter and runs.
	res, err := graph.Cypher(ctx, pool, graph.CypherParams{SpaceID: space, Columns: 2,
		Query: "MATCH (a:LatentArtifact)-[:DERIVED_FROM]->(e:SourceEvent)\nWHERE a.type = 'episode' AND a.stale_at IS NULL\nRETURN a.summary, collect(e.seq)"})
	require.NoError(t, err)
	require.Len(t, res.Rows, 1)
	var cited []int64
	require.NoError(t, json.Unmarshal(res.Rows[0][1], &cited))
	require.ElementsMatch(t, []int64{seqs[0], seqs[2]}, cited)
	var same bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT expected = actual FROM zaxy_age_mirror_digest($1)`, space).Scan(&same))
	require.True(t, same, "the doctor's mirror check leaves the latent labels out")
}

func TestBuild_ErasedSourceLeavesNoTextAndStalesItsArtifacts(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-erase"
	seqs := b.AppendSeqs(t, space,
		b.Message("s", "The vault code for the archive room is hunter-42-zebra."),
		b.Message("s", "The archive room is on the third floor of the east wing."),
		b.Message("s", "Only the records team may enter the archive room."))
	b.projectAndBuild(t, space)
	require.Contains(t, b.artifacts(t, space, "true")[0].Summary, "hunter-42-zebra")

	er, err := erasure.New(b.db, b.Store, b.Proj, nil).Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: seqs[0], Reason: "a secret"})
	require.NoError(t, err)
	b.projectAndBuild(t, space)

	var leaks int
	require.NoError(t, b.db.QueryRow(ctx, `SELECT count(*) FROM latent_artifacts x WHERE x.space_id = $1 AND x::text LIKE '%hunter-42%'`, space).Scan(&leaks))
	require.Zero(t, leaks, "no artifact keeps erased text")
	stale := b.artifacts(t, space, "stale_at IS NOT NULL")
	require.Len(t, stale, 1)
	require.Equal(t, "erased", *stale[0].StaleReason)
	require.Equal(t, er.ErasureSeq, *stale[0].StaleSeq)
	current := b.artifacts(t, space, "stale_at IS NULL")
	require.Len(t, current, 1)
	require.Equal(t, seqs[1:], current[0].Seqs)
}

func TestBuild_CausalLinkCitesDecisionFailureAndFix(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-causal"
	seqs := b.AppendSeqs(t, space,
		b.Event("decision.recorded", "m", "We move the cache to Redis 7.", map[string]string{"decision": "use Redis 7 for the cache"}),
		b.Tool("m", "integration tests", "failure", "connection refused on port 6379"),
		b.Tool("m", "docker compose up", "success", ""),
		b.Tool("m", "integration tests", "success", ""))
	b.projectAndBuild(t, space)
	links := b.artifacts(t, space, "artifact_type = 'causal'")
	require.Len(t, links, 1)
	require.Equal(t, seqs, links[0].Seqs, "both ends and the fix are cited")
	require.Contains(t, links[0].Summary, fmt.Sprintf("[%d]", seqs[0]))
	require.Contains(t, links[0].Summary, "after docker compose up")
	var kind string
	require.NoError(t, b.db.QueryRow(ctx, `SELECT data->>'kind' FROM events WHERE space_id = $1 AND type = 'proposal.created'
		AND data->'artifact'->>'key' = $2`, space, links[0].Slot).Scan(&kind))
	require.Equal(t, "consolidation", kind, "a causal link is a hypothesis put up for review")

	b.AppendSeqs(t, space, b.Event("memory.invalidated", "m", "", map[string]any{"target_seq": seqs[1], "reason": "the port was a typo"}))
	b.projectAndBuild(t, space)
	require.Len(t, b.artifacts(t, space, "artifact_type = 'causal' AND stale_at IS NOT NULL"), 1)
	require.Empty(t, b.artifacts(t, space, "artifact_type = 'causal' AND stale_at IS NULL"), "without the failure there is no link")
}

// TestBuild_AGenericToolsRetryIsTheSameCommand: an agent whose one tool is a shell looks
// around, fixes and retries through it. A failure's fix runs up to its retry, the shell's next
// success with the same arguments, not up to the shell's next success (the look around): in the
// failure pattern's occurrences and in the causal link. When no call repeats the failed one, the
// tool's next success is taken, as before version 5.
func TestBuild_AGenericToolsRetryIsTheSameCommand(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-shell"
	sh := func(session, args, outcome, errText string) eventloom.NewEvent {
		d := map[string]string{"tool": "bash", "arguments": args, "outcome": outcome}
		if errText != "" {
			d["error"] = errText
		}
		return b.Event("tool_call.completed", session, "", d)
	}
	missing := "missing go.sum entry for module providing package gopkg.in/yaml.v3"
	var fails, retries []int64
	for _, s := range []string{"a", "b"} {
		seqs := b.AppendSeqs(t, space,
			b.Event("decision.recorded", s, "Bump the YAML library.", map[string]string{"decision": "bump yaml to v3"}),
			sh(s, "go test ./...", "failure", missing),
			sh(s, "cat go.mod", "success", ""),
			sh(s, "go mod tidy", "success", ""),
			sh(s, "go  test ./...", "success", ""), // the same command, spaced otherwise
			sh(s, "git commit -am bump", "success", ""))
		fails, retries = append(fails, seqs[1]), append(retries, seqs[4])
	}
	seqs := b.AppendSeqs(t, space,
		sh("c", "go test ./...", "failure", missing),
		sh("c", "go mod tidy", "success", ""),
		sh("c", "go test ./internal/...", "success", "")) // a retry that narrowed its arguments
	fails, retries = append(fails, seqs[0]), append(retries, seqs[1])
	b.projectAndBuild(t, space)

	var payload []byte
	require.NoError(t, b.db.QueryRow(ctx, `SELECT payload FROM latent_artifacts WHERE space_id = $1 AND artifact_type = 'failure'`, space).Scan(&payload))
	occ, err := latent.FailureFixes(payload)
	require.NoError(t, err)
	require.Len(t, occ, 3)
	for i, o := range occ {
		require.Equal(t, fails[i], o.FailureSeq)
		require.Equal(t, retries[i], o.FixSeq, "occurrence %d", i)
	}
	require.Equal(t, []string{"bash", "bash"}, occ[0].Steps)

	links := b.artifacts(t, space, "artifact_type = 'causal'")
	require.Len(t, links, 2)
	for _, l := range links {
		require.Len(t, l.Seqs, 5, "the decision, the failure, the look around, the fix and the retry: %v", l.Seqs)
		require.NotContains(t, l.Seqs, l.Seqs[len(l.Seqs)-1]+1, "not the commit after the retry")
	}
}

// A checkout's surfaced record is bookkeeping: an episode never cites one, and records arriving
// in a session derive nothing again.
func TestBuild_EpisodesNeverCiteCheckoutRecords(t *testing.T) {
	b := setup(t)
	space := "records"
	seqs := b.AppendSeqs(t, space, b.Message("s", "The staging deploy pushes to the internal Harbor registry."),
		b.Message("s", "Rotate the Harbor robot account every 90 days."))
	record := b.Event("checkout.surfaced", "s", "", map[string]any{"items": []map[string]any{{"item_id": memoryitem.EventID(seqs[0]), "tier": "query"}}})
	b.AppendSeqs(t, space, record, record, record)
	b.projectAndBuild(t, space)
	eps := b.artifacts(t, space, "artifact_type = 'episode'")
	require.Len(t, eps, 1)
	require.Equal(t, seqs, eps[0].Seqs, "the episode cites the session's two messages and none of its records")

	b.AppendSeqs(t, space, record, record)
	res := b.projectAndBuild(t, space)
	require.Zero(t, res.Written+res.Replaced, "records alone change no artifact")
	require.Equal(t, eps, b.artifacts(t, space, "artifact_type = 'episode'"))
}

// TestBuild_TheMirrorKeptByDifferenceEqualsARewrite: after builds that add, replace, stale,
// supersede and contradict artifacts (an episode growing, an invalidation, a changed
// preference, a failure and its fix, an outcome citing a decision), the AGE mirror kept by
// difference (migration 000034) is the mirror a whole rewrite makes: the same vertices with the
// same properties and the same edges between them, none dangling.
func TestBuild_TheMirrorKeptByDifferenceEqualsARewrite(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AdminPool(t)
	b := ageBundle(t, pool)
	const space = "latent-age-diff"
	var g string
	mirror := func() string {
		t.Helper()
		if g == "" {
			require.NoError(t, pool.QueryRow(ctx, `SELECT zaxy_age_graph($1)`, space).Scan(&g))
		}
		q := strings.NewReplacer("G", pgx.Identifier{g}.Sanitize()).Replace(`
			SELECT coalesce(string_agg(line, E'\n' ORDER BY line), '') FROM (
			  SELECT 'V ' || v.tableoid::regclass::text || ' ' || ag_catalog.agtype_out(v.properties)::text AS line
			  FROM G._ag_label_vertex v WHERE v.tableoid IN ('G."LatentArtifact"'::regclass, 'G."SourceEvent"'::regclass)
			  UNION ALL
			  SELECT 'E ' || e.tableoid::regclass::text || ' ' || coalesce(ag_catalog.agtype_out(s.properties)::text, 'DANGLING')
			         || ' -> ' || coalesce(ag_catalog.agtype_out(o.properties)::text, 'DANGLING')
			  FROM G._ag_label_edge e
			  LEFT JOIN G._ag_label_vertex s ON s.id OPERATOR(ag_catalog.=) e.start_id
			  LEFT JOIN G._ag_label_vertex o ON o.id OPERATOR(ag_catalog.=) e.end_id
			  WHERE e.tableoid IN ('G."DERIVED_FROM"'::regclass, 'G."COVERS"'::regclass, 'G."SUPERSEDES"'::regclass, 'G."CONTRADICTS"'::regclass,
			                       'G."OCCURS_IN"'::regclass, 'G."FOLLOWS"'::regclass, 'G."EXPLAINS"'::regclass, 'G."SHARES_CAUSE"'::regclass,
			                       'G."WARNS"'::regclass)
			) x`)
		var out string
		require.NoError(t, pool.QueryRow(ctx, q).Scan(&out))
		return out
	}
	seqs := b.AppendSeqs(t, space, b.Message("s1", "Ask @maria about the Postgres upgrade plan."), b.Message("s1", "The Postgres upgrade waits for the vendor."))
	b.AppendSeqs(t, space, b.Event("preference.stated", "s1", "", map[string]string{"holder": "Ana", "topic": "editor", "preference": "vim"}))
	b.projectAndBuild(t, space)
	dec := b.AppendSeqs(t, space, b.Event("decision.recorded", "s2", "", map[string]string{"decision": "upgrade Postgres on Friday"}))
	b.AppendSeqs(t, space, b.workSession("s2")...)
	b.AppendSeqs(t, space, b.Message("s1", "Maria will write the upgrade runbook."))
	b.projectAndBuild(t, space)
	b.AppendSeqs(t, space, b.Event("memory.invalidated", "s1", "", map[string]any{"target_seq": seqs[1], "reason": "vendor replied"}),
		b.Event("preference.stated", "s3", "", map[string]string{"holder": "Ana", "topic": "editor", "preference": "helix"}),
		b.Event("outcome.recorded", "eval", "", map[string]any{"session_id": "s2", "status": "failure", "summary": "The upgrade failed.", "evidence": dec}))
	b.AppendSeqs(t, space, b.workSession("s3")...)
	b.projectAndBuild(t, space)
	b.projectAndBuild(t, space) // the proposals' review status

	kept := mirror()
	var noted int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM latent_age_dirty WHERE space_id = $1`, space).Scan(&noted))
	require.Zero(t, noted, "a sync forgets the artifacts it compared")
	for _, label := range []string{"LatentArtifact", "SourceEvent", "DERIVED_FROM", "COVERS", "SUPERSEDES", "CONTRADICTS",
		"OCCURS_IN", "EXPLAINS", "SHARES_CAUSE"} {
		require.Truef(t, strings.Contains(kept, `."`+label+`" `), "the scenario makes %s", label)
	}
	require.False(t, strings.Contains(kept, "DANGLING"), "no edge dangles")
	rewrite := func() string {
		t.Helper()
		// A whole rewrite: the bookkeeping no longer names this graph.
		_, err := pool.Exec(ctx, `DELETE FROM latent_age_spaces WHERE space_id = $1`, space)
		require.NoError(t, err)
		_, err = pool.Exec(ctx, `SELECT zaxy_age_latent_sync($1)`, space)
		require.NoError(t, err)
		return mirror()
	}
	require.Equal(t, kept, rewrite())

	// Artifacts deleted (as a discard does): the events only they cited lose their vertices.
	_, err := pool.Exec(ctx, `DELETE FROM latent_artifacts WHERE space_id = $1 AND stale_at IS NOT NULL`, space)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `SELECT zaxy_age_latent_sync($1)`, space)
	require.NoError(t, err)
	kept = mirror()
	require.NotContains(t, kept, fmt.Sprintf(`"seq": %d,`, seqs[1]), "the invalidated event was cited by stale artifacts only")
	require.False(t, strings.Contains(kept, "DANGLING"), "no edge dangles")
	require.Equal(t, kept, rewrite())

	// Builds without the mirror (AGE off) leave what they touched noted, so the first build
	// with it catches up: the same mirror as a rewrite.
	off, err := latent.NewBuilder(ctx, pool, b.Store, latent.Config{AGE: "off"})
	require.NoError(t, err)
	b.AppendSeqs(t, space, b.Message("s4", "The runbook is in the wiki."), b.Message("s4", "Maria reviews it on Monday."),
		b.Event("preference.stated", "s4", "", map[string]string{"holder": "Ana", "topic": "editor", "preference": "zed"}))
	_, err = b.Proj.ProjectSpace(ctx, space)
	require.NoError(t, err)
	_, err = off.Build(ctx, space)
	require.NoError(t, err)
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM latent_age_dirty WHERE space_id = $1`, space).Scan(&noted))
	require.Positive(t, noted, "the build without the mirror left its artifacts noted")
	require.Equal(t, kept, mirror(), "nothing mirrored meanwhile")
	_, err = pool.Exec(ctx, `SELECT zaxy_age_latent_sync($1)`, space)
	require.NoError(t, err)
	caughtUp := mirror()
	require.NotEqual(t, kept, caughtUp)
	require.Contains(t, caughtUp, "Ana prefers editor: zed", "the new preference is mirrored")
	require.Equal(t, caughtUp, rewrite())
}
