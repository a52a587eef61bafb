package review_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/disclosure"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/review"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// bundle is what every test here works with: the log and a decider on one executor (a
// rolled-back test transaction, or the application role's pool on a database of the test's
// own), and that database when there is one.
type bundle struct {
	*fixture.Log
	db      *testcontainers.Database // nil on a test transaction
	pool    *pgxpool.Pool            // nil on a test transaction
	decider *review.Decider
}

// setup runs on a database of the test's own, for the tests that check out (checkout.New
// takes a pool) or decide from several sessions at once.
func setup(t *testing.T) *bundle {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	b := setupOn(t, pool)
	b.db, b.pool = db, pool
	return b
}

// setupTx runs on a rolled-back test transaction.
func setupTx(t *testing.T) *bundle {
	t.Helper()
	return setupOn(t, testcontainers.TestTx(t))
}

func setupOn(t *testing.T, db pgexec.Executor) *bundle {
	t.Helper()
	log := fixture.New(t, db, projection.Config{})
	return &bundle{Log: log, decider: review.NewDecider(db, log.Store)}
}

func ev(typ, content string, data any) eventloom.NewEvent {
	return eventloom.NewEvent{Type: typ, Content: content, Actor: "tester", Data: fixture.Data(data)}
}

func (b *bundle) head(t *testing.T, space string) int64 {
	t.Helper()
	var head int64
	require.NoError(t, b.DB.QueryRow(context.Background(), `SELECT head_seq FROM spaces WHERE space_id = $1`, space).Scan(&head))
	return head
}

func (b *bundle) facts(t *testing.T, space, entity string) []graph.Fact {
	t.Helper()
	facts, err := graph.Facts(context.Background(), b.DB, graph.FactsParams{SpaceID: space, Entity: entity})
	require.NoError(t, err)
	return facts
}

// version is one row of the facts table, as the history tests read it.
type version struct {
	ID, Status, ReviewStatus, Object string
	SupersededBy                     *string
}

// history is every version of (entity, predicate), oldest first, read from the facts table.
func (b *bundle) history(t *testing.T, space, entity, predicate string) []version {
	t.Helper()
	rows, err := b.DB.Query(context.Background(), `
		SELECT f.fact_id, f.status, f.review_status, coalesce(o.name, f.value #>> '{}'), f.superseded_by
		FROM facts f JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
		LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
		WHERE f.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND s.key = $2 AND f.predicate = $3 ORDER BY f.version`, space, entity, predicate)
	require.NoError(t, err)
	var out []version
	for rows.Next() {
		var v version
		require.NoError(t, rows.Scan(&v.ID, &v.Status, &v.ReviewStatus, &v.Object, &v.SupersededBy))
		out = append(out, v)
	}
	require.NoError(t, rows.Err())
	return out
}

func (b *bundle) checksum(t *testing.T, space string) *projection.Checksum {
	t.Helper()
	c, err := b.Proj.Checksum(context.Background(), space)
	require.NoError(t, err)
	return c
}

func proposal(kind string, evidence []int64, fact map[string]any) map[string]any {
	d := map[string]any{"kind": kind, "evidence": evidence, "confidence": 0.8}
	if fact != nil {
		d["fact"] = fact
	}
	return d
}

