package checkout

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIsPasted_TellsLogsCodeAndTracesFromProse: a message that is mostly log lines, code or a
// stack trace is pasted; prose is not, however many of a component's names it holds, and
// neither is a short message of any form.
func TestIsPasted_TellsLogsCodeAndTracesFromProse(t *testing.T) {
	for _, text := range []string{
		"Got this from production just now:\n\n2025-03-04 10:04:15.778 level=info component=internal/cache msg=\"job queued\"\n" +
			"2025-03-01 10:31:07.614 level=info component=internal/cache msg=\"batch flushed\"\n2025-03-02 10:15:00.101 level=error component=internal/cache msg=\"oom\"",
		"// internal/cache/session.go\nfunc (x *SessionCache) process(ctx context.Context) error {\n\tif err := x.step0(ctx); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}",
		"panic: runtime error: invalid memory address or nil pointer dereference\ngoroutine 17 [running]:\nreport.(*Scheduler).Run(0x0)\n\t/src/report/scheduler.go:88 +0x1d\nmain.main()\n\t/src/main.go:12 +0x25",
		"Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\nValueError: bad input",
		"status=500 path=/v1/invoices took=31ms\nstatus=500 path=/v1/invoices took=29ms\nstatus=200 path=/v1/health took=1ms",
	} {
		require.True(t, isPasted(text), "%q", text)
	}
	for _, text := range []string{
		"I added defer ticker.Stop() and close the done channel on shutdown; RSS is flat over 24 hours now.",
		"The session cache leaks tickers.\nThe heap profile shows them growing.\nWe fixed it by stopping each ticker on shutdown.",
		"level=error component=uploader msg=\"upload timeout\" retry=3",
		"Here is the plan:\nfirst the schema freeze,\nthen the migration at 10:00:00 on Monday,\nthen the deploy.",
		"",
	} {
		require.False(t, isPasted(text), "%q", text)
	}
}

// BenchmarkIsPasted_200Items is the pasted rule's cost for a question about an outcome: 200
// candidates of about 1,500 characters, half a log and half prose.
func BenchmarkIsPasted_200Items(b *testing.B) {
	logText := strings.Repeat("2025-03-04 10:04:15.778 level=info component=uploader msg=\"request handled\" duration_ms=12 trace=0a1b2c3d\n", 14)
	prose := strings.Repeat("The uploader's client had no deadline, so a slow peer held it open until the timeout; we added one. ", 15)
	for b.Loop() {
		n := 0
		for i := range 200 {
			text := prose
			if i%2 == 0 {
				text = logText
			}
			if isPasted(text) {
				n++
			}
		}
		_ = n
	}
}

// BenchmarkIsPasted_200ProseLines is the rule's cost on prose broken into short lines (a list, a
// document), where every line is read: 200 candidates of about 1,500 characters.
func BenchmarkIsPasted_200ProseLines(b *testing.B) {
	prose := strings.Repeat("The uploader's client had no deadline, so a slow peer held it open until the timeout: we added one.\n", 15)
	for b.Loop() {
		n := 0
		for range 200 {
			if isPasted(prose) {
				n++
			}
		}
		_ = n
	}
}
