package checkout_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
)

// keywordSpace holds texts of different lengths, repeated words (term frequency above one), a
// word in most items (low idf), stop words and typed facts (items of their own).
func keywordSpace(t *testing.T, f *fixture, space string) {
	f.append(t, space,
		msg("s1", "user", "The billing service times out when the invoice queue backs up."),
		msg("s1", "assistant", "Billing retries the invoice twice; the queue worker drops invoices after a timeout of thirty seconds."),
		msg("s1", "user", "Can the billing team look at it today?"),
		msg("s2", "user", "Our team plans a trip to Lisbon in May; the team wants sunny weather and cheap flights."),
		msg("s2", "assistant", "Lisbon in May is usually sunny. Flights from Berlin to Lisbon are cheapest midweek."),
		msg("s2", "user", "team team team: the team meeting moved to Thursday because the team lead is away"),
		msg("s3", "user", "I adopted a rescue dog named Pepper; the dog loves the beach."),
		msg("s3", "assistant", "Pepper sounds lovely. Dogs at the beach need fresh water and shade, and a dog needs rest."),
		msg("s3", "user", "The team has a dog-friendly office, so Pepper can come on Fridays."),
		msg("s4", "user", "The quarterly report covers billing, hiring for the team, the Lisbon offsite and the new office dog policy, in one very long paragraph that goes on about many other things as well: budgets, laptops, chairs, coffee, parking and the holiday calendar."),
		fact("billing service", "owned by", "payments team", "2024-01-01T00:00:00Z"),
		fact("Pepper", "is a", "rescue dog", "2024-02-01T00:00:00Z"),
	)
	f.index(t, space)
}

