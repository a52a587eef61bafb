package spacelog_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/spacelog"
)

// benchEvents is the size of the benchmarks' space: 10,000 events, or ZAXY_BENCH_EVENTS (a
// multiple of 500) to see how time and peak heap grow with the log.
var benchEvents = func() int {
	if n, err := strconv.Atoi(os.Getenv("ZAXY_BENCH_EVENTS")); err == nil && n >= 500 {
		return n / 500 * 500
	}
	return 10000
}()

// benchSpace appends benchEvents messages of about 300 bytes (content, data and cues) to space.
func benchSpace(b *testing.B, tb *testBundle, space string) {
	b.Helper()
	ctx := context.Background()
	words := strings.Repeat("lorem ipsum dolor sit amet ", 8)
	for done := 0; done < benchEvents; done += 500 {
		events := make([]eventloom.NewEvent, 500)
		for i := range events {
			events[i] = eventloom.NewEvent{Type: "message", Actor: "user", SessionID: fmt.Sprintf("s%d", (done+i)/100),
				Content: fmt.Sprintf("event %d: %s", done+i, words), Data: []byte(`{"role":"user","n":1.50}`),
				Cues: []byte(`{"task":"bench"}`)}
		}
		_, err := tb.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: events})
		require.NoError(b, err)
	}
}

// peakHeap samples the live heap every 5 ms while fn runs and returns the highest value seen
// above the heap before fn (after a GC), in bytes.
func peakHeap(fn func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// BenchmarkExport_10k streams a space of 10,000 events (benchEvents) to io.Discard: time, allocated bytes
// per export (-benchmem) and the peak live heap above the start (peak-heap-B), which stays
// flat as the log grows because rows are streamed and written through a fixed buffer.
func BenchmarkExport_10k(b *testing.B) {
	tb := setup(b)
	benchSpace(b, tb, "bench")
	ctx := context.Background()
	var size int64
	var peak uint64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p := peakHeap(func() {
			sum, err := spacelog.Export(ctx, tb.app, io.Discard, "bench")
			require.NoError(b, err)
			size = sum.Bytes
		})
		peak = max(peak, p)
	}
	b.ReportMetric(float64(size), "file-B")
	b.ReportMetric(float64(peak), "peak-heap-B")
	b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkImport_10k imports the export of a 10,000-event space (benchEvents) into an empty
// space of another database, in a transaction rolled back after each run. The file is read from
// disk, as the CLI reads it: held in memory it would count in the heap the GC paces by, and let
// garbage grow with it.
func BenchmarkImport_10k(b *testing.B) {
	src, dst := setup(b), setup(b)
	benchSpace(b, src, "bench")
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "bench.export.jsonl")
	f, err := os.Create(path)
	require.NoError(b, err)
	sum, err := spacelog.Export(ctx, src.app, f, "bench")
	require.NoError(b, err)
	require.NoError(b, f.Close())
	var peak uint64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		tx, err := dst.admin.Begin(ctx)
		require.NoError(b, err)
		f, err := os.Open(path)
		require.NoError(b, err)
		p := peakHeap(func() {
			_, err = spacelog.Import(ctx, tx, f, spacelog.ImportParams{Space: "bench", Outbox: dst.box})
			require.NoError(b, err)
		})
		peak = max(peak, p)
		require.NoError(b, f.Close())
		require.NoError(b, tx.Rollback(ctx))
	}
	b.ReportMetric(float64(sum.Bytes), "file-B")
	b.ReportMetric(float64(peak), "peak-heap-B")
	b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
