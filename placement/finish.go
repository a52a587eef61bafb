package placement

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/placement/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
)

// FinishResult says what Finish dropped.
type FinishResult struct {
	SpaceID string `json:"space_id"`
	// Cluster is the cluster the dropped copy was on; Events how many events it held.
	Cluster string `json:"cluster"`
	Events  int64  `json:"events"`
}

// Finish drops the read-only copy a move of space left on the cluster it moved from: its log,
// its projections, its AGE graph (zaxy_space_drop, in one transaction, run again on a fresh
// session if AGE 1.5 fails it with a corrupted label cache), and forgets it in the directory.
func (m *Mover) Finish(ctx context.Context, space string) (*FinishResult, error) {
	p, ok, err := m.Directory.Lookup(ctx, space)
	if err != nil {
		return nil, err
	}
	if !ok || p.MovedFrom == "" {
		return nil, validation.Errorf("space", "space %q has no copy left by a move to drop", space)
	}
	src, err := m.site("space", p.MovedFrom)
	if err != nil {
		return nil, err
	}
	res := &FinishResult{SpaceID: space, Cluster: src.Name}
	err = graph.WithLabelCacheRetry(ctx, src.DB, func(tx pgx.Tx) error {
		res.Events, err = queries.SpaceDrop(ctx, tx, space)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("drop the copy of %q on %s: %w", space, src.Name, err)
	}
	if _, err := queries.PlacementFinish(ctx, m.Directory.db, dbsqlc.PlacementFinishParams{SpaceID: space, Source: &src.Name}); err != nil {
		return nil, fmt.Errorf("forget the copy of %q on %s: %w", space, src.Name, err)
	}
	m.log(ctx, "moved space's old copy dropped", "space_id", space, "cluster", src.Name, "events", res.Events)
	return res, nil
}

// Abandon gives up a move of space that has not flipped: it drops whatever the move copied to
// its target, lifts the freeze on the source (appends resume there) and clears the directory's
// target.
func (m *Mover) Abandon(ctx context.Context, space string) error {
	p, ok, err := m.Directory.Lookup(ctx, space)
	if err != nil {
		return err
	}
	if !ok || p.MovingTo == "" {
		return validation.Errorf("space", "space %q is not being moved", space)
	}
	src, err := m.site("space", p.Cluster)
	if err != nil {
		return err
	}
	dst, err := m.site("to", p.MovingTo)
	if err != nil {
		return err
	}
	if err := dropCopy(ctx, dst, space, src.Name); err != nil {
		return err
	}
	if err := queries.SpaceUnfreeze(ctx, src.DB, space); err != nil {
		return fmt.Errorf("unfreeze %q on %s: %w", space, src.Name, err)
	}
	if _, err := queries.PlacementAbandon(ctx, m.Directory.db, space); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("abandon the move of %q: %w", space, err)
	}
	m.log(ctx, "move abandoned", "space_id", space, "cluster", src.Name, "target", dst.Name)
	return nil
}

// dropCopy drops the copy a move made of space on s (from the cluster called from), if any:
// frozen and marked moved there in one transaction, it is dropped as a finished move's source
// copy is (graph.WithLabelCacheRetry).
func dropCopy(ctx context.Context, s Site, space, from string) error {
	err := graph.WithLabelCacheRetry(ctx, s.DB, func(tx pgx.Tx) error {
		exists, err := eventloom.NewStore(tx, nil, nil).SpaceExists(ctx, space)
		if err != nil || !exists {
			return err
		}
		if _, err := queries.SpaceFreeze(ctx, tx, dbsqlc.SpaceFreezeParams{SpaceID: space, Target: from}); err != nil {
			return err
		}
		if err := queries.SpaceMoved(ctx, tx, space); err != nil {
			return err
		}
		_, err = queries.SpaceDrop(ctx, tx, space)
		return err
	})
	if err != nil {
		return fmt.Errorf("drop the copy of %q on %s: %w", space, s.Name, err)
	}
	return nil
}

func beginMoveParams(space, cluster, target string) dbsqlc.PlacementBeginMoveParams {
	return dbsqlc.PlacementBeginMoveParams{SpaceID: space, Cluster: cluster, Target: &target}
}

func flipParams(space, target string) dbsqlc.PlacementFlipParams {
	return dbsqlc.PlacementFlipParams{SpaceID: space, Target: &target}
}
