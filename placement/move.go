package placement

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/placement/internal/dbsqlc"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/spacelog"
	"github.com/zaxy/zaxy/validation"
)

// Site is what a move uses of one cluster: a connection as the schema owner (freezing, importing
// and dropping are not granted to the application role), its projector and latent builder, and
// the outbox that enqueues a space's jobs there.
type Site struct {
	Name      string
	DB        *pgxpool.Pool
	Projector *projection.Projector
	// Latent builds the space's latent artifacts (part of the projections' checksum); nil when
	// the latent layer is not built here.
	Latent *latent.Builder
	// Outbox enqueues the imported space's projection and follow-up jobs on the cluster's River.
	Outbox eventloom.Outbox
}

// Mover moves spaces between the clusters of Sites (every cluster the directory places on).
type Mover struct {
	Directory *Directory
	Sites     map[string]Site
	Logger    *slog.Logger
	// Poll is how often a move asks again while another worker projects the source (100 ms
	// when zero).
	Poll time.Duration
}

// MoveResult says what a move did.
type MoveResult struct {
	SpaceID string `json:"space_id"`
	From    string `json:"from"`
	To      string `json:"to"`
	// Events, HeadSeq and HeadHash are the log as copied (the source's at its freeze).
	Events   int64          `json:"events"`
	HeadSeq  int64          `json:"head_seq"`
	HeadHash eventloom.Hash `json:"head_hash"`
	// Checksum is the projections' digest, equal on both clusters.
	Checksum string `json:"checksum"`
	// Resumed says the log was on the target already (a move run again after a failure).
	Resumed bool `json:"resumed,omitempty"`
	// Paused is how long appends were refused (freeze to flip); Took the whole move.
	Paused time.Duration `json:"paused_ns"`
	Took   time.Duration `json:"took_ns"`
	// Steps is how long each step took: precopy (the log copied and projected while appends go
	// on), then, appends paused: freeze (waiting for the appends in flight), catch_up (the
	// source's projections to its head), copy (the events appended since the precopy, and
	// verify), rebuild (the target's projections to the same head, its latent artifacts and
	// the checksums) and flip.
	Steps map[string]time.Duration `json:"steps_ns"`
}

// step records how long the step that began at start took.
func (r *MoveResult) step(name string, start time.Time) time.Time {
	now := time.Now()
	r.Steps[name] = now.Sub(start)
	return now
}

// ErrChecksumMismatch means the projections rebuilt on the target differ from the source's: the
// move stopped before its flip, with the source still frozen.
var ErrChecksumMismatch = errors.New("the projections rebuilt on the target differ from the source's")

