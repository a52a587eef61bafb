package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/projection"
)

// SalienceDecayArgs asks for a space's decayed salience to be materialised as of the job's
// run (projection.DecaySalience). The sweep enqueues it for every space whose memory is in use
// once its last run is older than projection.DecayInterval: a periodic job, one per space.
type SalienceDecayArgs struct {
	// SpaceID is the space to decay.
	SpaceID string `json:"space_id"`
}

// Kind is River's name for the job.
func (SalienceDecayArgs) Kind() string { return "salience_decay" }

// InsertOpts makes the job unique per space while one is waiting or running, as embed_space.
func (SalienceDecayArgs) InsertOpts() river.InsertOpts { return EmbedSpaceArgs{}.InsertOpts() }

// SalienceDecayWorker materialises a space's decayed salience.
type SalienceDecayWorker struct {
	river.WorkerDefaults[SalienceDecayArgs]
	db     pgexec.Executor
	logger *slog.Logger
}

// Work handles one job.
func (w *SalienceDecayWorker) Work(ctx context.Context, job *river.Job[SalienceDecayArgs]) error {
	res, err := projection.DecaySalience(ctx, w.db, job.Args.SpaceID, time.Now())
	if err != nil {
		return err
	}
	w.logger.DebugContext(ctx, "decayed salience", "space_id", res.SpaceID, "items", res.Items, "attenuated", res.Attenuated,
		"newly_attenuated", res.NewlyAttenuated, "restored", res.Restored)
	return nil
}
