package eventloom

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// doneAfter is a context whose Err reports a deadline after n calls (its Done channel never
// closes, so only code that asks Err notices).
type doneAfter struct {
	context.Context
	n *int
}

func (d doneAfter) Err() error {
	if *d.n--; *d.n < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// Redaction gives up when the append's deadline passes, so a slow body costs no more than
// the request's time and the API answers 503 request_timeout.
func TestRedactEvents_StopsAtTheDeadline(t *testing.T) {
	n := 2
	ctx := doneAfter{Context: context.Background(), n: &n}
	big := strings.Repeat(strings.Repeat("sk-", 341)+"\n", 1024)
	_, _, err := redactEvents(ctx, []NewEvent{{Type: "note", Content: big}})
	require.ErrorIs(t, err, context.DeadlineExceeded)
}
