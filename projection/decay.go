package projection

import (
	"context"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
)

// DecayInterval is how old a space's materialised salience may grow before the sweep asks
// the salience_decay job for a new run.
const DecayInterval = time.Hour

// DecayResult reports one materialisation of a space's decayed salience.
type DecayResult struct {
	// SpaceID is the space.
	SpaceID string `json:"space_id"`
	// AsOf is the time the salience was decayed to.
	AsOf time.Time `json:"as_of"`
	// Items counts the memory items materialised.
	Items int64 `json:"items"`
	// Attenuated counts those below the floor (and not exempt).
	Attenuated int64 `json:"attenuated"`
	// NewlyAttenuated and Restored count the items that crossed the floor since the last run,
	// downward and upward.
	NewlyAttenuated int64 `json:"newly_attenuated"`
	Restored        int64 `json:"restored"`
}

// DecaySalience materialises the salience of every memory item of space as of asOf into
// salience_decayed (docs/operations.md, the salience_decay job), in one statement. It is a
// time-dependent view of the projections, left out of the checksum; checkout computes the
// same values as of its own as_of and does not read it.
func DecaySalience(ctx context.Context, db Querier, space string, asOf time.Time) (*DecayResult, error) {
	r, err := queries.SalienceDecay(ctx, db, dbsqlc.SalienceDecayParams{SpaceID: space, AsOf: asOf.UTC()})
	if err != nil {
		return nil, fmt.Errorf("decay salience of %q: %w", space, err)
	}
	return &DecayResult{SpaceID: space, AsOf: asOf.UTC(), Items: r.Items, Attenuated: r.Attenuated,
		NewlyAttenuated: r.NewlyAttenuated, Restored: r.Restored}, nil
}

// DecayPendingSpaces returns up to limit spaces whose memory is in use and whose salience
// was last materialised more than DecayInterval before now (or never), in space order.
func DecayPendingSpaces(ctx context.Context, db Querier, now time.Time, limit int) ([]string, error) {
	spaces, err := queries.SalienceDecayPending(ctx, db, dbsqlc.SalienceDecayPendingParams{Before: now.Add(-DecayInterval), MaxRows: clampInt32(limit)})
	if err != nil {
		return nil, fmt.Errorf("read spaces pending salience decay: %w", err)
	}
	return spaces, nil
}