// Move moves space to cluster to. While appends go on, it copies the log as it stands (spacelog
// export into import, which verifies every hash on the target) and projects it there. Then it
// freezes the space on its cluster (appends answer 503 with Retry-After from then on; the
// appends in flight finish first), brings the source's projections up to its head, copies the
// events appended since the first copy (spacelog.CopyTail; the whole log again when an erasure
// was recorded meanwhile), verifies the chain on the target, brings the target's projections up
// to the same head with its latent artifacts (built again in one pass if the checksums differ)
// and compares the projections' checksum with the source's, then flips the directory: from the flip on every instance serves the space
// from the target, and appends resume there. Appends pause only for the second part. The
// source copy stays frozen and read-only until Finish drops it. A move that fails before its
// flip leaves the directory naming the target (and the space frozen if it got that far):
// running it again resumes it, Abandon gives it up.
func (m *Mover) Move(ctx context.Context, space, to string) (*MoveResult, error) {
	began := time.Now()
	if err := eventloom.ValidateSpaceID(space); err != nil {
		return nil, err
	}
	dst, err := m.site("to", to)
	if err != nil {
		return nil, err
	}
	p, err := m.placed(ctx, space)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Cluster == to && p.MovedFrom != "":
		return nil, validation.Errorf("to", "space %q has moved to %q already; zaxy space move --finish --space %s drops the copy on %q", space, to, space, p.MovedFrom)
	case p.Cluster == to:
		return nil, validation.Errorf("to", "space %q lives on %q already", space, to)
	case p.MovedFrom != "":
		return nil, validation.Errorf("space", "space %q still has the copy its last move left on %q: zaxy space move --finish --space %s drops it first", space, p.MovedFrom, space)
	case p.MovingTo != "" && p.MovingTo != to:
		return nil, validation.Errorf("to", "space %q is being moved to %q: run that move again, or abandon it (--abandon)", space, p.MovingTo)
	}
	src, err := m.site("space", p.Cluster)
	if err != nil {
		return nil, err
	}
	res := &MoveResult{SpaceID: space, From: src.Name, To: dst.Name, Steps: map[string]time.Duration{}}
	if _, err := queries.PlacementBeginMove(ctx, m.Directory.db, beginMoveParams(space, src.Name, to)); err != nil {
		return nil, fmt.Errorf("begin move of %q: %w", space, err)
	}
	copied, err := m.precopy(ctx, src, dst, space, res)
	if err != nil {
		return nil, err
	}
	t := res.step("precopy", began)
	frozenAt := time.Now()
	head, err := queries.SpaceFreeze(ctx, src.DB, dbsqlc.SpaceFreezeParams{SpaceID: space, Target: to})
	if err != nil {
		return nil, fmt.Errorf("freeze %q on %s: %w", space, src.Name, err)
	}
	m.log(ctx, "space frozen on its cluster", "space_id", space, "cluster", src.Name, "head_seq", head, "copied_seq", copied)
	t = res.step("freeze", t)
	srcSum, err := m.checksum(ctx, src, space, head, false)
	if err != nil {
		return nil, err
	}
	t = res.step("catch_up", t)
	if err := m.copyRest(ctx, src, dst, space, copied, res); err != nil {
		return nil, err
	}
	t = res.step("copy", t)
	dstSum, err := m.checksum(ctx, dst, space, head, false)
	if err == nil && srcSum.Digest != dstSum.Digest {
		// The latent artifacts built on the first copy and brought forward may differ from
		// ones built in one pass: build them in one pass before giving up.
		m.log(ctx, "checksums differ: rebuilding the target's latent artifacts", "space_id", space, "to", dst.Name)
		dstSum, err = m.checksum(ctx, dst, space, head, true)
	}
	if err != nil {
		return nil, err
	}
	t = res.step("rebuild", t)
	if srcSum.Digest != dstSum.Digest {
		return nil, fmt.Errorf("move %q: %w: %+v on %s, %+v on %s", space, ErrChecksumMismatch, *srcSum, src.Name, *dstSum, dst.Name)
	}
	res.Checksum = dstSum.Digest
	if _, err := queries.PlacementFlip(ctx, m.Directory.db, flipParams(space, to)); err != nil {
		return nil, fmt.Errorf("flip %q to %s: %w", space, to, err)
	}
	res.step("flip", t)
	res.Paused = time.Since(frozenAt)
	if err := queries.SpaceMoved(ctx, src.DB, space); err != nil {
		return nil, fmt.Errorf("mark %q moved on %s (the directory has flipped; run the move again to mark it): %w", space, src.Name, err)
	}
	m.log(ctx, "space moved", "space_id", space, "from", src.Name, "to", dst.Name, "events", res.Events, "paused", res.Paused)
	res.Took = time.Since(began)
	return res, nil
}

// placed is space's placement; a space the directory does not know yet (it has been served by
// one cluster since before ZAXY_CLUSTERS) is placed where its log is.
func (m *Mover) placed(ctx context.Context, space string) (Placement, error) {
	p, ok, err := m.Directory.Lookup(ctx, space)
	if err != nil || ok {
		return p, err
	}
	var on []string
	for name, s := range m.Sites {
		exists, err := eventloom.NewStore(s.DB, nil, m.logger()).SpaceExists(ctx, space)
		if err != nil {
			return Placement{}, fmt.Errorf("find space %q on %s: %w", space, name, err)
		}
		if exists {
			on = append(on, name)
		}
	}
	switch len(on) {
	case 0:
		return Placement{}, validation.Errorf("space", "space %q has no events on any cluster: there is nothing to move", space)
	case 1:
		return m.Directory.Place(ctx, space, on[0], true)
	}
	return Placement{}, validation.Errorf("space", "space %q has events on several clusters (%v) and no placement: pin it first", space, on)
}

// precopy copies space's log from src to dst as it stands, unless dst holds a copy already (a
// move run again), projects it there and builds its latent artifacts; it returns the seq the
// copy ends at.
func (m *Mover) precopy(ctx context.Context, src, dst Site, space string, res *MoveResult) (int64, error) {
	head, err := chainHead(ctx, dst, space)
	if err != nil {
		return 0, err
	}
	if head > 0 {
		res.Resumed = true
	} else {
		sum, err := m.copyWhole(ctx, src, dst, space)
		if err != nil {
			return 0, err
		}
		head = sum.HeadSeq
	}
	if err := m.projectTo(ctx, dst, space, head); err != nil {
		return 0, err
	}
	if dst.Latent != nil {
		if _, err := dst.Latent.Rebuild(ctx, space); err != nil {
			return 0, fmt.Errorf("build latent artifacts of %q on %s: %w", space, dst.Name, err)
		}
	}
	m.log(ctx, "log copied while appends go on", "space_id", space, "to", dst.Name, "head_seq", head, "resumed", res.Resumed)
	return head, nil
}