func TestDecide_RejectChangesNoFactAndAcceptAppendsOneCitedAssertion(t *testing.T) {
	b := setupTx(t)
	ctx := context.Background()
	space := "review"
	rc := b.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}),
		ev("message", "Alice said she has moved to Beta", map[string]any{"role": "user"}),
		ev("proposal.created", "", proposal("belief_update", []int64{2}, map[string]any{"subject": "Alice", "predicate": "works at", "object": "Beta"})),
		ev("proposal.created", "", proposal("belief_update", []int64{2, 1}, map[string]any{"subject": "Alice", "predicate": "title", "value": "engineer"})),
	)
	b.Project(t, space)
	before := b.facts(t, space, "alice")
	require.Len(t, before, 1)
	require.Equal(t, "unreviewed", before[0].ReviewStatus)

	page, err := review.List(ctx, b.DB, review.ListParams{SpaceID: space, Status: review.StatusPending})
	require.NoError(t, err)
	require.Len(t, page.Proposals, 2)
	require.Equal(t, []graph.Evidence{{Seq: 1, Hash: rc[0].Hash}, {Seq: 2, Hash: rc[1].Hash}}, page.Proposals[1].Evidence)

	// Rejecting appends the decision and nothing else, and changes no fact.
	d, err := b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 4, Decision: review.DecisionReject, Actor: "reviewer", Reason: "not what she said"})
	require.NoError(t, err)
	require.Len(t, d.Events, 1)
	require.Equal(t, review.StatusRejected, d.Status)
	b.Project(t, space)
	require.Equal(t, before, b.facts(t, space, "alice"))
	p, err := review.Get(ctx, b.DB, space, 4)
	require.NoError(t, err)
	require.Equal(t, review.StatusRejected, p.Status)
	require.Equal(t, "reviewer", *p.DecidedBy)
	require.Equal(t, "not what she said", *p.Reason)
	require.Nil(t, p.FactID)

	// Accepting appends the decision and exactly one fact.asserted, citing the fact's own
	// event, the proposal and the proposal's evidence.
	d, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 3, Decision: review.DecisionAccept, Actor: "reviewer"})
	require.NoError(t, err)
	require.Len(t, d.Events, 2)
	assertSeq := d.Events[1].Seq
	var types []string
	rows, err := b.DB.Query(ctx, `SELECT type FROM events WHERE space_id = $1 AND seq > 5 ORDER BY seq`, space)
	require.NoError(t, err)
	for rows.Next() {
		var typ string
		require.NoError(t, rows.Scan(&typ))
		types = append(types, typ)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"proposal.accepted", "fact.asserted"}, types)
	b.Project(t, space)

	now := b.facts(t, space, "alice")
	require.Len(t, now, 1)
	require.Equal(t, "Beta", now[0].Object.Name)
	require.Equal(t, int32(2), now[0].Version)
	require.Equal(t, "accepted", now[0].ReviewStatus)
	require.Equal(t, "asserted", now[0].Authority)
	require.Equal(t, []graph.Evidence{{Seq: assertSeq, Hash: d.Events[1].Hash}, {Seq: 3, Hash: rc[2].Hash}, {Seq: 2, Hash: rc[1].Hash}}, now[0].Evidence)
	hist := b.history(t, space, "alice", "works at")
	require.Len(t, hist, 2)
	require.Equal(t, "superseded", hist[0].Status)
	p, err = review.Get(ctx, b.DB, space, 3)
	require.NoError(t, err)
	require.Equal(t, review.StatusAccepted, p.Status)
	require.Equal(t, now[0].ID, *p.FactID)

	// Deciding a decided, unknown or non-proposal seq is refused and appends nothing.
	head := b.head(t, space)
	for _, tc := range []struct {
		seq      int64
		decision string
		want     error
	}{
		{3, review.DecisionAccept, review.ErrNotPending},
		{3, review.DecisionDefer, review.ErrNotPending},
		{4, review.DecisionAccept, review.ErrNotPending},
		{2, review.DecisionAccept, review.ErrProposalNotFound},
		{999, review.DecisionReject, review.ErrProposalNotFound},
	} {
		_, err := b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: tc.seq, Decision: tc.decision, Actor: "reviewer"})
		require.ErrorIs(t, err, tc.want, "seq %d %s", tc.seq, tc.decision)
	}
	require.Equal(t, head, b.head(t, space))
}

func TestDecide_ReadsTheLogNotALaggingProjection(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	space := "lag"
	b.Append(t, space,
		ev("message", "Bob prefers tabs", map[string]any{"role": "user"}),
		ev("proposal.created", "Bob prefers tabs: indent with tabs everywhere", proposal("skill", []int64{1}, nil)),
	)
	// A proposal is review material, never memory, not even from the unprojected log.
	packet, err := checkout.New(b.pool, b.Store, checkout.Config{Embedder: embedding.NewOffline()}).
		Checkout(ctx, &checkout.Request{SpaceID: space, Query: "does Bob prefer tabs?", NoRecord: true})
	require.NoError(t, err)
	var ids []string
	for _, tier := range packet.Tiers {
		for _, it := range tier.Items {
			ids = append(ids, it.ItemID)
		}
	}
	require.Contains(t, ids, "ev:1")
	require.NotContains(t, ids, "ev:2")
	// Nothing is projected: the proposal is decided from the log.
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 2, Decision: review.DecisionDefer, Actor: "r"})
	require.NoError(t, err)
	d, err := b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 2, Decision: review.DecisionAccept, Actor: "r"})
	require.NoError(t, err)
	require.Len(t, d.Events, 2, "accepting a skill appends the decision and its skill entry")
	require.Equal(t, int64(5), d.Events[1].Seq)
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 2, Decision: review.DecisionReject, Actor: "r"})
	require.ErrorIs(t, err, review.ErrNotPending)
	b.Project(t, space)
	p, err := review.Get(ctx, b.DB, space, 2)
	require.NoError(t, err)
	require.Equal(t, review.StatusAccepted, p.Status)
	require.Equal(t, int64(4), *p.DecidedSeq)
	// And once projected, the projection answers.
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 2, Decision: review.DecisionReject, Actor: "r"})
	require.ErrorIs(t, err, review.ErrNotPending)
}

