// Package validation holds the error every Zaxy package returns for input it rejects: an
// *Error naming the field that is wrong and why, which matches ErrInvalid. The API maps it to
// 400 invalid_request with details.field.
//
// It is a leaf: it imports nothing of Zaxy and nothing that opens a database connection, so
// the Go client and every domain package can share it. It must never grow checks of its own.
package validation

import (
	"errors"
	"fmt"
)

// ErrInvalid marks input that was rejected; the error is an *Error naming the field.
var ErrInvalid = errors.New("invalid input")

// Error names the input field that is wrong and why. It matches ErrInvalid.
type Error struct {
	// Field is the JSON path of the offending field, e.g. "events[2].type".
	Field string
	// Message says what is wrong, in a sentence fragment.
	Message string
}

// Error implements error: "field: message", or the message alone when no field is named.
func (e *Error) Error() string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// Errorf is an *Error for field with a formatted message.
func Errorf(field, format string, args ...any) error {
	return &Error{Field: field, Message: fmt.Sprintf(format, args...)}
}
