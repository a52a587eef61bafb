package checkout_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
)

// TestCollapse_ARepeatedStatementRanksOnce: a tool whose last error goes back and forth between
// two errors has a fact version for each change. Under builtin-4 a question about one error
// ranks each of its identical superseded versions; under builtin-5 the statement ranks once, as
// its current version when it holds now, else as its latest, and the events still rank.
func TestCollapse_ARepeatedStatementRanksOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	const space = "collapse"
	refused, pulled := "dial tcp search-db:5432: connect: connection refused", "back-off pulling image registry.local/search:latest"
	f.append(t, space,
		call("s1", "bash", refused, 1), call("s1", "bash", pulled, 2),
		call("s2", "bash", refused, 10), call("s2", "bash", pulled, 11),
		call("s3", "bash", refused, 20), call("s3", "bash", pulled, 21),
		call("s4", "bash", refused, 30),
		said("s4", "assistant", "Restarted the search database.", 31),
	)
	f.index(t, space)
	statement := "bash last_error " + refused
	ask := func(version, query string) []*checkout.Item {
		t.Helper()
		svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf(version)})
		res, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query})
		require.NoError(t, err)
		return res.Items
	}
	stating := func(items []*checkout.Item, text string) []*checkout.Item {
		var out []*checkout.Item
		for _, it := range items {
			if it.Kind == "fact" && it.Text == text {
				out = append(out, it)
			}
		}
		return out
	}
	q := "When did the search tests last fail with connection refused?"
	four, five := ask("builtin-4", q), ask("builtin-5", q)
	require.Len(t, stating(four, statement), 4, "builtin-4 ranks every version")
	once := stating(five, statement)
	require.Len(t, once, 1)
	require.False(t, once[0].Labels.Superseded, "the current version stands for the statement")
	calls := func(items []*checkout.Item) []string {
		var out []string
		for _, it := range items {
			if strings.HasPrefix(it.ItemID, "ev:") && strings.Contains(it.Text, "connection refused") {
				out = append(out, it.ItemID)
			}
		}
		return out
	}
	require.NotEmpty(t, calls(five))
	require.ElementsMatch(t, calls(four), calls(five), "the failing calls rank as before")
	require.Less(t, len(five), len(four))

	// No longer current: the latest version stands for it.
	old := "bash last_error " + pulled
	four, five = ask("builtin-4", "When did pulling the image fail?"), ask("builtin-5", "When did pulling the image fail?")
	require.Len(t, stating(four, old), 3)
	once = stating(five, old)
	require.Len(t, once, 1)
	require.True(t, once[0].Labels.Superseded)
	var latest int64
	for _, it := range stating(four, old) {
		latest = max(latest, it.Citations[0].Seq)
	}
	require.Equal(t, latest, once[0].Citations[0].Seq, "the last time it held")

	// The plain profile ranks as before salience and policies' later rules.
	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: q, RetrievalProfile: checkout.ProfilePlain})
	require.NoError(t, err)
	require.Len(t, stating(res.Items, statement), 4)
}
