package policy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/policy"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// bundle is what every test here uses: the log on a migrated database of the test's own
// (checkout.New takes a pool), checkout and the policy service.
type bundle struct {
	*fixture.Log
	pool *pgxpool.Pool
	co   *checkout.Service
	svc  *policy.Service
}

func setup(t *testing.T) *bundle {
	t.Helper()
	pool := testcontainers.NewDatabase(t).AppPool(t)
	log := fixture.New(t, pool, projection.Config{})
	return &bundle{Log: log, pool: pool,
		co: checkout.New(pool, log.Store, checkout.Config{Embedder: embedding.NewOffline()}), svc: policy.New(pool, log.Store)}
}

func msg(session, text string, day int) eventloom.NewEvent {
	ts := time.Date(2025, 2, day, 9, 0, 0, 0, time.UTC)
	return eventloom.NewEvent{Type: "message", SessionID: session, Content: text, OccurredAt: &ts, Data: json.RawMessage(`{"role":"user"}`)}
}

// seed is a small project memory where the keyword and vector lanes disagree on which turns
// answer a question best (the offline embedder favours short, repetitive turns).
func seed(t *testing.T, b *bundle, space string) {
	t.Helper()
	b.Append(t, space,
		msg("s1", "backup", 1),
		msg("s1", "The nightly backup job writes its archive to the cold storage bucket at 02:00 every night after the batch window closes and the replicas catch up with the primary database cluster in the second region.", 2),
		msg("s1", "backup backup backup archive", 3),
		msg("s1", "Archive storage costs went up; nightly jobs were moved.", 4),
		msg("s1", "Where does it go? The archive goes to cold storage.", 5),
		msg("s2", "The deploy pipeline pushes images to the internal registry after tests pass.", 6),
		msg("s2", "registry registry images", 7),
		msg("s2", "Pushing: the pipeline deploys through a push of each image; the internal one.", 8),
	)
	b.Index(t, space)
}

// questions are the checkouts the space's agent made and judged.
var questions = []string{
	"where does the nightly backup archive go",
	"how does the deploy pipeline push images to the registry",
}

// judge checks out each question (recorded, in its own session) and records feedback on one
// pair of its surfaced items where the keyword and vector lanes disagree: of a higher-scored
// item and a lower-scored one that the keyword lane ranks better, the lower one is judged
// helpful and the higher one unhelpful (the other way round when invert). It returns how many
// checkouts it judged.
func judge(t *testing.T, b *bundle, space string, invert bool) int {
	t.Helper()
	ctx := context.Background()
	judged := 0
	for i, q := range questions {
		session := fmt.Sprintf("judge-%d", i)
		p, err := b.co.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q, SessionID: session, Purpose: checkout.PurposeGeneral})
		require.NoError(t, err)
		var items []*checkout.Item
		for _, tier := range p.Tiers {
			items = append(items, tier.Items...)
		}
		var neg, pos *checkout.Item
	search:
		for _, x := range items {
			kx, okx := x.Components[checkout.LaneKeyword]
			for _, y := range items {
				ky, oky := y.Components[checkout.LaneKeyword]
				if okx && oky && x.Score > y.Score && ky.Rank < kx.Rank {
					neg, pos = x, y
					break search
				}
			}
		}
		if neg == nil {
			continue
		}
		good, bad := "helpful", "unhelpful"
		if invert {
			good, bad = bad, good
		}
		data := func(id, signal string) json.RawMessage {
			return json.RawMessage(fmt.Sprintf(`{"item_ids":[%q],"signal":%q,"checkout_seq":%d}`, id, signal, p.SurfacedSeq))
		}
		b.Append(t, space,
			eventloom.NewEvent{Type: "feedback.recorded", SessionID: session, Data: data(pos.ItemID, good)},
			eventloom.NewEvent{Type: "feedback.recorded", SessionID: session, Data: data(neg.ItemID, bad)})
		judged++
	}
	return judged
}

var asOf = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// packets checks out every question without recording, at a fixed as_of, and returns each
// packet's bytes with only the timings zeroed.
func packets(t *testing.T, b *bundle, space string) ([]string, []string) {
	t.Helper()
	var out, versions []string
	for _, q := range questions {
		p, err := b.co.Checkout(context.Background(), &checkout.Request{SpaceID: space, Query: q, NoRecord: true, AsOf: &asOf, Purpose: checkout.PurposeGeneral})
		require.NoError(t, err)
		p.Diagnostics.TotalMS = 0
		for k, l := range p.Diagnostics.Lanes {
			l.MS = 0
			p.Diagnostics.Lanes[k] = l
		}
		raw, err := json.Marshal(p)
		require.NoError(t, err)
		out = append(out, string(raw))
		versions = append(versions, p.Diagnostics.PolicyVersion)
	}
	return out, versions
}

