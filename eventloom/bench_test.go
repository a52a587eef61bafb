package eventloom_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/zaxy/zaxy/eventloom"
)

// BenchmarkAppendBatch100 appends batches of 100 events through the Go API (outbox included);
// it reports events/s.
func BenchmarkAppendBatch100(b *testing.B) {
	ctx := context.Background()
	store, _ := newStoreTB(b)
	batch := make([]eventloom.NewEvent, 100)
	for i := range batch {
		batch[i] = msg(fmt.Sprintf("benchmark event %d with a little content", i))
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "bench", Events: batch}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*100)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkVerify verifies a 50,000-event space in Go; it reports events/s.
func BenchmarkVerify(b *testing.B) {
	ctx := context.Background()
	store, _ := newStoreTB(b)
	batch := make([]eventloom.NewEvent, 1000)
	for i := range batch {
		batch[i] = msg(fmt.Sprintf("verify event %d", i))
	}
	for range 50 {
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "v", Events: batch}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := store.Verify(ctx, "v")
		if err != nil || !res.OK {
			b.Fatal(err, res)
		}
	}
	b.ReportMetric(float64(b.N*50000)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkAppendSingle appends one event per transaction through the Go API (outbox
// included); it reports events/s.
func BenchmarkAppendSingle(b *testing.B) {
	ctx := context.Background()
	store, _ := newStoreTB(b)
	one := []eventloom.NewEvent{msg("benchmark event with a little content")}
	b.ResetTimer()
	for b.Loop() {
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "bench", Events: one}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkAppendBatch100Keyed appends batches of 100 events with an idempotency key each
// (the key lookup, the events and the key record in one pipelined batch); it reports events/s.
func BenchmarkAppendBatch100Keyed(b *testing.B) {
	ctx := context.Background()
	store, _ := newStoreTB(b)
	batch := make([]eventloom.NewEvent, 100)
	for i := range batch {
		batch[i] = msg(fmt.Sprintf("benchmark event %d with a little content", i))
	}
	i := 0
	b.ResetTimer()
	for b.Loop() {
		i++
		if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "bench", Events: batch, IdempotencyKey: fmt.Sprintf("key-%d", i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*100)/b.Elapsed().Seconds(), "events/s")
}
