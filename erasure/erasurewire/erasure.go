package erasurewire

import (
	"time"

	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// Result reports one erasure.
type Result struct {
	eventloomwire.Erasure
	// InferencesDeleted counts the model inferences read from the event that were deleted.
	InferencesDeleted int64 `json:"inferences_deleted"`
	// DerivedErased are the erasures of the proposals interference detection derived from the
	// event (a proposal.created whose data.inference names it repeats what the model read).
	DerivedErased []eventloomwire.Erasure `json:"derived_erased,omitempty"`
	// LatentModelDropped is true when the space's latent model was dropped (the topic_space
	// job builds a new one from the purged text).
	LatentModelDropped bool `json:"latent_model_dropped"`
	// PurgeSeq is the seq of the last erasure record written: the space's projections hold
	// nothing of the erased events once its projection has reached it (projected_seq in the
	// projection status), which is when the projector rebuilds them from the log.
	PurgeSeq int64 `json:"purge_seq"`
	// ProjectionsPurged is true when the projections were purged before Erase returned (no
	// worker held the space); otherwise the worker holding it purges them when it reaches
	// PurgeSeq, and the projection job the erasure enqueued does if none does.
	ProjectionsPurged bool `json:"projections_purged"`
	// Duration is the whole operation's wall time.
	Duration time.Duration `json:"duration_ns"`
}