// currentRow is the space's projected current policy (empty: none, the default built-in policy).
func currentRow(t *testing.T, b *bundle, space string) string {
	t.Helper()
	var v string
	err := b.pool.QueryRow(context.Background(), `SELECT coalesce((SELECT version FROM retrieval_policy_current WHERE space_id = $1), '')`, space).Scan(&v)
	require.NoError(t, err)
	return v
}

// TestPolicy_FitPromoteUseRollback is the lifecycle end to end: a fit learns from the judged
// checkouts, promotion changes the packets and records the version in them and in the
// checkout.surfaced event, a rebuild reproduces the current policy (checksum), and rollback
// restores the packets from before the promotion byte for byte.
func TestPolicy_FitPromoteUseRollback(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const space = "policy-life"
	seed(t, b, space)
	require.Positive(t, judge(t, b, space, false), "the fixture must give the fit judged checkouts")
	b.Index(t, space)

	before, versions := packets(t, b, space)
	for _, v := range versions {
		require.Equal(t, checkout.BuiltinPolicyVersion, v)
	}

	fit, err := b.svc.Fit(ctx, space, "test")
	require.NoError(t, err)
	require.Regexp(t, `^fit-[0-9a-f]{12}$`, fit.Version)
	require.Greater(t, fit.Diagnostics.Metric, fit.Diagnostics.BaseMetric)
	require.NotEmpty(t, fit.Diagnostics.Changed)
	require.NotEmpty(t, fit.SourceSeqs, "the proposal cites the events it learned from")
	require.Positive(t, fit.Seq)
	refit, err := b.svc.Fit(ctx, space, "test")
	require.NoError(t, err)
	require.Equal(t, fit.Version, refit.Version, "the fit is deterministic: the same log gives the same version")
	require.Zero(t, refit.Seq, "a version proposed before is not proposed again")

	// Proposing does not change ranking.
	b.Index(t, space)
	proposed, _ := packets(t, b, space)
	require.Equal(t, before, proposed)

	prom, err := b.svc.Promote(ctx, space, fit.Version, "test", nil)
	require.NoError(t, err)
	require.Equal(t, checkout.BuiltinPolicyVersion, prom.Previous)
	require.GreaterOrEqual(t, prom.Gate.ReplayCandidate, prom.Gate.ReplayCurrent)
	b.Index(t, space)
	after, versions := packets(t, b, space)
	for _, v := range versions {
		require.Equal(t, fit.Version, v, "every packet records the policy it was ranked with")
	}
	require.NotEqual(t, before, after, "the promoted policy changes the packets")

	// A recorded checkout and a /query result carry the version too.
	p, err := b.co.Checkout(ctx, &checkout.Request{SpaceID: space, Query: questions[0]})
	require.NoError(t, err)
	var data struct {
		PolicyVersion string `json:"policy_version"`
	}
	page, err := b.Store.Replay(ctx, &eventloom.ReplayParams{SpaceID: space, AfterSeq: p.SurfacedSeq - 1, UntilSeq: p.SurfacedSeq})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(page.Events[0].Data, &data))
	require.Equal(t, fit.Version, data.PolicyVersion)
	qr, err := b.co.Query(ctx, &checkout.Request{SpaceID: space, Query: questions[0]})
	require.NoError(t, err)
	require.Equal(t, fit.Version, qr.PolicyVersion)
	b.Index(t, space)

	// A rebuild from the log reproduces the policy tables.
	requireRebuildKeeps(t, b, space, fit.Version)

	list, err := b.svc.List(ctx, space)
	require.NoError(t, err)
	require.Equal(t, fit.Version, list.Current)
	require.Equal(t, fit.Version, list.Projected)
	require.Equal(t, []string{checkout.BuiltinPolicyVersion}, list.History)
	var listed, statuses, want []string
	for _, p := range list.Policies {
		listed, statuses = append(listed, p.Version), append(statuses, p.Status)
	}
	require.Equal(t, append(slices.Clone(vocab.BuiltinPolicyVersions), fit.Version), listed)
	for _, v := range vocab.BuiltinPolicyVersions {
		want = append(want, map[bool]string{true: "previous", false: "proposed"}[v == checkout.BuiltinPolicyVersion])
	}
	require.Equal(t, append(want, "current"), statuses)

	rb, err := b.svc.Rollback(ctx, space, "test", "checking rollback")
	require.NoError(t, err)
	require.Equal(t, fit.Version, rb.Version)
	require.Equal(t, checkout.BuiltinPolicyVersion, rb.Restored)
	b.Index(t, space)
	restored, versions := packets(t, b, space)
	require.Equal(t, before, restored, "rollback restores the packets byte for byte")
	for _, v := range versions {
		require.Equal(t, checkout.BuiltinPolicyVersion, v)
	}
	require.Equal(t, checkout.BuiltinPolicyVersion, currentRow(t, b, space))

	_, err = b.svc.Rollback(ctx, space, "test", "")
	require.ErrorIs(t, err, policy.ErrNothingToRollBack)
}