// inferLLM "infers" that Alice works at Beta from any text.
type inferLLM struct{}

func (inferLLM) Extract(_ context.Context, text string) ([]extract.Triple, error) {
	if !strings.Contains(text, "Beta") {
		return []extract.Triple{{Subject: "Alice", Predicate: "works at", Object: "Acme", Confidence: 0.9}}, nil
	}
	return []extract.Triple{{Subject: "Alice", Predicate: "Works  At", Object: "Beta", Confidence: 0.6}}, nil
}

func TestInterference_InferredAgainstAssertedIsProposedAndLabelledConflicted(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	space := "interference"
	b.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}),
		ev("message", "Alice mentioned her work at Acme", map[string]any{"role": "user"}),
		ev("message", "Alice starts at Beta on Monday", map[string]any{"role": "user"}),
	)
	b.Project(t, space)
	inf := projection.NewInferrer(b.DB, inferLLM{}, "stand-in@1")
	n, err := inf.InferSpace(ctx, space)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.Equal(t, int64(4), b.head(t, space), "one proposal: the statement agreeing with the fact proposes nothing")
	b.Project(t, space)

	page, err := review.List(ctx, b.DB, review.ListParams{SpaceID: space, Status: review.StatusOpen})
	require.NoError(t, err)
	require.Len(t, page.Proposals, 1)
	p := page.Proposals[0]
	facts := b.facts(t, space, "alice")
	require.Len(t, facts, 1)
	require.Equal(t, facts[0].ID, *p.Contradicts)
	require.Equal(t, int64(3), p.Inference.Seq)
	require.Equal(t, review.InterferenceActor, p.ProposedBy)
	require.JSONEq(t, `{"subject":"Alice","predicate":"Works  At","object":"Beta"}`, string(p.Fact))

	// The asserted fact stands, labelled conflicted; so is the inferred statement.
	require.Equal(t, "Acme", facts[0].Object.Name)
	require.Equal(t, int32(1), facts[0].Version)
	require.Equal(t, "conflicted", facts[0].ReviewStatus)
	inferred, err := graph.InferredFacts(ctx, b.DB, space, "alice", 0)
	require.NoError(t, err)
	require.Len(t, inferred, 2)
	require.Equal(t, "conflicted", inferred[0].ReviewStatus, "seq 3's statement")
	require.Equal(t, "unreviewed", inferred[1].ReviewStatus, "seq 2's statement agrees")

	// Disclosure shows the label.
	view, err := disclosure.Item(ctx, b.DB, disclosure.ItemParams{SpaceID: space, ID: memoryitem.FactID(facts[0].ID)})
	require.NoError(t, err)
	require.Contains(t, view.Labels, "conflicted")
	require.Contains(t, view.Text, "review conflicted")

	// Checkout labels both and warns.
	packet, err := checkout.New(b.pool, b.Store, checkout.Config{Embedder: embedding.NewOffline()}).
		Checkout(ctx, &checkout.Request{SpaceID: space, Query: "where does Alice work, Acme or Beta?"})
	require.NoError(t, err)
	labels := map[string]checkout.Labels{}
	for _, tier := range packet.Tiers {
		for _, it := range tier.Items {
			labels[it.ItemID] = it.Labels
		}
	}
	require.True(t, labels[memoryitem.FactID(facts[0].ID)].Conflicted, "the asserted fact")
	require.True(t, labels["ev:3"].Conflicted, "the event the contradicting statement was inferred from")
	require.False(t, labels["ev:2"].Conflicted)
	var conflicted []string
	for _, w := range packet.Warnings {
		if w.Code == "conflicted" {
			conflicted = append(conflicted, w.ItemID)
		}
	}
	require.ElementsMatch(t, []string{memoryitem.FactID(facts[0].ID), "ev:3"}, conflicted)

	// Accepting replaces the fact through review: the old version is marked rejected.
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: p.Seq, Decision: review.DecisionAccept, Actor: "reviewer"})
	require.NoError(t, err)
	b.Project(t, space)
	hist := b.history(t, space, "alice", "works at")
	require.Len(t, hist, 2)
	require.Equal(t, "rejected", hist[0].ReviewStatus)
	require.Equal(t, "superseded", hist[0].Status)
	require.Equal(t, "accepted", hist[1].ReviewStatus)
	require.Equal(t, "Beta", hist[1].Object)
	inferred, err = graph.InferredFacts(ctx, b.DB, space, "alice", 0)
	require.NoError(t, err)
	require.Equal(t, "accepted", inferred[0].ReviewStatus)

	// Inferences are not asked for again, and a rebuild gives the same projections.
	n, err = inf.InferSpace(ctx, space)
	require.NoError(t, err)
	require.Zero(t, n)
	incremental := b.checksum(t, space)
	_, err = b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, b.checksum(t, space))
}

