package projection_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// salienceRow is a salience row as the tests read it.
type salienceRow struct {
	Surfaced, Helpful, Unhelpful, Wrong, Outdated, Invalidated int
	Pinned                                                     bool
	LastUseSeq                                                 *int64
	LastUseSignal                                              *string
	Reinforcement                                              float64
}

func (f *bundle) salience(t *testing.T, space, item string) *salienceRow {
	t.Helper()
	var r salienceRow
	err := f.DB.QueryRow(context.Background(), `SELECT surfaced, helpful, unhelpful, wrong, outdated, invalidated, pinned,
	       last_use_seq, last_use_signal, reinforcement FROM salience WHERE space_id = $1 AND item_id = $2`, space, item).
		Scan(&r.Surfaced, &r.Helpful, &r.Unhelpful, &r.Wrong, &r.Outdated, &r.Invalidated, &r.Pinned, &r.LastUseSeq, &r.LastUseSignal, &r.Reinforcement)
	if err != nil {
		return nil
	}
	return &r
}

func withTime(e eventloom.NewEvent, t time.Time) eventloom.NewEvent {
	e.OccurredAt = &t
	return e
}

func TestSalience_LedgerSumsWhatEachEventNamesAndRebuildReproducesIt(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 3})
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Append(t, "led",
		withTime(ev("message", "the audit topic keeps seven days", map[string]any{"role": "user"}), t0),                      // 1
		withTime(ev("message", "consumers run in eu-west", map[string]any{"role": "user"}), t0),                              // 2
		withTime(ev("fact.asserted", "", map[string]any{"subject": "audit", "predicate": "owner", "value": "platform"}), t0), // 3
	)
	f.Append(t, "led",
		withTime(ev("checkout.surfaced", "", map[string]any{"items": []map[string]any{{"item_id": "ev:1", "tier": "query", "seqs": []int{1}},
			{"item_id": "ev:9", "tier": "query"}, {"item_id": "latent:2", "tier": "query", "seqs": []int{2}}}}), t0.AddDate(0, 0, 1)), // 4
		withTime(ev("feedback.recorded", "", map[string]any{"target_seqs": []int{1, 1, 2}, "signal": "helpful"}), t0.AddDate(0, 0, 2)), // 5
		withTime(ev("feedback.recorded", "", map[string]any{"target_seqs": []int{2}, "signal": "wrong"}), t0.AddDate(0, 0, 3)),         // 6
		withTime(ev("memory.invalidated", "", map[string]any{"target_seq": 2, "reason": "moved"}), t0.AddDate(0, 0, 4)),                // 7
		withTime(ev("memory.pinned", "", map[string]any{"target_seqs": []int{1, 40}}), t0.AddDate(0, 0, 5)),                            // 8
		withTime(ev("memory.unpinned", "", map[string]any{"target_seqs": []int{1}}), t0.AddDate(0, 0, 6)),                              // 9
		withTime(ev("salience.configured", "", map[string]any{"half_life_days": 7}), t0.AddDate(0, 0, 7)),                              // 10
		withTime(ev("salience.configured", "", map[string]any{"floor": 0.2}), t0.AddDate(0, 0, 8)),                                     // 11
	)
	f.Project(t, "led")

	one := f.salience(t, "led", "ev:1")
	require.NotNil(t, one)
	require.Equal(t, 1, one.Surfaced)
	require.Equal(t, 1, one.Helpful, "an event naming an item twice reinforces it once")
	require.False(t, one.Pinned, "the latest of pin and unpin wins")
	require.Equal(t, int64(8), *one.LastUseSeq, "the pin is its last use; an unpin is none")
	require.Equal(t, "pinned", *one.LastUseSignal)
	require.InDelta(t, 1.01*1.05, one.Reinforcement, 1e-12)

	two := f.salience(t, "led", "ev:2")
	require.Equal(t, 1, two.Wrong)
	require.Equal(t, 1, two.Invalidated)
	require.Equal(t, int64(5), *two.LastUseSeq, "wrong feedback and invalidation are no use")
	require.InDelta(t, 1.05*0.4*0.5, two.Reinforcement, 1e-12)

	require.Nil(t, f.salience(t, "led", "ev:3"), "nothing named the fact.asserted event")
	require.Nil(t, f.salience(t, "led", "ev:9"), "a surfacing never reinforces a later seq")
	require.Nil(t, f.salience(t, "led", "ev:40"))
	require.Nil(t, f.salience(t, "led", "latent:2"), "derived artifacts are not items of the ledger")

	var halfLife, floor float64
	var used time.Time
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT half_life_days, floor, use_started_at FROM salience_spaces WHERE space_id = 'led'`).
		Scan(&halfLife, &floor, &used))
	require.Equal(t, 7.0, halfLife)
	require.Equal(t, 0.2, floor)
	require.True(t, used.Equal(t0.AddDate(0, 0, 1)), "use started with the first surfacing")

	incremental, err := f.Proj.Checksum(ctx, "led")
	require.NoError(t, err)
	require.Equal(t, int64(7), incremental.Reinforcements)
	_, err = f.Proj.Rebuild(ctx, "led")
	require.NoError(t, err)
	rebuilt, err := f.Proj.Checksum(ctx, "led")
	require.NoError(t, err)
	require.Equal(t, incremental, rebuilt)

	// A salience change moves the digest: the checksum covers the ledger.
	f.Append(t, "led", ev("feedback.recorded", "", map[string]any{"target_seqs": []int{1}, "signal": "unhelpful"}))
	f.Project(t, "led")
	moved, err := f.Proj.Checksum(ctx, "led")
	require.NoError(t, err)
	require.NotEqual(t, incremental.Digest, moved.Digest)
}

func TestDecaySalience_MaterialisesAsOfItsRunAndCountsCrossings(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Append(t, "dec",
		withTime(ev("message", "an old note", map[string]any{"role": "user"}), t0),
		withTime(ev("fact.asserted", "", map[string]any{"subject": "audit", "predicate": "owner", "value": "platform"}), t0),
		withTime(ev("feedback.recorded", "", map[string]any{"target_seqs": []int{1}, "signal": "unhelpful"}), t0),
	)
	f.Project(t, "dec")
	var items int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'dec')`).Scan(&items))

	res, err := projection.DecaySalience(ctx, f.DB, "dec", t0.AddDate(0, 0, 10))
	require.NoError(t, err)
	require.Equal(t, int64(items), res.Items)
	require.Zero(t, res.Attenuated)

	res, err = projection.DecaySalience(ctx, f.DB, "dec", t0.AddDate(0, 0, 120))
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Attenuated, "the note; the asserted fact is exempt")
	require.Equal(t, int64(1), res.NewlyAttenuated)
	var sal float64
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT salience FROM salience_decayed WHERE space_id = 'dec' AND item_id = 'ev:1'`).Scan(&sal))
	require.InDelta(t, 0.7*0.0625, sal, 1e-9, "unhelpful × four half-lives")

	pinAt := t0.AddDate(0, 0, 119)
	f.Append(t, "dec", withTime(ev("memory.pinned", "", map[string]any{"target_seqs": []int{1}}), pinAt))
	f.Project(t, "dec")
	res, err = projection.DecaySalience(ctx, f.DB, "dec", t0.AddDate(0, 0, 120))
	require.NoError(t, err)
	require.Zero(t, res.Attenuated)
	require.Equal(t, int64(1), res.Restored)

	pending, err := projection.DecayPendingSpaces(ctx, f.DB, time.Now(), 10)
	require.NoError(t, err)
	require.Equal(t, []string{"dec"}, pending, fmt.Sprint("the last run was as of ", t0.AddDate(0, 0, 120)))
}
