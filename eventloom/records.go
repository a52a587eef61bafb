package eventloom

import (
	"context"
	"fmt"

	"github.com/zaxy/zaxy/eventloom/internal/dbsqlc"
)

// KeyRecord is what an idempotency key recorded, as KeyRecords reports it.
type KeyRecord struct {
	// FirstSeq and LastSeq are the seqs of the append that recorded the key.
	FirstSeq, LastSeq int64
	// SameBody is true when that append had the same events as the one asked about, so
	// appending it again would be answered from the record (Replayed); false means it would
	// be ErrConflict.
	SameBody bool
}

// KeyRecords looks up, in one round trip and without appending or locking, the idempotency
// records of keyed appends into one space: element i is nil when ps[i]'s key is unused (the
// append would append), otherwise what it recorded. Every ps[i] must have SpaceID space and a
// key. A caller may skip the appends it reports as recorded with the same body: the answer
// cannot change, since records are never updated or removed.
func (s *Store) KeyRecords(ctx context.Context, space string, ps []*AppendParams) ([]*KeyRecord, error) {
	if err := ValidateSpaceID(space); err != nil {
		return nil, err
	}
	keys := make([]string, len(ps))
	for i, p := range ps {
		if p.SpaceID != space || p.IdempotencyKey == "" {
			return nil, fmt.Errorf("key records: append %d is not a keyed append into %q", i, space)
		}
		keys[i] = p.IdempotencyKey
	}
	rows, err := s.q.IdempotencyMany(ctx, s.db, dbsqlc.IdempotencyManyParams{SpaceID: space, Keys: keys})
	if err != nil {
		return nil, fmt.Errorf("read idempotency keys: %w", err)
	}
	type rec struct {
		hash        []byte
		first, last int64
	}
	found := make(map[string]rec, len(rows))
	for _, r := range rows {
		found[r.Key] = rec{hash: r.RequestHash, first: r.FirstSeq, last: r.LastSeq}
	}
	out := make([]*KeyRecord, len(ps))
	for i, p := range ps {
		if f, ok := found[p.IdempotencyKey]; ok {
			out[i] = &KeyRecord{FirstSeq: f.first, LastSeq: f.last, SameBody: string(f.hash) == string(requestHash(p.Events))}
		}
	}
	return out, nil
}