func TestInterference_RejectedProposalUpholdsTheFact(t *testing.T) {
	b := setupTx(t)
	ctx := context.Background()
	space := "uphold"
	b.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}),
		ev("message", "Alice visited Beta", map[string]any{"role": "user"}),
	)
	b.Project(t, space)
	_, err := projection.NewInferrer(b.DB, inferLLM{}, "stand-in@1").InferSpace(ctx, space)
	require.NoError(t, err)
	b.Project(t, space)
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 3, Decision: review.DecisionDefer, Actor: "r"})
	require.NoError(t, err)
	b.Project(t, space)
	require.Equal(t, "conflicted", b.facts(t, space, "alice")[0].ReviewStatus, "deferred: still in conflict")
	_, err = b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 3, Decision: review.DecisionReject, Actor: "r"})
	require.NoError(t, err)
	b.Project(t, space)
	facts := b.facts(t, space, "alice")
	require.Len(t, facts, 1)
	require.Equal(t, "Acme", facts[0].Object.Name)
	require.Equal(t, int32(1), facts[0].Version)
	require.Equal(t, "accepted", facts[0].ReviewStatus, "upheld by the reviewer")
	inferred, err := graph.InferredFacts(ctx, b.DB, space, "alice", 0)
	require.NoError(t, err)
	require.Equal(t, "rejected", inferred[0].ReviewStatus)
}

func TestSameAuthorityReassertion_StillVersions(t *testing.T) {
	b := setupTx(t)
	space := "versions"
	b.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}),
		ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Globex"}),
	)
	b.Project(t, space)
	hist := b.history(t, space, "alice", "works at")
	require.Len(t, hist, 2)
	require.Equal(t, "superseded", hist[0].Status)
	require.Equal(t, hist[1].ID, *hist[0].SupersededBy)
	require.Equal(t, "current", hist[1].Status)
	for _, f := range hist {
		require.Equal(t, "unreviewed", f.ReviewStatus)
	}
	page, err := review.List(context.Background(), b.DB, review.ListParams{SpaceID: space})
	require.NoError(t, err)
	require.Empty(t, page.Proposals, "no proposal for a same-authority reassertion")
	require.Equal(t, review.VerdictVersion, review.Precedence(review.Claim{Authority: "asserted"}, review.Claim{Authority: "asserted"}))
	require.Equal(t, review.VerdictPropose, review.Precedence(review.Claim{Authority: "inferred"}, review.Claim{Authority: "asserted"}))
	require.Equal(t, review.VerdictPropose, review.Precedence(review.Claim{Authority: "asserted"}, review.Claim{Authority: "asserted", Pinned: true}))
	require.Equal(t, review.VerdictPropose, review.Precedence(review.Claim{Authority: "asserted"}, review.Claim{Authority: "asserted", Endorsed: true}))
}

