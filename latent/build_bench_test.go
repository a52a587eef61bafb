package latent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// BenchmarkBuild_LongSessionGrows times the incremental build after one more event in a long
// agent session (2,000 events: messages and tool calls, 42 episodes of at most 48 events):
// what the latent_rebuild job does after each batch while an agent works. Only the session's
// last episode changes; the others are derived again and must cost little.
func BenchmarkBuild_LongSessionGrows(b *testing.B) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(b)
	pool := db.AdminPool(b)
	store := eventloom.NewStore(pool, nil, nil)
	const space = "long"
	var evs []eventloom.NewEvent
	for i := range 2000 {
		if i%4 == 3 {
			evs = append(evs, eventloom.NewEvent{Type: "tool_call.completed", SessionID: "agent",
				Data: []byte(fmt.Sprintf(`{"tool":"step %d","outcome":"success"}`, i%7))})
			continue
		}
		evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: "agent", Data: []byte(`{"role":"assistant"}`),
			Content: fmt.Sprintf("Step %d: table t%d of the billing schema is copied to the new cluster and checked.", i, i%50)})
	}
	if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: evs}); err != nil {
		b.Fatal(err)
	}
	proj, err := projection.New(ctx, pool, projection.Config{})
	if err != nil {
		b.Fatal(err)
	}
	builder, err := latent.NewBuilder(ctx, pool, store, latent.Config{})
	if err != nil {
		b.Fatal(err)
	}
	step := func(i int) {
		if i >= 0 {
			if _, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{{Type: "message", SessionID: "agent",
				Data: []byte(`{"role":"user"}`), Content: fmt.Sprintf("Next table %d, please.", i)}}}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := proj.ProjectSpace(ctx, space); err != nil {
			b.Fatal(err)
		}
	}
	step(-1)
	if _, err := builder.Build(ctx, space); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		step(i)
		b.StartTimer()
		if _, err := builder.Build(ctx, space); err != nil {
			b.Fatal(err)
		}
	}
}
