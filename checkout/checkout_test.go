package checkout_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	testfixture "github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/validation"
)

type fixture struct {
	log   *testfixture.Log
	pool  *pgxpool.Pool
	store *eventloom.Store
	proj  *projection.Projector
	svc   *checkout.Service
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	log := testfixture.New(t, pool, projection.Config{})
	return &fixture{log: log, pool: pool, store: log.Store, proj: log.Proj, svc: checkout.New(pool, log.Store, checkout.Config{Embedder: embedding.NewOffline()})}
}

func (f *fixture) append(t *testing.T, space string, events ...eventloom.NewEvent) []eventloom.Receipt {
	t.Helper()
	return f.log.Append(t, space, events...)
}

// index projects and embeds a space, as the workers would.
func (f *fixture) index(t *testing.T, space string) {
	t.Helper()
	f.log.Index(t, space)
}

func msg(session, role, text string) eventloom.NewEvent {
	return eventloom.NewEvent{Type: "message", SessionID: session, Content: text, Data: json.RawMessage(fmt.Sprintf(`{"role":%q}`, role))}
}

func fact(subject, predicate, object string, at string) eventloom.NewEvent {
	t, _ := time.Parse(time.RFC3339, at)
	return eventloom.NewEvent{Type: "fact.asserted", OccurredAt: &t,
		Data: json.RawMessage(fmt.Sprintf(`{"subject":%q,"predicate":%q,"object":%q}`, subject, predicate, object))}
}

// seedSpace is a small project memory: facts that changed, a failing tool, conversation.
func seedSpace(t *testing.T, f *fixture, space string) {
	f.append(t, space,
		fact("deploy pipeline", "runs on", "Jenkins", "2024-01-01T00:00:00Z"),
		fact("deploy pipeline", "runs on", "GitHub Actions", "2024-05-01T00:00:00Z"),
		fact("Dana", "owns", "deploy pipeline", "2024-01-01T00:00:00Z"),
		fact("Dana", "prefers", "small pull requests", "2024-01-01T00:00:00Z"),
		msg("s1", "user", "The staging deploy failed again with a timeout while pushing the image to the registry."),
		msg("s1", "assistant", "The registry timeout comes from the 30s client limit in cmd/deploy/push.go; raising it to 120s fixed the last failure."),
		eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s1", Content: "ran the deploy",
			Data: json.RawMessage(`{"tool":"make deploy","outcome":"failure","error":"context deadline exceeded pushing image"}`)},
		msg("s2", "user", "Let's plan the billing service migration for next quarter."),
		msg("s2", "user", strings.Repeat("Background chatter about lunch options and the weather. ", 60)+"The billing migration needs a schema freeze first."),
	)
}

func TestCheckout_CitesEveryClaimWithinBudget(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "proj"
	seedSpace(t, f, space)
	f.index(t, space)

	for _, budget := range []int{200, 500, 2000} {
		p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "why did the deploy fail with a timeout?", MaxTokens: budget, SessionID: "s1"})
		require.NoError(t, err)
		for name, l := range p.Diagnostics.Lanes {
			require.Empty(t, l.Error, "lane %s", name)
		}
		require.Positive(t, p.Diagnostics.Lanes[checkout.LaneRecent].Count, "the session's recent events are a lane")
		require.LessOrEqual(t, p.Budget.Used, budget, "budget %d", budget)
		require.Equal(t, checkout.EstimateTokens(p.Text), p.Budget.Used)
		n := 0
		for _, tier := range p.Tiers {
			for _, it := range tier.Items {
				n++
				require.NotEmpty(t, it.Citations, it.ItemID)
				for _, c := range it.Citations {
					var hash []byte
					require.NoError(t, f.pool.QueryRow(ctx, `SELECT hash FROM events WHERE space_id = $1 AND seq = $2`, space, c.Seq).Scan(&hash))
					require.Equal(t, []byte(c.Hash), hash, "citation of %s", it.ItemID)
				}
				require.Contains(t, p.Text, fmt.Sprintf("[%d] ", it.Ref))
			}
		}
		require.NotZero(t, n)
		if budget == 2000 {
			require.Equal(t, "debugging", p.Purpose)
			require.True(t, p.PurposeInferred)
			require.Contains(t, p.Text, "120s", "the fix is in the packet")
			require.NotZero(t, p.SurfacedSeq)
		}
	}
	res, err := f.store.Verify(ctx, space)
	require.NoError(t, err)
	require.True(t, res.OK)
}

