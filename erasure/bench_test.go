package erasure_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/zaxy/zaxy/eventloom"
)

// BenchmarkPurge times the projector's purge after an erasure (projection/purge.go: discard
// the space's projections and replay its log in the projector's batch transaction) in a space
// of $ZAXY_BENCH_PURGE_EVENTS events (default 20,000: messages in 200 sessions, a fact
// asserted every tenth event), projected with the AGE mirror. Each iteration erases one event
// with no projector holding the space, so Erase purges before it returns; it reports the
// purge's ms (the erasure's whole wall time, the tombstone's transaction included) and the
// events replayed per second. Run with -benchtime=3x: each iteration replays the whole space.
func BenchmarkPurge(b *testing.B) {
	ctx := context.Background()
	n := 20000
	if v := os.Getenv("ZAXY_BENCH_PURGE_EVENTS"); v != "" {
		fmt.Sscan(v, &n)
	}
	bb := setup(b)
	const space = "purge"
	user := json.RawMessage(`{"role":"user"}`)
	for start := 0; start < n; start += 1000 {
		var evs []eventloom.NewEvent
		for i := start; i < min(n, start+1000); i++ {
			if i%10 == 9 {
				evs = append(evs, eventloom.NewEvent{Type: "fact.asserted", SessionID: fmt.Sprintf("s%d", i%200),
					Content: fmt.Sprintf("Person%d works at Company%d", i%500, i%70),
					Data:    json.RawMessage(fmt.Sprintf(`{"subject":"Person%d","predicate":"works_at","object":"Company%d"}`, i%500, i%70))})
				continue
			}
			evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", i%200), Data: user,
				Content: fmt.Sprintf("Note %d: Person%d asked about the deploy of service%d to Region%d; the build took %d minutes and the review found %d issues",
					i, i%500, i%90, i%12, i%37, i%5)})
		}
		if _, err := bb.Store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: evs}); err != nil {
			b.Fatal(err)
		}
	}
	t0 := time.Now()
	if _, err := bb.Proj.ProjectSpace(ctx, space); err != nil {
		b.Fatal(err)
	}
	b.Logf("projected %d events in %s", n, time.Since(t0).Round(time.Millisecond))
	var took time.Duration
	seq := int64(1)
	for b.Loop() {
		t0 := time.Now()
		res, err := bb.svc.Erase(ctx, &eventloom.EraseParams{SpaceID: space, Seq: seq, Reason: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		took += time.Since(t0)
		if !res.ProjectionsPurged {
			b.Fatal("the erasure did not purge")
		}
		seq += 2
	}
	ms := float64(took.Microseconds()) / 1000 / float64(b.N)
	b.ReportMetric(ms, "purge_ms")
	b.ReportMetric(float64(n)/(ms/1000), "events/s")
}
