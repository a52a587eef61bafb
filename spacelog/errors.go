package spacelog

import (
	"errors"
	"fmt"
)

var (
	// ErrBadFile marks a file that is not a faithful export: a *FileError says where.
	ErrBadFile = errors.New("the export file is not a faithful copy of a space's log")
	// ErrNotEmpty means the space to import into already has events (or a chain head).
	ErrNotEmpty = errors.New("the space already has events")
)

// sqlstateNotEmpty is raised by zaxy_import_begin for a space that already has events.
const sqlstateNotEmpty = "ZX040"

// FileError is the first thing wrong with a file: the line (1 for the header) and, when it is
// about an event or reached past one, the seq, with the reason. It matches ErrBadFile.
type FileError struct {
	Line   int64
	Seq    int64
	Reason string
}

func (e *FileError) Error() string {
	if e.Seq > 0 {
		return fmt.Sprintf("bad export at seq %d (line %d): %s", e.Seq, e.Line, e.Reason)
	}
	return fmt.Sprintf("bad export at line %d: %s", e.Line, e.Reason)
}

// Unwrap returns ErrBadFile.
func (e *FileError) Unwrap() error { return ErrBadFile }
