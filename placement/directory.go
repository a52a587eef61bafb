package placement

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/placement/internal/dbsqlc"
)

// queries are the package's typed queries (sql/placement): the directory's, on the home
// cluster, and a move's, on each cluster.
var queries = dbsqlc.New()

// Placement is where one space lives.
type Placement struct {
	SpaceID string `json:"space_id"`
	// Cluster is the cluster that serves the space.
	Cluster string `json:"cluster"`
	// Pinned says an operator or a move placed it, not the rule.
	Pinned bool `json:"pinned"`
	// MovingTo names the target of a move not yet flipped; MovedFrom the cluster a finished
	// move left a read-only copy on, until zaxy space move --finish drops it.
	MovingTo  string     `json:"moving_to,omitempty"`
	MovedFrom string     `json:"moved_from,omitempty"`
	PlacedAt  time.Time  `json:"placed_at"`
	MovedAt   *time.Time `json:"moved_at,omitempty"`
}

// Directory is the placement directory on the home cluster (table space_placements), read on
// every request that names a space: nothing of it is cached, so a move's flip is seen by every
// instance at once.
type Directory struct {
	db       pgexec.Executor
	clusters []Cluster
}

// NewDirectory is the directory in db (the home cluster) over clusters.
func NewDirectory(db pgexec.Executor, clusters []Cluster) *Directory {
	return &Directory{db: db, clusters: clusters}
}

// Clusters are the clusters the directory places spaces on.
func (d *Directory) Clusters() []Cluster { return d.clusters }

// Lookup is the placement of space, and whether it has one.
func (d *Directory) Lookup(ctx context.Context, space string) (Placement, bool, error) {
	r, err := queries.PlacementGet(ctx, d.db, space)
	if errors.Is(err, pgx.ErrNoRows) {
		return Placement{}, false, nil
	}
	if err != nil {
		return Placement{}, false, fmt.Errorf("look up placement of %q: %w", space, err)
	}
	return placementOf(r), true, nil
}

// Resolve is the cluster that serves space: its placement, or, for a space placed nowhere yet,
// the Rule's choice recorded as its placement (the first placement of a space wins, so
// instances racing to place it agree).
func (d *Directory) Resolve(ctx context.Context, space string) (string, error) {
	p, ok, err := d.Lookup(ctx, space)
	if err != nil || ok {
		return p.Cluster, err
	}
	if err := queries.PlacementInsert(ctx, d.db, dbsqlc.PlacementInsertParams{SpaceID: space, Cluster: Rule(space, d.clusters)}); err != nil {
		return "", fmt.Errorf("place %q: %w", space, err)
	}
	p, ok, err = d.Lookup(ctx, space)
	if err == nil && !ok {
		err = fmt.Errorf("place %q: the placement vanished", space)
	}
	return p.Cluster, err
}

// Place records that space lives on cluster (pinned says an operator chose it) unless it is
// placed already, and returns its placement.
func (d *Directory) Place(ctx context.Context, space, cluster string, pinned bool) (Placement, error) {
	if _, err := Named(d.clusters, cluster); err != nil {
		return Placement{}, err
	}
	if err := queries.PlacementInsert(ctx, d.db, dbsqlc.PlacementInsertParams{SpaceID: space, Cluster: cluster, Pinned: pinned}); err != nil {
		return Placement{}, fmt.Errorf("place %q: %w", space, err)
	}
	p, _, err := d.Lookup(ctx, space)
	return p, err
}

// Placed is the cluster of each of spaces that has a placement.
func (d *Directory) Placed(ctx context.Context, spaces []string) (map[string]string, error) {
	rows, err := queries.PlacementList(ctx, d.db, spaces)
	if err != nil {
		return nil, fmt.Errorf("list placements: %w", err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.SpaceID] = r.Cluster
	}
	return out, nil
}

// Counts is how many spaces the directory places on each cluster.
func (d *Directory) Counts(ctx context.Context) (map[string]int64, error) {
	rows, err := queries.PlacementCount(ctx, d.db)
	if err != nil {
		return nil, fmt.Errorf("count placements: %w", err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.Cluster] = r.Spaces
	}
	return out, nil
}

func placementOf(r dbsqlc.SpacePlacement) Placement {
	p := Placement{SpaceID: r.SpaceID, Cluster: r.Cluster, Pinned: r.Pinned, PlacedAt: r.PlacedAt, MovedAt: r.MovedAt}
	if r.MovingTo != nil {
		p.MovingTo = *r.MovingTo
	}
	if r.MovedFrom != nil {
		p.MovedFrom = *r.MovedFrom
	}
	return p
}

// Adopt pins to cluster every space that has events in db (that cluster's database) and no
// placement yet, and returns how many it pinned. zaxy serve adopts every cluster's spaces when
// it starts with ZAXY_CLUSTERS, so that a space from before (or imported by hand) is served
// where its log is, never where the rule would place a new one.
func (d *Directory) Adopt(ctx context.Context, cluster string, db pgexec.Executor) (int64, error) {
	spaces, err := queries.ClusterSpaces(ctx, db)
	if err != nil {
		return 0, fmt.Errorf("list the spaces of cluster %s: %w", cluster, err)
	}
	var n int64
	for start := 0; start < len(spaces); start += 10000 {
		k, err := queries.PlacementAdopt(ctx, d.db, dbsqlc.PlacementAdoptParams{Cluster: cluster, SpaceIds: spaces[start:min(start+10000, len(spaces))]})
		if err != nil {
			return n, fmt.Errorf("pin the spaces of cluster %s: %w", cluster, err)
		}
		n += k
	}
	return n, nil
}

// Pending are the spaces (at most 100) whose move has not flipped (its appends answer 503 until
// the move is run again or abandoned) and those whose move left a copy not yet dropped.
func (d *Directory) Pending(ctx context.Context) (moving, unfinished []Placement, err error) {
	rows, err := queries.PlacementPending(ctx, d.db)
	if err != nil {
		return nil, nil, fmt.Errorf("list pending moves: %w", err)
	}
	for _, r := range rows {
		p := Placement{SpaceID: r.SpaceID}
		if r.MovingTo != nil {
			p.MovingTo = *r.MovingTo
			moving = append(moving, p)
		}
		if r.MovedFrom != nil {
			p.MovedFrom = *r.MovedFrom
			unfinished = append(unfinished, p)
		}
	}
	return moving, unfinished, nil
}
