package eventloom

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zaxy/zaxy/validation"
)

var (
	// ErrInvalid marks input that was rejected; the error is a *ValidationError naming the field.
	// It is validation.ErrInvalid.
	ErrInvalid = validation.ErrInvalid
	// ErrNotFound means the space has had no append yet.
	ErrNotFound = errors.New("not found")
	// ErrConflict means an idempotency key was reused with a different request body.
	ErrConflict = errors.New("conflict")
	// ErrAppendOnly means something tried to update, delete or truncate the log.
	ErrAppendOnly = errors.New("the event log is append-only")
)

// ValidationError names the input field that is wrong and why. It matches ErrInvalid. It is
// validation.Error, the leaf the Go client shares.
type ValidationError = validation.Error

func invalid(field, format string, args ...any) error {
	return validation.Errorf(field, format, args...)
}

// SQLSTATEs raised by the schema.
const sqlstateAppendOnly = "ZX001"

// sqlstateChainBroken is raised when rows would not link to each other and to the chain head.
const sqlstateChainBroken = "ZX002"

// ErrChainBroken means an append was refused because the space's chain does not end where
// its head says (the log was tampered with) or the transaction carried a forged chain tail.
// Run verify to find the broken seq.
var ErrChainBroken = errors.New("the space's hash chain is broken")

// sqlstateSpaceFrozen is raised by an append to a space frozen by a move (migration 000056).
const sqlstateSpaceFrozen = "ZX050"

// ErrSpaceMoving means an append was refused because the space is being moved to another
// cluster, or has moved and this is its read-only copy: retry, and the append lands where the
// space lives (the API answers 503 with Retry-After).
var ErrSpaceMoving = errors.New("the space is being moved to another cluster")

// mapPgError turns database errors that describe bad input or a forbidden change into this
// package's sentinels; anything else is returned as is.
func mapPgError(err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return err
	}
	switch pgErr.Code {
	case sqlstateAppendOnly:
		return fmt.Errorf("%w: %s", ErrAppendOnly, pgErr.Message)
	case sqlstateChainBroken:
		return fmt.Errorf("%w: %s", ErrChainBroken, pgErr.Message)
	case sqlstateSpaceFrozen:
		return fmt.Errorf("%w: %s", ErrSpaceMoving, pgErr.Message)
	case "22P02", "22P05", "22021", "54000":
		// invalid text representation, unsupported unicode escape, bad encoding, too large
		return &ValidationError{Message: pgErr.Message}
	case "23514": // check_violation
		return &ValidationError{Field: constraintField[pgErr.ConstraintName], Message: "violates " + pgErr.ConstraintName}
	}
	return err
}

var constraintField = map[string]string{
	"events_space_id_format":      "space",
	"events_type_format":          "type",
	"events_session_id_length":    "session_id",
	"events_actor_length":         "actor",
	"events_data_object":          "data",
	"events_cues_object":          "cues",
	"idempotency_keys_key_length": "idempotency_key",
}