// TestPolicy_GateRefusesAWorseReplay: a proposed version that replays worse than the current
// policy on the space's own history (here, after later feedback reversed the judgements it
// learned from) is refused with an error naming both numbers, and nothing is appended.
func TestPolicy_GateRefusesAWorseReplay(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const space = "policy-gate"
	seed(t, b, space)
	require.Positive(t, judge(t, b, space, false))
	fit, err := b.svc.Fit(ctx, space, "test")
	require.NoError(t, err)

	// Later checkouts of the same questions are judged the other way, twice as often: on the
	// space's history as it now stands, the fitted weights do worse than the built-in ones.
	require.Positive(t, judge(t, b, space, true))
	require.Positive(t, judge(t, b, space, true))
	head := func() int64 {
		var n int64
		require.NoError(t, b.pool.QueryRow(ctx, `SELECT max(seq) FROM events WHERE space_id = $1`, space).Scan(&n))
		return n
	}
	h := head()
	_, err = b.svc.Promote(ctx, space, fit.Version, "test", nil)
	require.ErrorIs(t, err, policy.ErrGateFailed)
	var ge *policy.GateError
	require.ErrorAs(t, err, &ge)
	require.Less(t, ge.Gate.ReplayCandidate, ge.Gate.ReplayCurrent)
	require.ErrorContains(t, err, "policy "+fit.Version+" not promoted: its replay metric on the space's own history is")
	require.ErrorContains(t, err, "below the current builtin-10's")
	require.Equal(t, h, head(), "a refused promotion appends nothing")

	// Nor can the gate be skipped by appending policy.promoted without admin rights.
	_, err = b.Store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{{Type: "policy.promoted",
		Data: json.RawMessage(fmt.Sprintf(`{"version":%q,"previous":"builtin-1"}`, fit.Version))}}})
	require.ErrorIs(t, err, validation.ErrInvalid)
	require.ErrorContains(t, err, "policy.promoted may only be appended with admin rights")
	require.Equal(t, h, head())

	_, err = b.svc.Promote(ctx, space, checkout.BuiltinPolicyVersion, "test", nil)
	require.ErrorIs(t, err, validation.ErrInvalid, "builtin-1 is already current")
	_, err = b.svc.Promote(ctx, space, "fit-000000000000", "test", nil)
	require.ErrorIs(t, err, policy.ErrPolicyNotFound)
}

// TestPolicy_GateRefusesLowerDevRecall: a candidate that replays at least as well is still
// refused when the dev benchmarks measure lower recall with it.
func TestPolicy_GateRefusesLowerDevRecall(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const space = "policy-dev"
	seed(t, b, space)
	require.Positive(t, judge(t, b, space, false))
	fit, err := b.svc.Fit(ctx, space, "test")
	require.NoError(t, err)
	dev := func(_ context.Context, p *checkout.Policy) ([]policy.Dev, error) {
		r := 0.8
		if p.Version == fit.Version {
			r = 0.75
		}
		return []policy.Dev{{Name: "locomo dev", Metric: "turn recall_any@10", Current: r}}, nil
	}
	_, err = b.svc.Promote(ctx, space, fit.Version, "test", dev)
	require.ErrorIs(t, err, policy.ErrGateFailed)
	require.ErrorContains(t, err, "its turn recall_any@10 on locomo dev is 0.7500, below the current builtin-10's 0.8000")
	same := func(_ context.Context, _ *checkout.Policy) ([]policy.Dev, error) {
		return []policy.Dev{{Name: "locomo dev", Metric: "turn recall_any@10", Current: 0.8}}, nil
	}
	prom, err := b.svc.Promote(ctx, space, fit.Version, "test", same)
	require.NoError(t, err)
	require.Len(t, prom.Gate.Dev, 1)
}

// TestPolicy_FitNeedsJudgedCheckouts: without feedback there is nothing to learn from.
func TestPolicy_FitNeedsJudgedCheckouts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	const space = "policy-empty"
	seed(t, b, space)
	_, err := b.svc.Fit(context.Background(), space, "test")
	require.ErrorIs(t, err, policy.ErrNothingToLearn)
}
