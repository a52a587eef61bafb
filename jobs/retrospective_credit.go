package jobs

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/zaxy/zaxy/retrospective"
)

// RetrospectiveCreditArgs asks for the outcomes of one session to be judged (package
// retrospective): credit and blame for what was checked out into the session, appended as
// feedback and proposals.
type RetrospectiveCreditArgs struct {
	// SpaceID is the outcomes' space.
	SpaceID string `json:"space_id" river:"unique"`
	// SessionID is the session the outcomes are about (outcome.recorded data.session_id).
	SessionID string `json:"session_id" river:"unique"`
	// FromSeq is the first outcome seq that asked for the job; the job reads outcomes from
	// there on. It is not part of the job's uniqueness.
	FromSeq int64 `json:"from_seq"`
}

// Kind is River's name for the job.
func (RetrospectiveCreditArgs) Kind() string { return "retrospective_credit" }

// InsertOpts makes the job unique per space and session while one is waiting or running (the
// fields tagged river:"unique"); a run that finds newer outcomes than it judged runs again.
func (RetrospectiveCreditArgs) InsertOpts() river.InsertOpts { return EmbedSpaceArgs{}.InsertOpts() }

// RetrospectiveCreditWorker judges a session's outcomes.
type RetrospectiveCreditWorker struct {
	river.WorkerDefaults[RetrospectiveCreditArgs]
	assigner *retrospective.Assigner
	logger   *slog.Logger
}

// Work handles one job.
func (w *RetrospectiveCreditWorker) Work(ctx context.Context, job *river.Job[RetrospectiveCreditArgs]) error {
	a := job.Args
	res, err := w.assigner.Credit(ctx, a.SpaceID, a.SessionID, a.FromSeq)
	if err != nil {
		return err
	}
	w.logger.DebugContext(ctx, "retrospective credit", "space_id", a.SpaceID, "session_id", a.SessionID,
		"outcomes", res.Outcomes, "appended", res.Appended)
	if res.Appended > 0 {
		// The feedback and proposals are events: project them now (their salience and review
		// rows) rather than at the next sweep.
		if _, err := river.ClientFromContext[pgx.Tx](ctx).Insert(ctx, ProjectSpaceArgs{SpaceID: a.SpaceID}, nil); err != nil {
			return err
		}
	}
	// An outcome projected while this job ran could not enqueue another (the job is unique
	// while running): judge it shortly rather than never.
	if res.LastSeq > 0 {
		newer, err := w.assigner.Newer(ctx, a.SpaceID, a.SessionID, res.LastSeq)
		if err != nil {
			return err
		}
		if newer {
			return river.JobSnooze(latentFollowUp)
		}
	}
	return nil
}

// retrospectiveFollowUps are the retrospective_credit jobs for the outcomes a projection run
// applied: the outcome.recorded events in seqs (after, upto].
func retrospectiveFollowUps(ctx context.Context, w *ProjectSpaceWorker, space string, after, upto int64) ([]river.InsertManyParams, error) {
	pending, err := retrospective.OutcomeSessions(ctx, w.db, space, after, upto)
	if err != nil {
		return nil, err
	}
	out := make([]river.InsertManyParams, len(pending))
	for i, p := range pending {
		out[i] = river.InsertManyParams{Args: RetrospectiveCreditArgs{SpaceID: space, SessionID: p.SessionID, FromSeq: p.FirstSeq}}
	}
	return out, nil
}
