package projection_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/projection"
)

// rebuildsEqual checks that the space's projections rebuilt in batches of each size have the
// digest of its incremental projection.
func rebuildsEqual(t *testing.T, f *bundle, space string, sizes ...int) {
	t.Helper()
	ctx := context.Background()
	incremental, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	for _, n := range sizes {
		p, err := projection.New(ctx, f.DB, projection.Config{BatchSize: n})
		require.NoError(t, err)
		_, err = p.Rebuild(ctx, space)
		require.NoError(t, err)
		rebuilt, err := p.Checksum(ctx, space)
		require.NoError(t, err)
		require.Equal(t, incremental, rebuilt, "rebuilt in batches of %d", n)
	}
}

func TestFeedback_InvalidatingFeedbackTakesItsReinforcementBack(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 2})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	space := "undo"
	f.Append(t, space,
		withTime(ev("message", "the audit topic keeps seven days", map[string]any{"role": "user"}), t0), // 1
		withTime(ev("message", "consumers run in eu-west", map[string]any{"role": "user"}), t0),         // 2
	)
	f.Append(t, space,
		withTime(ev("feedback.recorded", "", map[string]any{"target_seqs": []int{1}, "signal": "helpful"}), t0.AddDate(0, 0, 1)), // 3
		withTime(ev("feedback.recorded", "", map[string]any{"target_seqs": []int{1}, "signal": "helpful"}), t0.AddDate(0, 0, 2)), // 4
		withTime(ev("feedback.recorded", "", map[string]any{"target_seqs": []int{2}, "signal": "wrong"}), t0.AddDate(0, 0, 3)),   // 5
		withTime(ev("memory.pinned", "", map[string]any{"target_seqs": []int{2}}), t0.AddDate(0, 0, 4)),                          // 6
	)
	f.Project(t, space)
	require.Equal(t, 2, f.salience(t, space, "ev:1").Helpful)

	f.Append(t, space,
		withTime(ev("memory.invalidated", "", map[string]any{"target_seq": 4, "reason": "misjudged"}), t0.AddDate(0, 0, 5)),             // 7: a batch before
		withTime(ev("feedback.recorded", "", map[string]any{"target_seqs": []int{2}, "signal": "helpful"}), t0.AddDate(0, 0, 6)),        // 8
		withTime(ev("memory.invalidated", "", map[string]any{"target_seq": 8, "reason": "misjudged"}), t0.AddDate(0, 0, 7)),             // 9: its own batch... or the next
		withTime(ev("memory.invalidated", "", map[string]any{"target_seq": 5, "reason": "it was right"}), t0.AddDate(0, 0, 8)),          // 10
		withTime(ev("memory.invalidated", "", map[string]any{"target_seq": 4, "reason": "again"}), t0.AddDate(0, 0, 9)),                 // 11: takes nothing twice
		withTime(ev("memory.invalidated", "", map[string]any{"target_seq": 6, "reason": "a pin is no feedback"}), t0.AddDate(0, 0, 10)), // 12
	)
	f.Project(t, space)

	one := f.salience(t, space, "ev:1")
	require.NotNil(t, one)
	require.Equal(t, 1, one.Helpful, "the invalidated feedback no longer counts")
	require.Equal(t, int64(3), *one.LastUseSeq, "its last use is the feedback left")
	require.InDelta(t, 1.05, one.Reinforcement, 1e-12)

	two := f.salience(t, space, "ev:2")
	require.NotNil(t, two)
	require.Zero(t, two.Wrong)
	require.Zero(t, two.Helpful, "feedback taken back in the batch that recorded it is never counted")
	require.True(t, two.Pinned, "invalidating a pin's event is not taking feedback back")
	require.Equal(t, int64(6), *two.LastUseSeq)

	var rows int
	require.NoError(t, f.DB.QueryRow(context.Background(),
		`SELECT count(*) FROM reinforcements WHERE space_id = $1 AND seq IN (4, 5, 8)`, space).Scan(&rows))
	require.Zero(t, rows, "the ledger keeps no row of invalidated feedback")

	rebuildsEqual(t, f, space, 1000, 1, 3)
}

func TestFeedback_OnTheAssertingEventCountsForItsFacts(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 3})
	ctx := context.Background()
	space := "asserting"
	f.Append(t, space,
		ev("fact.asserted", "", map[string]any{"subject": "deploy", "predicate": "runs on", "object": "GitHub Actions"}), // 1
		ev("message", "lint runs in pre-commit", map[string]any{"role": "user"}),                                         // 2
	)
	f.Project(t, space)
	var factID string
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT fact_id FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND recorded_seq = 1`, space).Scan(&factID))
	fact := "fact:" + factID

	f.Append(t, space,
		ev("feedback.recorded", "", map[string]any{"target_seqs": []int{1}, "signal": "helpful"}),                             // 3
		ev("feedback.recorded", "", map[string]any{"target_seqs": []int{1}, "item_ids": []string{fact}, "signal": "helpful"}), // 4: once
		ev("fact.asserted", "", map[string]any{"subject": "deploy", "predicate": "runs on", "object": "Jenkins"}),             // 5
	)
	f.Project(t, space)
	s := f.salience(t, space, fact)
	require.NotNil(t, s, "feedback citing the asserting event reaches its fact")
	require.Equal(t, 2, s.Helpful, "an event naming the fact both ways counts it once")
	require.Equal(t, 2, f.salience(t, space, "ev:1").Helpful, "and the event item keeps its own")

	var status, review string
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT status, review_status FROM facts WHERE fact_id = $1 AND space_key = (SELECT space_key FROM spaces WHERE space_id = $2)`, factID, space).
		Scan(&status, &review))
	require.Equal(t, "current", status, "endorsed by the feedback on its event, it is not superseded")
	require.Equal(t, "conflicted", review)

	// Taking one feedback back ends the endorsement: the next statement supersedes.
	f.Append(t, space,
		ev("memory.invalidated", "", map[string]any{"target_seq": 4, "reason": "misjudged"}),                        // 6
		ev("fact.asserted", "", map[string]any{"subject": "deploy", "predicate": "runs on", "object": "Buildkite"}), // 7
	)
	f.Project(t, space)
	require.Equal(t, 1, f.salience(t, space, fact).Helpful)
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT status FROM facts WHERE fact_id = $1 AND space_key = (SELECT space_key FROM spaces WHERE space_id = $2)`, factID, space).Scan(&status))
	require.Equal(t, "superseded", status)

	rebuildsEqual(t, f, space, 1000, 1, 2)
}
