package retrospective_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/review"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// testBundle is what each test works with: one rolled-back transaction, the log and the
// assigner on it, and a clock scripting events a minute apart.
type testBundle struct {
	*fixture.Log
	*fixture.Clock
	db       pgx.Tx
	assigner *retrospective.Assigner
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	tx := testcontainers.TestTx(t)
	log := fixture.New(t, tx, projection.Config{})
	return &testBundle{Log: log, Clock: fixture.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)),
		db: tx, assigner: retrospective.NewAssigner(tx, log.Store, nil)}
}

// surfaced is the checkout.surfaced event of a checkout in session that surfaced the event
// items of seqs (the shape checkout.SurfacedEvent writes).
func (b *testBundle) surfaced(session string, seqs ...int64) eventloom.NewEvent {
	items := []map[string]any{}
	for _, s := range seqs {
		items = append(items, map[string]any{"item_id": memoryitem.EventID(s), "seqs": []int64{s}, "tier": "query"})
	}
	return b.Event("checkout.surfaced", session, "", map[string]any{"purpose": "general", "query_sha256": "00", "max_tokens": 500, "used_tokens": 80, "items": items})
}

func (b *testBundle) outcome(session, status string, evidence ...int64) eventloom.NewEvent {
	d := map[string]any{"session_id": session, "summary": "the work ended"}
	if status != "" {
		d["status"] = status
	}
	if len(evidence) > 0 {
		d["evidence"] = evidence
	}
	return b.Event("outcome.recorded", session, "", d)
}

// append appends events to space r and returns their seqs.
func (b *testBundle) append(t *testing.T, events ...eventloom.NewEvent) []int64 {
	t.Helper()
	return b.AppendSeqs(t, "r", events...)
}

func (b *testBundle) credit(t *testing.T, session string) *retrospective.Result {
	t.Helper()
	res, err := b.assigner.Credit(context.Background(), "r", session, 0)
	require.NoError(t, err)
	return res
}

// reinforcement is the salience multiplier of an item (1 when it has no row).
func (b *testBundle) reinforcement(t *testing.T, item string) float64 {
	t.Helper()
	var r float64
	err := b.db.QueryRow(context.Background(), `SELECT coalesce((SELECT reinforcement FROM salience WHERE space_id = 'r' AND item_id = $1), 1)`, item).Scan(&r)
	require.NoError(t, err)
	return r
}

func (b *testBundle) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, b.db.QueryRow(context.Background(), q, args...).Scan(&n))
	return n
}

// retroFeedback is the item ids the pass's feedback named, with their signal: the feedback
// events it appended and the feedback its proposals propose.
func (b *testBundle) retroFeedback(t *testing.T) map[string]string {
	t.Helper()
	rows, err := b.db.Query(context.Background(), `SELECT jsonb_array_elements_text(f->'item_ids'), f->>'signal'
		FROM (SELECT CASE WHEN type = 'feedback.recorded' THEN data ELSE data->'feedback' END AS f FROM events
		      WHERE space_id = 'r' AND actor = 'zaxy-retro' AND (type = 'feedback.recorded' OR data->>'kind' = 'feedback')) x
		WHERE f ? 'item_ids'`)
	require.NoError(t, err)
	out := map[string]string{}
	for rows.Next() {
		var id, signal string
		require.NoError(t, rows.Scan(&id, &signal))
		out[id] = signal
	}
	require.NoError(t, rows.Err())
	return out
}

