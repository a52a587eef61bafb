package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/placement"
	"github.com/zaxy/zaxy/projection"
)

// MoveOptions configures Move.
type MoveOptions struct {
	// Events are the sizes of the spaces moved, one move each.
	Events []int
	// TargetURL is the admin URL of the cluster the spaces move to (its scratch databases are
	// created there); "" moves them to a second database of the source's cluster.
	TargetURL string
	// OpenPool opens a pool; required.
	OpenPool func(ctx context.Context, url string) (*pgxpool.Pool, error)
	Logger   *slog.Logger
}

// MoveReport is what Move measured.
type MoveReport struct {
	Moves       []MoveRun `json:"moves"`
	LoadAverage string    `json:"load_average"`
}

// MoveRun is one space's move.
type MoveRun struct {
	Events int `json:"events"`
	// PausedSeconds is how long appends were refused; Steps how long each step took, in
	// seconds; FinishSeconds how long --finish took to drop the source copy.
	PausedSeconds float64            `json:"paused_seconds"`
	TookSeconds   float64            `json:"took_seconds"`
	Steps         map[string]float64 `json:"steps_seconds"`
	FinishSeconds float64            `json:"finish_seconds"`
	// LoadSeconds is how long appending and projecting the space took before the move.
	LoadSeconds float64 `json:"load_seconds"`
}

// Move measures zaxy space move: for each size, it appends a space of that many events (chat
// messages between two named people, facts and tasks) to a scratch database beside dbURL,
// projects it and builds its latent artifacts as the workers would, moves it to a scratch
// database on o.TargetURL's cluster (or beside dbURL) with placement.Mover — freeze, catch up,
// copy and verify, rebuild and compare, flip — and drops the source copy (Finish). Every
// scratch database is dropped.
func Move(ctx context.Context, dbURL string, o MoveOptions) (*MoveReport, error) {
	if o.OpenPool == nil {
		return nil, errors.New("MoveOptions.OpenPool is required")
	}
	if o.TargetURL == "" {
		o.TargetURL = dbURL
	}
	rep := &MoveReport{}
	for _, n := range o.Events {
		run, err := moveOnce(ctx, dbURL, n, o)
		if err != nil {
			return nil, fmt.Errorf("move a space of %d events: %w", n, err)
		}
		rep.Moves = append(rep.Moves, *run)
	}
	rep.LoadAverage = loadAverage()
	return rep, nil
}

func moveOnce(ctx context.Context, dbURL string, n int, o MoveOptions) (*MoveRun, error) {
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	sites := map[string]placement.Site{}
	var clusters []placement.Cluster
	for _, c := range []struct{ name, admin string }{{placement.HomeName, dbURL}, {"target", o.TargetURL}} {
		u, drop, err := scratchDatabase(ctx, c.admin)
		if err != nil {
			return nil, err
		}
		defer drop()
		pool, err := o.OpenPool(ctx, u)
		if err != nil {
			return nil, err
		}
		defer pool.Close()
		proj, err := projection.New(ctx, pool, projection.Config{Logger: logger})
		if err != nil {
			return nil, err
		}
		builder, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, logger), latent.Config{Logger: logger})
		if err != nil {
			return nil, err
		}
		client, err := jobs.NewInsertOnlyClient(pool, logger)
		if err != nil {
			return nil, err
		}
		sites[c.name] = placement.Site{Name: c.name, DB: pool, Projector: proj, Latent: builder, Outbox: jobs.NewOutbox(client)}
		clusters = append(clusters, placement.Cluster{Name: c.name, URL: u, Weight: 1})
	}
	const space = "bench-move"
	src := sites[placement.HomeName]
	t0 := time.Now()
	store := eventloom.NewStore(src.DB, nil, logger)
	for done := 0; done < n; done += 500 {
		events := make([]eventloom.NewEvent, 0, 500)
		for i := done; i < min(done+500, n); i++ {
			events = append(events, moveEvent(i))
		}
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: events}); err != nil {
			return nil, err
		}
	}
	for {
		res, err := src.Projector.ProjectSpace(ctx, space)
		if err != nil {
			return nil, err
		}
		if res.Applied == 0 {
			break
		}
	}
	if _, err := src.Latent.Build(ctx, space); err != nil {
		return nil, err
	}
	run := &MoveRun{Events: n, LoadSeconds: time.Since(t0).Seconds(), Steps: map[string]float64{}}
	m := &placement.Mover{Directory: placement.NewDirectory(src.DB, clusters), Sites: sites, Logger: logger}
	res, err := m.Move(ctx, space, "target")
	if err != nil {
		return nil, err
	}
	run.PausedSeconds, run.TookSeconds = res.Paused.Seconds(), res.Took.Seconds()
	for k, d := range res.Steps {
		run.Steps[k] = d.Seconds()
	}
	t0 = time.Now()
	if _, err := m.Finish(ctx, space); err != nil {
		return nil, err
	}
	run.FinishSeconds = time.Since(t0).Seconds()
	return run, nil
}

// moveEvent is the i-th event of the moved space: mostly chat between two named people, with
// facts and task updates among them.
func moveEvent(i int) eventloom.NewEvent {
	switch i % 10 {
	case 0:
		return eventloom.NewEvent{Type: "fact.asserted", Data: json.RawMessage(fmt.Sprintf(`{"subject":"service %d","predicate":"owner","object":"team %d"}`, i%60, i%9))}
	case 1:
		return eventloom.NewEvent{Type: "task.updated", Data: json.RawMessage(fmt.Sprintf(`{"task_id":"T%d","status":"%s"}`, i%40, []string{"open", "done"}[i%2]))}
	}
	speaker := []string{"Maya Lin", "Tom Reyes"}[i%2]
	return eventloom.NewEvent{Type: "message", Actor: "user", SessionID: fmt.Sprintf("s%d", i/200),
		Content: fmt.Sprintf("%s: the deploy of service %d moved to region %d after the outage on day %d; see docs/runbook-%d.md",
			speaker, i%60, i%5, i%30, i%12), Data: json.RawMessage(`{"role":"user","name":"` + speaker + `"}`)}
}

// WriteText writes the report for people.
func (rep *MoveReport) WriteText(w io.Writer) {
	for _, r := range rep.Moves {
		fmt.Fprintf(w, "move a space of %d events: %.1fs in all; copied and projected while appends go on %.1fs; appends paused %.2fs (freeze %.3fs, catch-up %.2fs, copy+verify %.2fs, rebuild+compare %.2fs, flip %.3fs); --finish %.2fs\n",
			r.Events, r.TookSeconds, r.Steps["precopy"], r.PausedSeconds, r.Steps["freeze"], r.Steps["catch_up"], r.Steps["copy"], r.Steps["rebuild"], r.Steps["flip"], r.FinishSeconds)
	}
	fmt.Fprintf(w, "load average %s\n", rep.LoadAverage)
}
