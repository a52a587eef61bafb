package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/placement"
)

// clusterChecks are zaxy doctor's checks of ZAXY_CLUSTERS (none without it): each cluster
// other than home (the one the rest of the report is about) reachable at this binary's schema,
// the spaces the directory places on each, and the moves that wait: one not flipped (the space
// is frozen: its appends answer 503 until the move is run again or abandoned) and one not
// finished (a read-only copy left behind).
func clusterChecks(ctx context.Context, cfg *config, home *pgxpool.Pool) []doctor.Check {
	if len(cfg.clusters) == 0 || home == nil {
		return nil
	}
	var out []doctor.Check
	dir := placement.NewDirectory(home, cfg.clusters)
	counts, err := dir.Counts(ctx)
	if err != nil {
		return []doctor.Check{{Name: "clusters", Status: doctor.StatusFail, Message: err.Error(), Remedy: "zaxy migrate (with ZAXY_CLUSTERS) creates the directory"}}
	}
	homeName := placement.Home(cfg.clusters, cfg.databaseURL).Name
	for _, cl := range cfg.clusters {
		name := "cluster " + cl.Name
		msg := fmt.Sprintf("%d spaces placed, weight %g", counts[cl.Name], cl.Weight)
		if cl.Name == homeName {
			out = append(out, doctor.Check{Name: name, Status: doctor.StatusOK, Message: msg + "; home: the directory and the tokens"})
			continue
		}
		pool, err := newPoolSized(ctx, cl.URL, 2, "zaxy-doctor")
		if err == nil {
			err = migrations.Check(ctx, pool)
			pool.Close()
		}
		if err != nil {
			out = append(out, doctor.Check{Name: name, Status: doctor.StatusFail, Message: err.Error(),
				Remedy: "check its URL in ZAXY_CLUSTERS and run zaxy migrate"})
			continue
		}
		out = append(out, doctor.Check{Name: name, Status: doctor.StatusOK, Message: msg})
	}
	moving, unfinished, err := dir.Pending(ctx)
	ids := func(ps []placement.Placement) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.SpaceID
		}
		return out
	}
	switch {
	case err != nil:
		out = append(out, doctor.Check{Name: "moves", Status: doctor.StatusFail, Message: err.Error()})
	case len(moving) > 0:
		out = append(out, doctor.Check{Name: "moves", Status: doctor.StatusWarn,
			Message: fmt.Sprintf("moves not flipped (appends may answer 503 space_moving): %v; not finished: %v", ids(moving), ids(unfinished)),
			Remedy:  "run zaxy space move --space S --to NAME again, or --abandon it"})
	case len(unfinished) > 0:
		out = append(out, doctor.Check{Name: "moves", Status: doctor.StatusWarn,
			Message: fmt.Sprintf("read-only copies left by moves: %v", ids(unfinished)), Remedy: "zaxy space move --finish --space S drops one"})
	}
	return out
}
