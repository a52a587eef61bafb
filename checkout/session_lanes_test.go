package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
)

// A long agent session collects a checkout.surfaced record per checkout. The recent and reply
// lanes must still answer from the session's own events, and without walking those records
// (migration 000027's partial index): each lane's plan, and those of the session tail and stats
// the context lifecycle reads (sql/lifecycle), use the index and filter out nothing.
func TestSessionLanes_NeverWalkTheSessionsCheckoutRecords(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "long-session"
	q := f.append(t, space, msg("s", "assistant", "Which registry does your staging deploy push its images to?"))[0]
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "staging registry", SessionID: "s", NoRecord: true})
	require.NoError(t, err)
	rec, err := checkout.SurfacedEvent(&checkout.Request{SpaceID: space, Query: "staging registry", SessionID: "s"}, p)
	require.NoError(t, err)
	records := make([]eventloom.NewEvent, 400)
	for i := range records {
		records[i] = rec
	}
	f.append(t, space, records...)
	reply := f.append(t, space, msg("s", "user", "The internal Harbor instance at harbor.corp."))[0]
	f.index(t, space)

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: "Which registry do my staging images go to?", SessionID: "s", Limit: 10})
	require.NoError(t, err)
	require.Equal(t, 2, res.Lanes[checkout.LaneRecent].Count, "the recent lane replays the session's two messages, not its records")
	require.Equal(t, 1, res.Lanes[checkout.LaneReply].Count, "the reply lane follows the question past 400 records to the user's answer")
	var ids []string
	for _, it := range res.Items {
		ids = append(ids, it.ItemID)
	}
	require.Contains(t, ids, memoryitem.EventID(reply.Seq))

	for _, c := range []struct {
		file string
		args []any
	}{
		{"lane_recent.sql", []any{space, "s", time.Now(), 10}},
		{"lane_reply.sql", []any{[]int64{q.Seq}, space, true, time.Now()}},
		{"../lifecycle/session_stats.sql", []any{space, "s"}},
		{"../lifecycle/handwritten/session_tail.sql", []any{space, "s", 10}},
	} {
		plan := explainAnalyze(t, f, c.file, c.args...)
		require.Contains(t, plan, "events_session_memory", "%s reads the session's memory events through the partial index", c.file)
		require.Equal(t, 0.0, rowsRemoved(plan), "%s filters out no row: it never walks a checkout record\n%s", c.file, plan)
	}
}

// explainAnalyze runs EXPLAIN (ANALYZE, FORMAT JSON) on the query in sql/checkout/file (its
// comment lines dropped), with sequential scans off, and returns the plan as JSON text. A sqlc
// query's @parameters are numbered in order of first appearance, as sqlc numbers them.
func explainAnalyze(t *testing.T, f *fixture, file string, args ...any) string {
	t.Helper()
	b, err := os.ReadFile("../sql/checkout/" + file)
	require.NoError(t, err)
	num := map[string]int{}
	query := regexp.MustCompile(`(?m)^--.*$`).ReplaceAllString(string(b), "")
	text := regexp.MustCompile(`@[a-z_]+`).ReplaceAllStringFunc(query, func(name string) string {
		if num[name] == 0 {
			num[name] = len(num) + 1
		}
		return fmt.Sprintf("$%d", num[name])
	})
	if len(num) > 0 { // a hand-written query numbers its own
		require.Len(t, args, len(num), "%s has parameters %v", file, num)
	}
	// A table this small may be read whole whatever the indexes are; with sequential scans
	// off, the plan shows whether the query can use an index that holds no record at all.
	ctx := context.Background()
	tx, err := f.pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck // read-only
	_, err = tx.Exec(ctx, "SET LOCAL enable_seqscan = off")
	require.NoError(t, err)
	var plan string
	require.NoError(t, tx.QueryRow(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+text, args...).Scan(&plan))
	return plan
}

// rowsRemoved sums "Rows Removed by Filter" times loops over a JSON plan.
func rowsRemoved(plan string) float64 {
	var nodes []map[string]any
	if err := json.Unmarshal([]byte(plan), &nodes); err != nil {
		return -1
	}
	var walk func(n map[string]any) float64
	walk = func(n map[string]any) float64 {
		sum := 0.0
		if r, ok := n["Rows Removed by Filter"].(float64); ok {
			loops, _ := n["Actual Loops"].(float64)
			sum += r * loops
		}
		kids, _ := n["Plans"].([]any)
		for _, k := range kids {
			if m, ok := k.(map[string]any); ok {
				sum += walk(m)
			}
		}
		return sum
	}
	total := 0.0
	for _, n := range nodes {
		if p, ok := n["Plan"].(map[string]any); ok {
			total += walk(p)
		}
	}
	return total
}
