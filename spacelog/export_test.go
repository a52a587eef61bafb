package spacelog

import (
	"bytes"
	"testing"
	"time"

	"github.com/zaxy/zaxy/eventloom"
)

// FileOf writes a file of the given events (a chain the caller built) as Export would, for
// tests of the reader and the importer without a source database.
func FileOf(tb testing.TB, events []eventloom.Event) []byte {
	tb.Helper()
	var buf bytes.Buffer
	x := newLineWriter(&buf)
	last := events[len(events)-1]
	x.object(headerLine{Kind: kindHeader, Format: Format, Version: Version, SpaceID: last.SpaceID,
		HeadSeq: last.Seq, HeadHash: last.Hash, ExportedAt: time.Unix(1800000000, 0).UTC()})
	for i := range events {
		x.event(&events[i])
	}
	x.object(trailerLine{Kind: kindTrailer, Events: int64(len(events)), HeadSeq: last.Seq, HeadHash: last.Hash, SHA256: x.sum.Sum(nil)})
	if err := x.flush(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
