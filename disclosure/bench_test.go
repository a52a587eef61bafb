package disclosure_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/disclosure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/testcontainers"
)

// benchEvent is an agent-work mix: 70% chat turns over 300 names in sessions of 200 events,
// fact assertions, decisions, task updates, tool calls, a few document chunks, invalidations
// and checkout bookkeeping.
func benchEvent(r *rand.Rand, i int) eventloom.NewEvent {
	words := strings.Fields("we should deploy review fix update the service cache before after release plan migration index query budget")
	name := func() string { return "Project" + strconv.Itoa(r.IntN(300)) }
	text := name() + " and " + name()
	for range 8 + r.IntN(20) {
		text += " " + words[r.IntN(len(words))]
	}
	session := fmt.Sprintf("run-%d", i/200)
	x := r.Float64()
	switch {
	case x < 0.70:
		return ev("message", session, text, map[string]any{"role": "user"})
	case x < 0.78:
		return ev("fact.asserted", session, "", map[string]any{"subject": name(), "predicate": []string{"works at", "owns", "uses", "status"}[r.IntN(4)], "object": name()})
	case x < 0.83:
		return ev("decision.recorded", session, text, map[string]any{"decision": text[:40], "subject": name()})
	case x < 0.88:
		return ev("task.updated", session, "", map[string]any{"task_id": "T-" + strconv.Itoa(r.IntN(2000)), "status": "open", "title": text[:30]})
	case x < 0.93:
		return ev("tool_call.completed", session, text, map[string]any{"tool": "go test", "outcome": "success"})
	case x < 0.97:
		return ev("checkout.surfaced", session, "x", nil)
	case x < 0.999:
		return ev("document.chunk", "", text, map[string]any{"document_id": "doc", "start": 0, "end": len(text)})
	}
	return ev("memory.invalidated", session, "", map[string]any{"target_seq": max(1, i-5), "reason": "wrong"})
}

// BenchmarkViews measures the three views on one space of ZAXY_DISCLOSURE_BENCH_EVENTS events
// (default 20,000), projected and analyzed.
func BenchmarkViews(b *testing.B) {
	n := 20000
	if v := os.Getenv("ZAXY_DISCLOSURE_BENCH_EVENTS"); v != "" {
		var err error
		n, err = strconv.Atoi(v)
		require.NoError(b, err)
	}
	db := testcontainers.NewDatabase(b)
	f := newFixtureOn(b, db.AppPool(b))
	r := rand.New(rand.NewPCG(1, 2))
	for start := 0; start < n; start += 1000 {
		batch := make([]eventloom.NewEvent, 0, 1000)
		for i := start; i < min(n, start+1000); i++ {
			batch = append(batch, benchEvent(r, i+1))
		}
		f.append(b, "bench", batch...)
	}
	f.Project(b, "bench")
	ctx := context.Background()
	admin := db.AdminPool(b)
	for _, t := range []string{"events", "entities", "facts", "mentions", "invalidations"} {
		_, err := admin.Exec(ctx, "VACUUM ANALYZE "+t)
		require.NoError(b, err)
	}
	idx, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "bench"})
	require.NoError(b, err)
	b.Logf("%d events; default index:\n%s", n, idx.Text)

	for _, bc := range []struct {
		name string
		call func() error
	}{
		{"index_100", func() error {
			_, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "bench"})
			return err
		}},
		{"index_2000", func() error {
			_, err := disclosure.Index(ctx, f.DB, disclosure.IndexParams{SpaceID: "bench", MaxTokens: 2000})
			return err
		}},
		{"timeline_500", func() error {
			_, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "bench"})
			return err
		}},
		{"timeline_session", func() error {
			_, err := disclosure.Timeline(ctx, f.DB, disclosure.TimelineParams{SpaceID: "bench", SessionID: "run-3"})
			return err
		}},
		{"item_event", func() error {
			_, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "bench", ID: memoryitem.EventID(int64(n / 2))})
			return err
		}},
		{"item_top_entity", func() error {
			_, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "bench", ID: idx.Entities[0].Ref})
			return err
		}},
		{"item_session", func() error {
			_, err := disclosure.Item(ctx, f.DB, disclosure.ItemParams{SpaceID: "bench", ID: "session:run-3"})
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := bc.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