func TestCredit_FailureLowersTheSalienceOfTheMisleadingMemoryOnly(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "The deploy config lives at /etc/app.yaml."), b.Message("notes", "The staging host is called kestrel."))
	stale, other := notes[0], notes[1]
	b.append(t,
		b.surfaced("run", stale, other),
		b.Event("memory.invalidated", "run", "", map[string]any{"target_seq": stale, "reason": "the config moved to /srv/app.yaml"}),
		b.Event("tool_call.completed", "run", "", map[string]string{"tool": "deploy", "outcome": "failure", "error": "no such file"}),
		b.outcome("run", "failure"))
	b.Project(t, "r")
	staleBefore, otherBefore := b.reinforcement(t, memoryitem.EventID(stale)), b.reinforcement(t, memoryitem.EventID(other))

	res := b.credit(t, "run")
	require.Equal(t, 1, res.Outcomes)
	att := res.Attributions[0]
	require.Equal(t, "failure", att.Status)
	require.Equal(t, retrospective.CauseStaleMemory, att.Cause)
	require.Equal(t, map[string]string{memoryitem.EventID(stale): "unhelpful"}, b.retroFeedback(t))
	b.Project(t, "r")
	require.InDelta(t, staleBefore, b.reinforcement(t, memoryitem.EventID(stale)), 1e-12, "the blame is a proposal: nothing moves before review")
	require.Zero(t, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r' AND type = 'feedback.recorded'`))

	// Accepting the proposal appends the feedback it proposes.
	var proposal int64
	require.NoError(t, b.db.QueryRow(context.Background(), `SELECT seq FROM proposals WHERE space_id = 'r' AND kind = 'feedback' AND status = 'pending'`).Scan(&proposal))
	_, err := review.NewDecider(b.db, b.Store).Decide(context.Background(), review.DecideParams{SpaceID: "r", ProposalSeq: proposal,
		Decision: review.DecisionAccept, Actor: "reviewer"})
	require.NoError(t, err)
	b.Project(t, "r")
	require.Equal(t, 1, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r' AND type = 'feedback.recorded' AND actor = 'reviewer'
		AND (data->>'proposal_seq')::bigint = $1 AND data->'item_ids' = $2::jsonb`, proposal, fmt.Sprintf(`["ev:%d"]`, stale)))
	require.Less(t, b.reinforcement(t, memoryitem.EventID(stale)), staleBefore, "the stale memory the failure rested on loses salience")
	require.InDelta(t, otherBefore, b.reinforcement(t, memoryitem.EventID(other)), 1e-12, "the other surfaced memory is untouched")
}

func TestCredit_ASpaceThatOptsInAppliesJudgementsAboveItsConfidence(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "The deploy config lives at /etc/app.yaml."))
	stale := notes[0]
	run := func(session string, minConfidence float64) {
		b.append(t,
			b.Event("retrospective.configured", "ops", "", map[string]any{"mode": "apply", "min_confidence": minConfidence}),
			b.surfaced(session, stale),
			b.Event("memory.invalidated", session, "", map[string]any{"target_seq": stale, "reason": "the config moved"}),
			b.Event("tool_call.completed", session, "", map[string]string{"tool": "deploy", "outcome": "failure", "error": "no such file"}),
			b.outcome(session, "failure"))
		b.Project(t, "r")
		att := b.credit(t, session).Attributions[0]
		require.Equal(t, retrospective.CauseStaleMemory, att.Cause)
		require.Equal(t, 0.9, att.Items[0].Confidence)
		b.Project(t, "r")
	}
	unhelpful := func() int {
		return b.count(t, `SELECT coalesce((SELECT unhelpful FROM salience WHERE space_id = 'r' AND item_id = $1), 0)`, memoryitem.EventID(stale))
	}
	run("sure", 0.85) // 0.9 ≥ 0.85: applied at once
	require.Equal(t, 1, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r' AND actor = 'zaxy-retro' AND type = 'feedback.recorded' AND session_id = 'sure'`))
	require.Equal(t, 1, unhelpful())
	run("unsure", 0.95) // 0.9 < 0.95: proposed
	require.Equal(t, 1, unhelpful())
	require.Zero(t, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r' AND actor = 'zaxy-retro' AND type = 'feedback.recorded' AND session_id = 'unsure'`))
	require.Equal(t, 1, b.count(t, `SELECT count(*) FROM proposals WHERE space_id = 'r' AND kind = 'feedback' AND status = 'pending'`))
	b.append(t, b.Event("retrospective.configured", "ops", "", map[string]any{"mode": "review"}))
	b.append(t, b.surfaced("later", stale),
		b.Event("tool_call.completed", "later", "", map[string]string{"tool": "deploy", "outcome": "failure", "error": "no such file"}),
		b.outcome("later", "failure", stale))
	b.credit(t, "later")
	require.Zero(t, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r' AND actor = 'zaxy-retro' AND type = 'feedback.recorded' AND session_id = 'later'`),
		"back to review: proposed again")
}

func TestCredit_RerunAppendsNothing(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "Use the blue deploy script."))
	b.append(t,
		b.surfaced("run", notes[0]),
		b.Event("tool_call.completed", "run", "", map[string]string{"tool": "make", "outcome": "failure", "error": "missing target"}),
		b.outcome("run", "failure", notes[0]))
	first := b.credit(t, "run")
	require.Equal(t, 1, first.Appended)
	head := b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r'`)
	again := b.credit(t, "run")
	require.Zero(t, again.Appended)
	require.Equal(t, first.Attributions, again.Attributions)
	require.Equal(t, head, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r'`))
}

func TestCredit_OutcomeInOneSessionNeverTouchesItemsSurfacedOnlyInAnother(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "The cache is warmed by the nightly job."), b.Message("notes", "Builds run on the old runner pool."))
	a, other := notes[0], notes[1]
	b.append(t, b.surfaced("session-a", a), b.surfaced("session-b", other),
		// The outcome cites both memories, but only the first was checked out into session-a.
		b.outcome("session-a", "failure", a, other))
	res := b.credit(t, "session-a")
	require.Equal(t, retrospective.CauseRetrieval, res.Attributions[0].Cause)
	require.Equal(t, map[string]string{memoryitem.EventID(a): "unhelpful"}, b.retroFeedback(t))
	require.Zero(t, b.credit(t, "session-b").Outcomes, "session-b has no outcome of its own")
}

