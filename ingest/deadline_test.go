package ingest_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/ingest"
)

// expiringContext is a context that reports its deadline exceeded from the limit-th time
// its Err is asked on, without a clock: the redactor asks every few hundred attempts, so a
// large text full of secrets runs into it, while the few database calls before redaction
// (which watch Done, never closed here) do not.
type expiringContext struct {
	context.Context
	calls *atomic.Int64
	limit int64
}

func newExpiringContext(limit int64) expiringContext {
	return expiringContext{Context: context.Background(), calls: new(atomic.Int64), limit: limit}
}

func (c expiringContext) Err() error {
	if c.calls.Add(1) >= c.limit {
		return context.DeadlineExceeded
	}
	return nil
}

func (c expiringContext) Deadline() (time.Time, bool) { return time.Time{}, false }

// Ingest redacts documents and transcript turns with the request's context: a request whose
// deadline passes while a large text is redacted ends with the deadline's error (which the
// API answers with 503 request_timeout) and appends nothing, instead of redacting to the
// end regardless.
func TestIngest_RedactionGivesUpAtTheDeadline(t *testing.T) {
	t.Parallel()
	f := newFixtureTx(t, ingest.Config{})
	big := strings.Repeat("password=x token=abcdefgh12 ", (1<<20)/28)

	_, err := f.in.Documents(newExpiringContext(40), &ingest.DocumentsParams{SpaceID: "deadline-docs",
		Documents: []ingest.Document{{Path: "a.md", Text: "# a\n\nplain"}, {Path: "big.txt", Text: big}}})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "redact documents[1].text")

	_, err = f.in.Transcript(newExpiringContext(40), &ingest.TranscriptParams{SpaceID: "deadline-turns",
		Turns: []ingest.Turn{{Role: "user", Content: "hello"}, {Role: "user", Content: big}}})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "redact turns[1].content")
	require.Zero(t, f.count(t), "nothing is appended")

	// With time to spare the same requests go through (the context itself is usable).
	res, err := f.in.Transcript(newExpiringContext(1<<40), &ingest.TranscriptParams{SpaceID: "deadline-turns",
		Turns: []ingest.Turn{{Role: "user", Content: "hello"}, {Role: "user", Content: big[:4096]}}})
	require.NoError(t, err)
	require.Positive(t, res.Redactions)
}
