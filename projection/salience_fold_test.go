package projection_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
)

// recountSalience is the salience of every item of a space recounted from its whole ledger:
// the reference the projector's per-batch fold (salience_upsert.sql) must equal.
const recountSalience = `
SELECT r.item_id,
       (count(*) FILTER (WHERE r.signal = 'surfaced'))::int, (count(*) FILTER (WHERE r.signal = 'helpful'))::int,
       (count(*) FILTER (WHERE r.signal = 'unhelpful'))::int, (count(*) FILTER (WHERE r.signal = 'wrong'))::int,
       (count(*) FILTER (WHERE r.signal = 'outdated'))::int, (count(*) FILTER (WHERE r.signal = 'invalidated'))::int,
       (count(*) FILTER (WHERE r.signal = 'repeated'))::int,
       coalesce((array_agg(r.signal = 'pinned' ORDER BY r.seq DESC) FILTER (WHERE r.signal IN ('pinned', 'unpinned')))[1], false),
       (array_agg(r.seq ORDER BY r.occurred_at DESC, r.seq DESC, r.signal DESC)
          FILTER (WHERE r.signal IN ('recalled', 'helpful', 'pinned', 'repeated')))[1],
       (array_agg(r.signal ORDER BY r.occurred_at DESC, r.seq DESC, r.signal DESC)
          FILTER (WHERE r.signal IN ('recalled', 'helpful', 'pinned', 'repeated')))[1]
FROM reinforcements r WHERE r.space_id = $1
GROUP BY r.item_id ORDER BY r.item_id`

const projectedSalience = `
SELECT item_id, surfaced, helpful, unhelpful, wrong, outdated, invalidated, repeated, pinned, last_use_seq, last_use_signal
FROM salience WHERE space_id = $1 ORDER BY item_id`

type salienceLine struct {
	item                                                           string
	surfaced, helpful, unhelpful, wrong, outdated, invalid, repeat int
	pinned                                                         bool
	lastSeq                                                        *int64
	lastSignal                                                     *string
}

func (f *bundle) salienceLines(t *testing.T, query, space string) []salienceLine {
	t.Helper()
	rows, err := f.DB.Query(context.Background(), query, space)
	require.NoError(t, err)
	defer rows.Close()
	var out []salienceLine
	for rows.Next() {
		var l salienceLine
		require.NoError(t, rows.Scan(&l.item, &l.surfaced, &l.helpful, &l.unhelpful, &l.wrong, &l.outdated, &l.invalid, &l.repeat,
			&l.pinned, &l.lastSeq, &l.lastSignal))
		out = append(out, l)
	}
	require.NoError(t, rows.Err())
	return out
}

// The projector folds each batch's reinforcements into the salience rows instead of
// recounting each item's ledger. Over many batches of surfacings, feedback of every kind, pins
// and unpins, with uses recorded out of time order (backdated occurred_at), the folded rows
// equal a recount of the whole ledger, and a rebuild in one batch gives the same rows again.
func TestSalience_FoldingBatchesEqualsRecountingTheLedger(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 3})
	ctx := context.Background()
	space := "fold"
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	f.Append(t, space,
		withTime(ev("message", "the audit topic keeps seven days", map[string]any{"role": "user"}), t0),
		withTime(ev("message", "consumers run in eu-west", map[string]any{"role": "user"}), t0),
		withTime(ev("message", "the deploy window is Tuesday", map[string]any{"role": "user"}), t0),
	)
	rng := rand.New(rand.NewPCG(3, 5))
	signals := []string{"helpful", "unhelpful", "wrong", "outdated"}
	for range 12 {
		var batch []eventloom.NewEvent
		for range 1 + rng.IntN(5) {
			when := t0.Add(time.Duration(rng.IntN(20*24)) * time.Hour) // uses arrive out of time order
			targets := []int{1 + rng.IntN(3), 1 + rng.IntN(3)}
			var e eventloom.NewEvent
			switch k := rng.IntN(4); k {
			case 0:
				e = ev("checkout.surfaced", "", map[string]any{"items": []map[string]any{
					{"item_id": "ev:1", "tier": "query", "seqs": []int{1}}, {"item_id": "ev:3", "tier": "session", "seqs": []int{3}}}})
			case 1:
				e = ev("feedback.recorded", "", map[string]any{"target_seqs": targets, "signal": signals[rng.IntN(len(signals))]})
			case 2:
				e = ev("memory.pinned", "", map[string]any{"target_seqs": targets})
			default:
				e = ev("memory.unpinned", "", map[string]any{"target_seqs": targets[:1]})
			}
			batch = append(batch, withTime(e, when))
		}
		f.Append(t, space, batch...)
		if rng.IntN(2) == 0 {
			f.Project(t, space) // some appends are projected alone, others together
		}
	}
	f.Project(t, space)

	folded := f.salienceLines(t, projectedSalience, space)
	require.Len(t, folded, 3, "every message was reinforced")
	require.Equal(t, f.salienceLines(t, recountSalience, space), folded)
	var pins, uses int
	for _, l := range folded {
		if l.pinned {
			pins++
		}
		if l.lastSeq != nil {
			uses++
		}
	}
	require.Positive(t, pins+uses, "the script exercised pins and uses")

	before, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	whole, err := projection.New(ctx, f.DB, projection.Config{BatchSize: 1000})
	require.NoError(t, err)
	_, err = whole.Rebuild(ctx, space)
	require.NoError(t, err)
	require.Equal(t, folded, f.salienceLines(t, projectedSalience, space), "one batch folds to the same rows as many")
	after, err := whole.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, before, after)
}
