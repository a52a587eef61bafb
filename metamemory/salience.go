package metamemory

import (
	"context"
	"fmt"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/metamemory/internal/dbsqlc"
)

// SalienceBuckets is how many equal steps of [0, 1] a salience histogram has.
const SalienceBuckets = 10

// Salience returns the space's salience histogram as the salience_decay job last materialised
// it, nil when the space has none (the job has not run for it, or the space is unknown). It
// reads salience_decayed only; the console's spaces page shows it (GET /salience).
func Salience(ctx context.Context, db pgexec.Executor, space string) (*SalienceHistogram, error) {
	return readSalience(ctx, db, space)
}

// readSalience returns the space's salience histogram, nil when the space has no
// materialised salience (the salience_decay job has not run for it).
func readSalience(ctx context.Context, db pgexec.Executor, space string) (*SalienceHistogram, error) {
	buckets, err := queries.SalienceHistogram(ctx, db, dbsqlc.SalienceHistogramParams{Buckets: SalienceBuckets, SpaceID: space})
	if err != nil {
		return nil, fmt.Errorf("salience histogram: %w", err)
	}
	if len(buckets) == 0 {
		return nil, nil
	}
	h := &SalienceHistogram{Buckets: make([]int64, SalienceBuckets)}
	for _, b := range buckets {
		h.Buckets[b.Bucket-1] = b.Items
		h.Attenuated += b.Attenuated
	}
	return h, nil
}