func TestCheckout_StablePrefixIsByteIdenticalAcrossCalls(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "prefix"
	seedSpace(t, f, space)
	f.index(t, space)
	var prefix string
	for i, q := range []string{"deploy timeout", "billing migration plan", "who owns the deploy pipeline?"} {
		p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q, SessionID: "s1"})
		require.NoError(t, err)
		require.Positive(t, p.Diagnostics.StablePrefixBytes)
		got := p.Text[:p.Diagnostics.StablePrefixBytes]
		if i == 0 {
			prefix = got
			require.Contains(t, prefix, "deploy pipeline runs on GitHub Actions")
			continue
		}
		require.Equal(t, prefix, got, "query %q", q)
	}
}

func TestCheckout_SurfacesSupersededFactsAsWarnings(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "warn"
	seedSpace(t, f, space)
	f.index(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "what does the deploy pipeline run on?"})
	require.NoError(t, err)
	var found bool
	for _, w := range p.Warnings {
		if w.Code == "superseded" && strings.Contains(w.Message, "Jenkins") {
			found = true
			require.NotEmpty(t, w.Citations)
		}
	}
	require.True(t, found, "the Jenkins version is surfaced as a warning: %+v", p.Warnings)

	// Asked as of March 2024, Jenkins is the valid fact.
	march := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	p, err = f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "what does the deploy pipeline run on?", AsOf: &march})
	require.NoError(t, err)
	require.Contains(t, p.Text, "deploy pipeline runs on Jenkins")
}

func TestCheckout_FindsAnEventAppendedAMomentAgoBeforeProjection(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "fresh"
	seedSpace(t, f, space)
	f.index(t, space)
	r := f.append(t, space, msg("s3", "user", "The new Kafka cluster lives in zone europe-north1."))
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "where is the Kafka cluster?"})
	require.NoError(t, err)
	require.Positive(t, p.Diagnostics.ProjectionLag)
	require.Contains(t, p.Text, "europe-north1")
	require.Contains(t, p.Text, fmt.Sprintf("seq %d", r[0].Seq))
}

