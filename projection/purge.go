package projection

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
)

// erasesProjected reports whether events (a batch read after the watermark wm) hold the
// erasure record of an event at or before wm: one the projections were built from while it
// still had its text. An erasure record of a later event needs no purge: the batch read that
// event in the same statement, already a tombstone.
func erasesProjected(events []eventloom.Event, wm int64) bool {
	for i := range events {
		if events[i].Type != eventloom.ErasureType {
			continue
		}
		var d struct {
			Seq int64 `json:"seq"`
		}
		if err := json.Unmarshal(events[i].Data, &d); err != nil || d.Seq <= wm {
			return true // an unreadable record purges: the safe side
		}
	}
	return false
}

// purgeTx purges what the projections derived from erased events: it discards the space's
// projections and replays its log up to upTo (the batch that held the erasure record), in tx,
// which holds the watermark lock. An erasure (package erasure) writes its tombstone and record
// without waiting for the projector; the projector purges here when it reaches the record, so
// an erasure never waits on a busy projector and the projections hold nothing of the erased
// text once they have caught up.
func (p *Projector) purgeTx(ctx context.Context, tx pgx.Tx, space string, upTo int64) error {
	if err := p.discardTx(ctx, tx, space); err != nil {
		return err
	}
	res := &RebuildResult{SpaceID: space}
	if err := p.replayTx(ctx, tx, space, upTo, res); err != nil {
		return fmt.Errorf("purge after an erasure: %w", err)
	}
	p.logger.InfoContext(ctx, "projections purged after an erasure", "space_id", space,
		"events_replayed", res.Events, "embeddings_pruned", res.EmbeddingsPruned)
	return nil
}