// copyRest brings dst's copy of space, which ends at seq copied, up to src's frozen head and
// verifies the chain there: the events after copied, or, when the log changed before copied
// (an erasure) or the copy is not a prefix of the source's, the whole log again.
func (m *Mover) copyRest(ctx context.Context, src, dst Site, space string, copied int64, res *MoveResult) error {
	sum, err := spacelog.CopyTail(ctx, src.DB, dst.DB, spacelog.TailParams{Space: space, After: copied, Outbox: dst.Outbox})
	if errors.Is(err, spacelog.ErrTailNotCopyable) || errors.Is(err, spacelog.ErrNotContinued) {
		m.log(ctx, "copying the whole log again", "space_id", space, "to", dst.Name, "why", err.Error())
		if err := dropCopy(ctx, dst, space, src.Name); err != nil {
			return err
		}
		sum, err = m.copyWhole(ctx, src, dst, space)
	}
	if err != nil {
		return fmt.Errorf("copy the log of %q from %s to %s: %w", space, src.Name, dst.Name, err)
	}
	res.HeadSeq, res.HeadHash = sum.HeadSeq, sum.HeadHash
	v, err := eventloom.NewStore(dst.DB, nil, m.logger()).Verify(ctx, space)
	if err != nil {
		return fmt.Errorf("verify %q on %s: %w", space, dst.Name, err)
	}
	if !v.OK || v.HeadSeq != sum.HeadSeq || !bytes.Equal(v.HeadHash, sum.HeadHash) {
		return fmt.Errorf("verify %q on %s: the copy ends at seq %d (ok=%v, broken at %d: %s), the source at seq %d: the move stopped before its flip",
			space, dst.Name, v.HeadSeq, v.OK, v.BrokenSeq, v.Reason, sum.HeadSeq)
	}
	res.Events = v.Events
	m.log(ctx, "log copied and verified", "space_id", space, "to", dst.Name, "events", v.Events)
	return nil
}

// copyWhole streams space's export from src into an import on dst.
func (m *Mover) copyWhole(ctx context.Context, src, dst Site, space string) (*spacelog.Summary, error) {
	pr, pw := io.Pipe()
	go func() {
		_, err := spacelog.Export(ctx, src.DB, pw, space)
		pw.CloseWithError(err)
	}()
	sum, err := spacelog.Import(ctx, dst.DB, pr, spacelog.ImportParams{Space: space, Outbox: dst.Outbox})
	pr.CloseWithError(errors.New("import stopped reading"))
	if err != nil {
		return nil, fmt.Errorf("copy the log of %q from %s to %s: %w", space, src.Name, dst.Name, err)
	}
	return sum, nil
}

// projectTo brings space's projections on s up to head, projecting what the workers have not
// yet and waiting while one of them holds the space.
func (m *Mover) projectTo(ctx context.Context, s Site, space string, head int64) error {
	poll := m.Poll
	if poll == 0 {
		poll = 100 * time.Millisecond
	}
	for {
		st, err := projection.Lag(ctx, s.DB, space)
		if err != nil {
			return err
		}
		if len(st) == 1 && st[0].ProjectedSeq >= head {
			return nil
		}
		if _, err := s.Projector.ProjectSpace(ctx, space); err != nil && !errors.Is(err, projection.ErrBusy) {
			return fmt.Errorf("project %q on %s: %w", space, s.Name, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// checksum brings space's projections on s up to head, builds its latent artifacts (rebuilds
// them, when rebuild says so: the target's are built from the log at once, as a rebuild would)
// and returns the projections' checksum.
func (m *Mover) checksum(ctx context.Context, s Site, space string, head int64, rebuild bool) (*projection.Checksum, error) {
	if err := m.projectTo(ctx, s, space, head); err != nil {
		return nil, err
	}
	if s.Latent != nil {
		build := s.Latent.Build
		if rebuild {
			build = s.Latent.Rebuild
		}
		if _, err := build(ctx, space); err != nil {
			return nil, fmt.Errorf("build latent artifacts of %q on %s: %w", space, s.Name, err)
		}
	}
	return s.Projector.Checksum(ctx, space)
}

// chainHead is space's chain head on s; 0 when it has no events there.
func chainHead(ctx context.Context, s Site, space string) (int64, error) {
	head, err := queries.SpaceHead(ctx, s.DB, space)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the chain head of %q on %s: %w", space, s.Name, err)
	}
	return head, nil
}

func (m *Mover) site(field, name string) (Site, error) {
	if s, ok := m.Sites[name]; ok {
		return s, nil
	}
	_, err := Named(m.Directory.clusters, name)
	if err == nil {
		err = validation.Errorf(field, "cluster %q is configured but not open", name)
	}
	return Site{}, err
}

func (m *Mover) logger() *slog.Logger {
	if m.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return m.Logger
}

func (m *Mover) log(ctx context.Context, msg string, args ...any) {
	m.logger().InfoContext(ctx, msg, args...)
}