func TestCheckout_RecordsSurfacingWhichIsNeverRetrieved(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "surf"
	seedSpace(t, f, space)
	f.index(t, space)
	p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: "registry timeout"})
	require.NoError(t, err)
	var typ, data string
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT type, data::text FROM events WHERE space_id = $1 AND seq = $2`, space, p.SurfacedSeq).Scan(&typ, &data))
	require.Equal(t, "checkout.surfaced", typ)
	require.Contains(t, data, "ev:")
	f.index(t, space)
	q, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: "registry timeout surfaced checkout items", Limit: 200})
	require.NoError(t, err)
	for _, it := range q.Items {
		require.NotEqual(t, "checkout.surfaced", it.Kind)
	}
}

func TestCheckout_LanesCanBeSwitchedOffAndReportScores(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "lanes"
	seedSpace(t, f, space)
	f.index(t, space)
	q, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: "registry timeout", DisableLanes: []string{"vector", "recent"}})
	require.NoError(t, err)
	require.True(t, q.Lanes["vector"].Off)
	require.NotEmpty(t, q.Items)
	for _, it := range q.Items {
		require.NotContains(t, it.Components, "vector")
		var sum float64
		for _, c := range it.Components {
			sum += c.Score
		}
		require.Positive(t, sum)
	}
}

func TestCheckout_RejectsBadInput(t *testing.T) {
	f := newFixture(t)
	f.append(t, "bad", msg("", "user", "hello"))
	for _, tc := range []struct {
		req   checkout.Request
		field string
	}{
		{checkout.Request{SpaceID: "bad", Query: "  "}, "query"},
		{checkout.Request{SpaceID: "bad", Query: "x", MaxTokens: 10}, "max_tokens"},
		{checkout.Request{SpaceID: "bad", Query: "x", MaxTokens: 100000}, "max_tokens"},
		{checkout.Request{SpaceID: "bad", Query: "x", Purpose: "gossip"}, "purpose"},
		{checkout.Request{SpaceID: "bad", Query: "x", DisableLanes: []string{"telepathy"}}, "disable_lanes"},
		{checkout.Request{SpaceID: "Bad Space", Query: "x"}, "space"},
	} {
		_, err := f.svc.Checkout(context.Background(), &tc.req)
		var ve *validation.Error
		require.ErrorAs(t, err, &ve, tc.field)
		require.Equal(t, tc.field, ve.Field)
	}
	// A space with no events is an empty space: an empty packet, and no record that would
	// create it.
	p, err := f.svc.Checkout(context.Background(), &checkout.Request{SpaceID: "nope", Query: "x"})
	require.NoError(t, err)
	require.Zero(t, p.SurfacedSeq)
	for _, tier := range p.Tiers {
		require.Empty(t, tier.Items, tier.Name)
	}
	exists, err := f.store.SpaceExists(context.Background(), "nope")
	require.NoError(t, err)
	require.False(t, exists, "a checkout recorded a checkout.surfaced in a space with no events")
}

// TestInferPurpose is the labelled set the purpose rules are measured against: requests of
// each purpose, and questions about past conversations, which must stay general (an everyday
// verb or a question word names no purpose).
func TestInferPurpose(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"why does the build fail?", "debugging"},
		{"the deploy failed with a timeout", "debugging"},
		{"stack trace from the projector panic", "debugging"},
		{"review the pull request for billing", "review"},
		{"any feedback on the diff?", "review"},
		{"refactor the projector", "refactoring"},
		{"clean up the lanes code", "refactoring"},
		{"plan next steps for the migration", "planning"},
		{"Let's plan the billing service migration for next quarter", "planning"},
		{"what should we prioritize this sprint?", "planning"},
		{"implement the checkout endpoint", "implementation"},
		{"add a test for the exact lane", "implementation"},
		{"how do I write a migration for the entities table?", "implementation"},
		{"please build the docker image", "implementation"},
		{"what do we know about Dana?", "exploration"},
		{"give me an overview of the search code", "exploration"},
		{"tell me about the billing service", "exploration"},
		{"deploy pipeline", "general"},
		{"When did Caroline go to the support group?", "general"},
		{"What did Melanie paint last year?", "general"},
		{"Who did Jon build the shelf with?", "general"},
		{"What does Gina plan to do after the course?", "general"},
		{"When did she write her first poem?", "general"},
		{"How many days did I spend on the trip to Lisbon?", "general"},
		{"What is the name of the cafe we went to?", "general"},
		{"Where did I add the new plants in my garden?", "general"},
		{"Which book did you recommend for learning to code?", "general"},
		{"How long is my daily commute to work?", "general"},
	} {
		require.Equal(t, c.want, checkout.InferPurpose(c.q), c.q)
	}
}

func TestCheckout_NeverExceedsTheBudget(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "budget"
	var events []eventloom.NewEvent
	for i := 0; i < 300; i++ {
		events = append(events, msg(fmt.Sprintf("s%d", i%7), []string{"user", "assistant"}[i%2],
			strings.Repeat(fmt.Sprintf("turn %d talks about deploys, billing, search and the registry timeout. ", i), 1+i%9)))
	}
	f.append(t, space, events...)
	f.index(t, space)
	for _, budget := range []int{200, 333, 1000, 2000, 4096} {
		for _, q := range []string{"registry timeout", "billing search deploys", "turn 17", "what happened in session s3?"} {
			p, err := f.svc.Checkout(ctx, &checkout.Request{SpaceID: space, Query: q, MaxTokens: budget, SessionID: "s3", NoRecord: true})
			require.NoError(t, err)
			require.LessOrEqual(t, p.Budget.Used, budget, "%q at %d", q, budget)
			require.Equal(t, checkout.EstimateTokens(p.Text), p.Budget.Used)
		}
	}
}

func TestQuery_FirstPersonQuestionsFavourTheAskersOwnTurns(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.append(t, "speak",
		msg("s1", "assistant", "Keeping a sourdough starter in the fridge and feeding it weekly works well for most bakers."),
		msg("s1", "user", "I keep my sourdough starter in the fridge and feed it weekly."),
		msg("s1", "user", "Unrelated: the bike needs new brake pads."),
		// Only messages have speakers: a note with data.role is never boosted.
		eventloom.NewEvent{Type: "note", Content: "The pantry holds spare flour for the starter.", Data: json.RawMessage(`{"role":"user"}`)},
	)
	f.index(t, "speak")
	byRole := func(res *checkout.QueryResult) map[string]*checkout.Item {
		out := map[string]*checkout.Item{}
		for _, it := range res.Items {
			if strings.Contains(it.Text, "sourdough") {
				out[map[bool]string{true: "user", false: "assistant"}[strings.HasPrefix(it.Text, "I keep")]] = it
			}
		}
		return out
	}
	// The lanes' parts, which the boosts multiply; the session context is added after them.
	sum := func(it *checkout.Item) float64 {
		var s float64
		for name, c := range it.Components {
			if name != checkout.ComponentSession {
				s += c.Score
			}
		}
		return s
	}
	session := func(it *checkout.Item) float64 { return it.Components[checkout.ComponentSession].Score }

	res, err := f.svc.Query(ctx, &checkout.Request{SpaceID: "speak", Query: "Where do I keep my sourdough starter?", Purpose: checkout.PurposeGeneral})
	require.NoError(t, err)
	require.Equal(t, "user", res.Speaker)
	got := byRole(res)
	require.Len(t, got, 2)
	require.InDelta(t, sum(got["user"])*1.5+session(got["user"]), got["user"].Score, 1e-9, "the asker's turn is boosted")
	require.InDelta(t, sum(got["assistant"])+session(got["assistant"]), got["assistant"].Score, 1e-9, "the assistant's turn is not")
	require.Equal(t, got["user"].ItemID, res.Items[0].ItemID)
	noted := false
	for _, it := range res.Items {
		if it.Kind == "note" {
			require.InDelta(t, sum(it)+session(it), it.Score, 1e-9, "a note has no speaker")
			noted = true
		}
	}
	require.True(t, noted, "the note is ranked")

	// A question about what the assistant said, or in no person, boosts nobody.
	for _, q := range []string{"What did you suggest about the sourdough starter?", "Where is the sourdough starter kept?"} {
		res, err = f.svc.Query(ctx, &checkout.Request{SpaceID: "speak", Query: q, Purpose: checkout.PurposeGeneral})
		require.NoError(t, err)
		require.Empty(t, res.Speaker, q)
		for _, it := range byRole(res) {
			require.InDelta(t, sum(it)+session(it), it.Score, 1e-9, q)
		}
	}
}

// TestLaneVerbatim_ReadsPastTheKeywordLanesWatermark: the keyword lane reads the watermark
// before its query and the verbatim lane reads past that one, so an event the projector
// commits between the two lanes' snapshots is still found by the verbatim lane (past the
// current watermark alone, neither lane would see it).
func TestLaneVerbatim_ReadsPastTheKeywordLanesWatermark(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.append(t, "race", msg("s1", "user", "the staging database password rotates on Fridays"))
	f.index(t, "race")
	var before int64
	require.NoError(t, f.pool.QueryRow(ctx, `SELECT projected_seq FROM projection_watermarks WHERE space_id = 'race'`).Scan(&before))
	rc := f.append(t, "race", msg("s1", "user", "the quokka sticker goes on the laptop lid"))
	f.index(t, "race") // projected after the keyword lane read its watermark

	items, err := f.svc.LaneVerbatimPast(ctx, "race", "where does the quokka sticker go?", &before)
	require.NoError(t, err)
	require.Equal(t, []string{memoryitem.EventID(rc[0].Seq)}, items)
	items, err = f.svc.LaneVerbatimPast(ctx, "race", "where does the quokka sticker go?", nil)
	require.NoError(t, err)
	require.Empty(t, items, "past the current watermark the event is gone from the verbatim lane")
}
