package eventloom

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zaxy/zaxy/eventloom/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
)

// ErasureType is the event type the erasure operation appends: data {"seq": N, "reason": R},
// no content. Ordinary appends may not use it.
const ErasureType = "erasure.recorded"

// MaxErasureReasonLen caps an erasure's reason, in characters.
const MaxErasureReasonLen = 1000

// ErrNotErasable means the event cannot be erased: it was hashed under version 1 (its text is
// in the chain itself), is already erased, or is itself an erasure record.
var ErrNotErasable = errors.New("the event cannot be erased")

// ErrErasurePending means a read that cannot leave out what derives from one event (the AGE
// mirror's Cypher, the feeling of knowing's aggregate sketch) was asked of a space with an
// erased event whose purge is pending (zaxy_erased_pending, migration 000054): it is refused
// until the projector has purged the space's projections (projection/purge.go).
var ErrErasurePending = errors.New("an erasure in this space is still being purged from its projections; retry in a moment")

// ErrEventNotFound means the space has no event with the seq asked for. It matches ErrNotFound.
var ErrEventNotFound = fmt.Errorf("%w: no such event", ErrNotFound)

// SQLSTATEs raised by zaxy_erase (migration 000011).
const (
	sqlstateNoSuchEvent = "ZX030"
	sqlstateNotErasable = "ZX031"
)

// EraseParams names the event to erase and why.
type EraseParams struct {
	// SpaceID is the event's space.
	SpaceID string `json:"space_id"`
	// Seq is the event to erase.
	Seq int64 `json:"seq"`
	// Reason says why (1 to MaxErasureReasonLen characters). It is recorded in the log, so it
	// must not repeat what is erased.
	Reason string `json:"reason"`
	// Actor is who asked (recorded as the erasure event's actor); optional.
	Actor string `json:"actor,omitempty"`
}

// Validate checks the parameters, naming the bad field.
func (p *EraseParams) Validate() error {
	if err := ValidateSpaceID(p.SpaceID); err != nil {
		return err
	}
	if p.Seq < 1 {
		return invalid("seq", "must be a positive integer, got %d", p.Seq)
	}
	if strings.TrimSpace(p.Reason) == "" {
		return invalid("reason", "is required")
	}
	if n := utf8.RuneCountInString(p.Reason); n > MaxErasureReasonLen {
		return invalid("reason", "must be at most %d characters, got %d", MaxErasureReasonLen, n)
	}
	if err := CheckText("reason", p.Reason, 0); err != nil {
		return err
	}
	return CheckText("actor", p.Actor, maxActorLen)
}

// EraseTx appends the erasure.recorded event naming p.Seq and replaces that event's content
// and data with the tombstone, inside tx (through the zaxy_erase function, the one UPDATE the
// log allows). The caller purges the projections in the same transaction (package erasure).
// An unknown event is ErrNotFound; one that cannot be erased is ErrNotErasable.
func (s *Store) EraseTx(ctx context.Context, tx pgx.Tx, p *EraseParams) (*Erasure, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	out := &Erasure{SpaceID: p.SpaceID, Seq: p.Seq}
	row, err := dbsqlc.New().Erase(ctx, tx, dbsqlc.EraseParams{SpaceID: p.SpaceID, Seq: p.Seq, Reason: p.Reason, Actor: p.Actor})
	if err == nil && row.ErasureSeq == nil {
		err = errors.New("zaxy_erase returned no erasure seq")
	}
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) {
			switch pgErr.Code {
			case sqlstateNoSuchEvent:
				return nil, fmt.Errorf("%w: %s", ErrEventNotFound, pgErr.Message)
			case sqlstateNotErasable:
				return nil, fmt.Errorf("%w: %s", ErrNotErasable, pgErr.Message)
			}
		}
		return nil, fmt.Errorf("erase: %w", mapPgError(err))
	}
	out.ErasureSeq, out.ErasureHash = *row.ErasureSeq, row.ErasureHash
	return out, nil
}

// LockErasure takes space's erasure lock in tx, exclusively, until tx ends: the erasure
// package holds it while it erases an event and purges what was derived from it.
func LockErasure(ctx context.Context, tx pgx.Tx, space string) error {
	return dbsqlc.New().ErasureLock(ctx, tx, space)
}

// LockErasureShared takes space's erasure lock in tx, shared, until tx ends. Writers of data
// derived from text they read outside tx (embedder, inferrer, latent model) take it before
// they write: an erasure in progress commits first, and their insert no longer finds the
// erased text.
func LockErasureShared(ctx context.Context, tx pgx.Tx, space string) error {
	return dbsqlc.New().ErasureLockShared(ctx, tx, space)
}

// ErasedSince reports whether space had an event erased after seq (an erasure.recorded event
// past it): a writer that read text when the projection stood at seq must not store what it
// derived. Call it under LockErasureShared.
func ErasedSince(ctx context.Context, db pgexec.Executor, space string, seq int64) (bool, error) {
	return dbsqlc.New().ErasedSince(ctx, db, dbsqlc.ErasedSinceParams{SpaceID: space, AfterSeq: seq})
}

// LockChain takes space's chain lock in tx until tx ends: the lock every append to the space
// takes. A writer that decides what to append from what the log holds (the review service
// deciding a proposal) takes it before it reads, so no other append commits in between.
func LockChain(ctx context.Context, tx pgx.Tx, space string) error {
	return dbsqlc.New().ChainLock(ctx, tx, space)
}