func TestKeyword_ScoresEqualReferenceBM25(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	keywordSpace(t, f, "bm25")
	ref, err := loadBM25Corpus(ctx, f.pool, "bm25", "english")
	require.NoError(t, err)
	now := time.Now()
	for _, query := range []string{
		"billing invoice timeout",
		"When is the team going to Lisbon?",
		"What is the name of my dog?",
		"team",
		"dog-friendly office on Fridays",
		"payments team owns billing",
		"nothing here matches zebra",
	} {
		want, err := ref.rank(ctx, f.pool, query, now, 100)
		require.NoError(t, err)
		got, err := checkout.Keyword(ctx, f.pool, checkout.KeywordParams{SpaceID: "bm25", Query: query, AsOf: now, K: 100})
		require.NoError(t, err)
		require.Len(t, got, len(want), query)
		wantScore := map[string]float64{}
		for _, w := range want {
			wantScore[w.ItemID] = w.Score
		}
		for i, g := range got {
			require.Contains(t, wantScore, g.ItemID, query)
			require.InDelta(t, wantScore[g.ItemID], g.Score, 1e-6, "%s: %s", query, g.ItemID)
			require.InDelta(t, want[i].Score, g.Score, 1e-6, "%s: rank %d", query, i)
		}
	}
	// The word in most items ranks below a rare one: "Lisbon" decides, not "team".
	got, err := checkout.Keyword(ctx, f.pool, checkout.KeywordParams{SpaceID: "bm25", Query: "team Lisbon", K: 3})
	require.NoError(t, err)
	require.NotEmpty(t, got)
	var text string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT coalesce(i.text, e.content) FROM memory_items i
		JOIN events e ON e.space_id = 'bm25' AND e.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = 'bm25') AND i.item_id = $1`, got[0].ItemID).Scan(&text))
	require.Contains(t, text, "Lisbon")
}

func TestKeyword_CandidateBudgetMatchesTheRarestTermsAndScoresAllOfThem(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	keywordSpace(t, f, "budget")
	ref, err := loadBM25Corpus(ctx, f.pool, "budget", "english")
	require.NoError(t, err)
	now := time.Now()
	const query = "team Pepper"
	want, err := ref.rank(ctx, f.pool, query, now, 100)
	require.NoError(t, err)

	// "pepper" is in 4 items, "team" in more: a budget of 4 matches only the rarer term, and
	// its items are still scored with "team" (their scores are the reference's).
	got, err := checkout.Keyword(ctx, f.pool, checkout.KeywordParams{SpaceID: "budget", Query: query, AsOf: now, K: 100, Candidates: 4})
	require.NoError(t, err)
	require.Len(t, got, 4)
	wantScore := map[string]float64{}
	for _, w := range want {
		wantScore[w.ItemID] = w.Score
	}
	teamAndPepper := 0
	for _, g := range got {
		var text string
		require.NoError(t, f.pool.QueryRow(ctx, `SELECT coalesce(i.text, e.content) FROM memory_items i
			JOIN events e ON e.space_id = 'budget' AND e.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = 'budget') AND i.item_id = $1`, g.ItemID).Scan(&text))
		require.Contains(t, text, "Pepper")
		require.InDelta(t, wantScore[g.ItemID], g.Score, 1e-6, g.ItemID)
		if strings.Contains(text, "team") {
			teamAndPepper++
		}
	}
	require.Positive(t, teamAndPepper)
	require.Greater(t, len(want), 4, "the whole ranking has the items with only the common term")

	// A budget below the rarest term's frequency still matches it, capped at the budget.
	got, err = checkout.Keyword(ctx, f.pool, checkout.KeywordParams{SpaceID: "budget", Query: query, AsOf: now, K: 100, Candidates: 2})
	require.NoError(t, err)
	require.Len(t, got, 2)

	// as_of keeps later items out: only the fact valid since January 2024 had occurred.
	asOf := time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)
	got, err = checkout.Keyword(ctx, f.pool, checkout.KeywordParams{SpaceID: "budget", Query: query, AsOf: asOf})
	require.NoError(t, err)
	want, err = ref.rank(ctx, f.pool, query, asOf, 100)
	require.NoError(t, err)
	require.Len(t, want, 1)
	require.Len(t, got, 1)
	require.Equal(t, want[0].ItemID, got[0].ItemID)
	require.True(t, strings.HasPrefix(got[0].ItemID, "fact:"), got[0].ItemID)
}

// TestKeyword_AFileOrDirectoryNameFindsTheWholePath: Postgres's parser takes a path (and a dotted
// name) as one token, so before zaxy_tsv (migration 000046) a question naming the file, a
// directory of it or a part of the name shared no lexeme with the event that gives the whole. The segments count on both sides: a
// question's "artists/bands" finds "bands", and the whole path still matches itself.
func TestKeyword_AFileOrDirectoryNameFindsTheWholePath(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	r := f.append(t, "paths",
		msg("s1", "assistant", "I raised the registry timeout in cmd/deploy/push.go from 30s to 120s."),
		eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s1", Data: json.RawMessage(
			`{"tool":"bash","arguments":"go test ./internal/store/...","outcome":"failure","error":"FAIL TestAppend: duplicate key"}`)},
		msg("s2", "user", "We saw two bands live last summer."),
		msg("s3", "assistant", "The token is read with os.Getenv from the settings in deploy.yaml."),
		msg("s2", "user", "Lunch was good and the weather was fine."),
	)
	f.index(t, "paths")
	top := keywordTop(t, f, "paths")
	ev := func(i int) string { return memoryitem.EventID(r[i].Seq) }
	require.Equal(t, ev(0), top("What did we change in push.go?"))
	require.Equal(t, ev(0), top("the deploy/push.go client"))
	require.Equal(t, ev(0), top("cmd/deploy/push.go"))
	require.Equal(t, ev(1), top("Why do the internal/store tests fail?"))
	require.Equal(t, ev(2), top("Which artists/bands did we see?"))
	require.Equal(t, ev(3), top("Where do we call Getenv?"), "a dotted name's parts count too")
	require.Equal(t, ev(3), top("the yaml settings"))
}

// TestKeyword_AnIdentifiersWordsFindIt: a camel-case identifier is one token to the text search
// parser; its words are lexemes too (migration 000048), so a question in words finds the event
// that names it, and a question naming it still finds it first.
func TestKeyword_AnIdentifiersWordsFindIt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	r := f.append(t, "idents",
		eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s1", Content: "--- FAIL: TestRefundIdempotency (0.31s)", Data: json.RawMessage(
			`{"tool":"bash","arguments":"go test ./payments/...","outcome":"failure","error":"expected 1 row, got 2"}`)},
		msg("s1", "assistant", "The HTTPServer now reads its limits with parseConfig in pkg/userService.go."),
		msg("s2", "user", "We talked about the weather and a test drive."),
		msg("s2", "user", "Our APIs return URLs."),
	)
	f.index(t, "idents")
	top := keywordTop(t, f, "idents")
	ev := func(i int) string { return memoryitem.EventID(r[i].Seq) }
	require.Equal(t, ev(0), top("Why did the refund idempotency test fail?"))
	require.Equal(t, ev(0), top("TestRefundIdempotency"))
	require.Equal(t, ev(1), top("Where do we parse the config?"))
	require.Equal(t, ev(1), top("which server reads limits"))
	require.Equal(t, ev(1), top("the user service"))
	require.Equal(t, ev(3), top("URLs"), "a plural acronym is no identifier to split")
}

// keywordTop returns a function giving the keyword lane's best item in space for a query.
func keywordTop(t *testing.T, f *fixture, space string) func(query string) string {
	return func(query string) string {
		t.Helper()
		got, err := checkout.Keyword(context.Background(), f.pool, checkout.KeywordParams{SpaceID: space, Query: query, K: 5})
		require.NoError(t, err)
		require.NotEmpty(t, got, query)
		return got[0].ItemID
	}
}