func TestRebuild_SameChecksumAfterProposalsAndDecisions(t *testing.T) {
	b := setupTx(t)
	ctx := context.Background()
	space := "rebuild"
	b.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}),
		ev("message", "Alice moved to Beta", map[string]any{"role": "user"}),
		ev("proposal.created", "", map[string]any{"kind": "belief_update", "evidence": []int64{2}, "contradicts": "nonexistent",
			"fact": map[string]any{"subject": "Alice", "predicate": "works at", "object": "Beta"}}),
		ev("proposal.created", "", proposal("consolidation", []int64{1, 2}, nil)),
		ev("proposal.created", "", proposal("belief_update", []int64{2}, map[string]any{"subject": "Alice", "predicate": "city", "value": "Oslo"})),
	)
	b.Project(t, space)
	for _, d := range []review.DecideParams{
		{SpaceID: space, ProposalSeq: 3, Decision: review.DecisionAccept, Actor: "a"},
		{SpaceID: space, ProposalSeq: 4, Decision: review.DecisionDefer, Actor: "a", Reason: "later"},
		{SpaceID: space, ProposalSeq: 5, Decision: review.DecisionReject, Actor: "b"},
	} {
		_, err := b.decider.Decide(ctx, d)
		require.NoError(t, err)
		b.Project(t, space) // one batch per decision: incremental
	}
	// A decision a client appended about an already decided proposal changes nothing.
	b.Append(t, space, ev("proposal.deferred", "", map[string]any{"proposal_seq": 3}))
	b.Project(t, space)
	incremental := b.checksum(t, space)
	require.Equal(t, int64(3), incremental.Proposals)
	_, err := b.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, b.checksum(t, space))
	p, err := review.Get(ctx, b.DB, space, 3)
	require.NoError(t, err)
	require.Equal(t, review.StatusAccepted, p.Status)
}

func TestReviewQueue_ListsPendingNotDecided(t *testing.T) {
	tx := testcontainers.TestTx(t)
	b := setupOn(t, tx)
	ctx := context.Background()
	space := "queue"
	b.Append(t, space,
		ev("message", "Carol said the deploy needs a feature flag", map[string]any{"role": "user"}),
		ev("proposal.created", "", proposal("skill", []int64{1}, nil)),
		ev("proposal.created", "", proposal("belief_update", []int64{1}, map[string]any{"subject": "deploy", "predicate": "needs", "value": "feature flag"})),
	)
	_, err := b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 2, Decision: review.DecisionReject, Actor: "r"})
	require.NoError(t, err)
	b.Project(t, space)
	type row struct {
		Seq          int64
		Kind, Status string
		Proposed     *string
		EvidenceSeqs []int64
		EvidenceText string
	}
	var got []row
	testcontainers.AsOwner(t, tx, func() { // the queue is the analyst's view
		rows, err := tx.Query(ctx, `SELECT proposal_seq, kind, status, proposed, evidence_seqs, evidence_text FROM memory.review_queue WHERE space_id = $1`, space)
		require.NoError(t, err)
		for rows.Next() {
			var r row
			require.NoError(t, rows.Scan(&r.Seq, &r.Kind, &r.Status, &r.Proposed, &r.EvidenceSeqs, &r.EvidenceText))
			got = append(got, r)
		}
		require.NoError(t, rows.Err())
	})
	require.Len(t, got, 1, "the rejected proposal is not in the queue")
	require.Equal(t, int64(3), got[0].Seq)
	require.Equal(t, "pending", got[0].Status)
	require.Equal(t, "deploy needs feature flag", *got[0].Proposed)
	require.Equal(t, []int64{1}, got[0].EvidenceSeqs)
	require.Equal(t, "Carol said the deploy needs a feature flag", got[0].EvidenceText)
}

func TestDecide_ConcurrentAcceptsAppendOnce(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	space := "race"
	b.Append(t, space,
		ev("message", "Eve moved to Lisbon", map[string]any{"role": "user"}),
		ev("proposal.created", "", proposal("belief_update", []int64{1}, map[string]any{"subject": "Eve", "predicate": "lives in", "object": "Lisbon"})),
	)
	const n = 6
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			_, err := b.decider.Decide(ctx, review.DecideParams{SpaceID: space, ProposalSeq: 2, Decision: review.DecisionAccept, Actor: "r"})
			errs <- err
		}()
	}
	won := 0
	for i := 0; i < n; i++ {
		if err := <-errs; err == nil {
			won++
		} else {
			require.ErrorIs(t, err, review.ErrNotPending)
		}
	}
	require.Equal(t, 1, won)
	require.Equal(t, int64(4), b.head(t, space), "one decision and one fact")
}