func TestCredit_UnknownCauseIsRecordedAsUncertainty(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "The release train leaves on Thursdays."))
	seqs := b.append(t, b.surfaced("run", notes[0]), b.Message("run", "Let us try the release."), b.outcome("run", "failure"))
	res := b.credit(t, "run")
	att := res.Attributions[0]
	require.Equal(t, retrospective.CauseUnknown, att.Cause)
	require.Zero(t, att.Confidence)
	require.Empty(t, b.retroFeedback(t), "no memory is blamed for a cause the trace does not show")
	b.Project(t, "r")
	var kind, status string
	var evidence []int64
	require.NoError(t, b.db.QueryRow(context.Background(), `SELECT p.kind, p.status, e.data->'evidence' FROM proposals p
		JOIN events e ON e.space_id = p.space_id AND e.seq = p.seq WHERE p.space_id = 'r' AND p.proposed_by = 'zaxy-retro'`).Scan(&kind, &status, &evidence))
	require.Equal(t, "known_unknown", kind)
	require.Equal(t, "pending", status)
	require.Equal(t, []int64{seqs[0], seqs[2]}, evidence, "it cites the checkout and the outcome")
}

func TestCredit_ClassifiesAnUndeclaredOutcomeFromTheSession(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "Run the linter before pushing."))
	b.append(t, b.surfaced("run", notes[0]),
		b.Event("tool_call.completed", "run", "", map[string]string{"tool": "lint", "outcome": "failure", "error": "E101"}),
		b.Event("tool_call.completed", "run", "", map[string]string{"tool": "lint", "outcome": "success"}),
		b.Event("task.updated", "run", "", map[string]string{"task_id": "t1", "status": "done"}),
		b.outcome("run", "", notes[0]))
	att := b.credit(t, "run").Attributions[0]
	require.Equal(t, "success", att.Status)
	require.Equal(t, "classified", att.StatusFrom)
	require.Equal(t, map[string]string{memoryitem.EventID(notes[0]): "helpful"}, b.retroFeedback(t), "the cited memory is credited")
}

func TestCredit_ToolFailureWithoutMemoryProposesAFailurePrior(t *testing.T) {
	t.Parallel()
	b := setup(t)
	seqs := b.append(t,
		b.Event("tool_call.completed", "run", "", map[string]string{"tool": "migrate", "outcome": "failure", "error": "lock timeout"}),
		b.outcome("run", "failure"))
	att := b.credit(t, "run").Attributions[0]
	require.Equal(t, retrospective.CauseToolFailure, att.Cause)
	require.Equal(t, 1, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r' AND actor = 'zaxy-retro' AND type = 'proposal.created'
		AND data->>'kind' = 'failure_prior' AND data->'evidence' = $1::jsonb`, fmt.Sprintf("[%d, %d]", seqs[0], seqs[1])))
}

func TestCredit_MemoryInvalidatedFromAnotherSessionIsStale(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "The backup bucket is called vault-7."), b.Message("notes", "Backups run at midnight."))
	b.append(t, b.surfaced("run", notes[0], notes[1]),
		b.Event("memory.invalidated", "admin", "", map[string]any{"target_seq": notes[0], "reason": "renamed"}),
		b.Event("tool_call.completed", "run", "", map[string]string{"tool": "backup", "outcome": "failure", "error": "no such bucket"}),
		b.outcome("run", "failure"))
	b.Project(t, "r") // the job follows the outcome's projection: the ledger holds the invalidation
	att := b.credit(t, "run").Attributions[0]
	require.Equal(t, retrospective.CauseStaleMemory, att.Cause)
	require.Equal(t, map[string]string{memoryitem.EventID(notes[0]): "unhelpful"}, b.retroFeedback(t))
}

func TestCredit_MissingEvidenceBlamesTheCheckoutAndProposesAKnownUnknown(t *testing.T) {
	t.Parallel()
	b := setup(t)
	notes := b.append(t, b.Message("notes", "The office plants need water on Mondays."))
	seqs := b.append(t, b.surfaced("run", notes[0]),
		b.Event("tool_call.completed", "run", "", map[string]string{"tool": "publish", "outcome": "failure", "error": "quota exceeded"}),
		b.outcome("run", "failure"))
	att := b.credit(t, "run").Attributions[0]
	require.Equal(t, retrospective.CauseMissingEvidence, att.Cause)
	require.Equal(t, []retrospective.ActionJudgement{{Seq: seqs[0], Type: "checkout.surfaced", Verdict: "blamed", Confidence: 0.6}}, att.Actions)
	require.Empty(t, b.retroFeedback(t), "the unrelated memory is not blamed")
	require.Equal(t, 2, b.count(t, `SELECT count(*) FROM events WHERE space_id = 'r' AND actor = 'zaxy-retro' AND type = 'proposal.created'
		AND data->>'kind' IN ('failure_prior', 'known_unknown') AND data->'attribution'->>'cause' = 'missing_evidence'`))
}
