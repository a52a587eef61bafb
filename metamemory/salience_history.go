package metamemory

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/metamemory/internal/dbsqlc"
	"github.com/zaxy/zaxy/metamemory/metamemorywire"
)

type (
	// SalienceHistory is one memory item's salience as it happened
	// (metamemorywire.SalienceHistory).
	SalienceHistory = metamemorywire.SalienceHistory
	// SalienceStep is an item's salience after one reinforcing event
	// (metamemorywire.SalienceStep).
	SalienceStep = metamemorywire.SalienceStep
)

// ItemSalienceHistory returns the salience history of memory item id of space: the latest
// metamemorywire.MaxSalienceSteps rows of its reinforcement ledger with the salience each left
// (the SQL functions checkout ranks with), and its salience now. It reads projections only
// (memory_items, reinforcements, salience, salience_spaces); an id that is no memory item of
// the space answers InMemory false and nothing else.
func ItemSalienceHistory(ctx context.Context, db pgexec.Executor, space, id string) (*SalienceHistory, error) {
	now, err := queries.SalienceOfItem(ctx, db, dbsqlc.SalienceOfItemParams{SpaceID: space, ItemID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return &SalienceHistory{ItemID: id, Steps: []SalienceStep{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read salience of %s: %w", id, err)
	}
	rows, err := queries.SalienceHistory(ctx, db, dbsqlc.SalienceHistoryParams{SpaceID: space, ItemID: id, MaxRows: metamemorywire.MaxSalienceSteps})
	if err != nil {
		return nil, fmt.Errorf("read salience history of %s: %w", id, err)
	}
	exempt := now.Authority == "asserted"
	at := now.OccurredAt.UTC()
	h := &SalienceHistory{ItemID: id, InMemory: true, OccurredAt: &at, Authority: now.Authority, Base: now.Base, Floor: now.Floor,
		HalfLifeDays: now.HalfLifeDays, Steps: make([]SalienceStep, 0, len(rows))}
	step := func(r, d float64, pinned bool) (float64, bool) {
		v := math.Round(now.Base*r*d*1e9) / 1e9
		if pinned || exempt {
			return max(v, now.Floor), false
		}
		return v, v < now.Floor
	}
	for _, r := range rows {
		v, att := step(r.Reinforcement, r.Decay, r.Pinned)
		h.Steps = append(h.Steps, SalienceStep{Seq: r.Seq, Signal: r.Signal, At: r.OccurredAt.UTC(), Reinforcement: r.Reinforcement,
			Decay: r.Decay, Value: v, Pinned: r.Pinned, LastUseAt: r.LastUseAt.UTC(), Attenuated: att})
		h.Total = r.Total
	}
	v, att := step(now.Reinforcement, now.Decay, now.Pinned)
	h.Now = SalienceStep{At: now.Now.UTC(), Reinforcement: now.Reinforcement, Decay: now.Decay, Value: v, Pinned: now.Pinned,
		LastUseAt: now.LastUseAt.UTC(), Attenuated: att}
	return h, nil
}
