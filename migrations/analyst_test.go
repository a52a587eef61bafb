package migrations_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/retrospective"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

var sqlBlock = regexp.MustCompile("(?s)```sql\n(.*?)```")

// TestSQLCookbook_RunsAsTheAnalystRole runs every query of docs/sql-cookbook.md against a
// seeded database as a member of zaxy_analyst, which may read the memory views and nothing else.
func TestSQLCookbook_RunsAsTheAnalystRole(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	at := func(s string) *time.Time { v, _ := time.Parse(time.RFC3339, s); return &v }
	ev := func(typ, session, content, data string, occurred *time.Time) eventloom.NewEvent {
		return eventloom.NewEvent{Type: typ, SessionID: session, Content: content, Data: json.RawMessage(data), OccurredAt: occurred}
	}
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "demo", Events: []eventloom.NewEvent{
		ev("fact.asserted", "s1", "", `{"subject":"Alice","predicate":"works at","object":"Acme"}`, at("2024-01-01T00:00:00Z")),
		ev("message", "s1", "Ask Alice and @bob about the billing outage in docs/billing.md", `{"role":"user"}`, nil),
		ev("fact.asserted", "s1", "", `{"subject":"Alice","predicate":"works at","object":"Globex"}`, at("2024-06-01T00:00:00Z")),
		ev("tool_call.completed", "s1", "", `{"tool":"go test","outcome":"failure","error":"exit status 1"}`, nil),
		ev("message", "s1", "Thanks Alice, the billing outage is fixed.", `{"role":"assistant"}`, nil),
	}})
	require.NoError(t, err)
	fixture.Append(t, store, "demo",
		ev("memory.invalidated", "s1", "", `{"target_seq":4,"reason":"flaky runner, not a real failure"}`, nil))
	// One proposal awaiting review and one already rejected: only the first is in the queue.
	_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: "demo", Events: []eventloom.NewEvent{
		ev("proposal.created", "", "", `{"kind":"belief_update","evidence":[2,5],"confidence":0.6,"fact":{"subject":"Alice","predicate":"works at","object":"Initech"}}`, nil),
		ev("proposal.created", "", "", `{"kind":"skill","evidence":[4]}`, nil),
		ev("proposal.rejected", "", "", `{"proposal_seq":8,"reason":"one flaky run is no skill"}`, nil),
	}})
	require.NoError(t, err)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	_, err = proj.ProjectSpace(ctx, "demo")
	require.NoError(t, err)
	builder, err := latent.NewBuilder(ctx, pool, store, latent.Config{})
	require.NoError(t, err)
	_, err = builder.Build(ctx, "demo")
	require.NoError(t, err)
	_, err = checkout.New(pool, store, checkout.Config{Embedder: embedding.NewOffline()}).Checkout(ctx, &checkout.Request{SpaceID: "demo", Query: "billing outage", SessionID: "s1"})
	require.NoError(t, err)
	require.Equal(t, int64(1), res.Receipts[0].Seq)
	// A pin, then the encoding gate on, a message and its repeat (items projected before the
	// gate was on are not compared with).
	fixture.Append(t, store, "demo",
		ev("memory.pinned", "", "", `{"target_seqs":[2],"reason":"the outage notes"}`, nil),
		ev("gate.configured", "", "", `{"mode":"on"}`, nil),
		ev("message", "s2", "The billing fix ships on Friday.", `{"role":"assistant"}`, nil),
		ev("message", "s2", "the billing fix ships on friday", `{"role":"assistant"}`, nil))
	_, err = proj.ProjectSpace(ctx, "demo")
	require.NoError(t, err)
	fixture.Embed(t, pool, "demo")
	// An agent asks memory how deploy fails, finds nothing, and deploy fails: the retrospective
	// pass blames the action for missing evidence.
	_, err = memoryaction.New(pool, store).FailurePrior(ctx, memoryaction.PriorParams{SpaceID: "demo", Tools: []string{"deploy"},
		Recording: memoryaction.Recording{SessionID: "s3"}})
	require.NoError(t, err)
	fixture.Append(t, store, "demo",
		ev("tool_call.completed", "s3", "", `{"tool":"deploy","outcome":"failure","error":"quota exceeded"}`, nil),
		ev("outcome.recorded", "s3", "", `{"session_id":"s3","status":"failure","summary":"the deploy did not go out"}`, nil))
	_, err = proj.ProjectSpace(ctx, "demo")
	require.NoError(t, err)
	_, err = retrospective.NewAssigner(pool, store, nil).Credit(ctx, "demo", "s3", 0)
	require.NoError(t, err)

	admin := db.AdminPool(t)
	_, err = admin.Exec(ctx, `DO $$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cookbook_analyst') THEN
			CREATE ROLE cookbook_analyst LOGIN PASSWORD 'cookbook_analyst' IN ROLE zaxy_analyst;
		END IF; END $$`)
	require.NoError(t, err)
	u, err := url.Parse(db.AppURL)
	require.NoError(t, err)
	u.User = url.UserPassword("cookbook_analyst", "cookbook_analyst")
	conn, err := pgx.Connect(ctx, u.String())
	require.NoError(t, err)
	defer conn.Close(ctx)

	doc, err := os.ReadFile("../docs/sql-cookbook.md")
	require.NoError(t, err)
	blocks := sqlBlock.FindAllStringSubmatch(string(doc), -1)
	require.GreaterOrEqual(t, len(blocks), 10, "the cookbook has at least 10 queries")
	results := make([][][]any, len(blocks))
	for i, b := range blocks {
		rows, err := conn.Query(ctx, b[1])
		require.NoError(t, err, "query %d:\n%s", i+1, b[1])
		results[i], err = pgx.CollectRows(rows, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
		require.NoError(t, err, "query %d", i+1)
		require.NotEmpty(t, results[i], "query %d returns rows on the seeded database:\n%s", i+1, b[1])
	}
	require.Equal(t, "Globex", results[0][0][2], "Alice works at Globex now")
	require.Equal(t, "Acme", results[1][0][0], "on 1 March 2024 Alice worked at Acme")
	require.Len(t, results[2], 2, "two versions of works at")
	require.Equal(t, "flaky runner, not a real failure", results[8][0][3])
	require.Len(t, results[13], 1, "the rejected proposal is not in the review queue")
	require.EqualValues(t, 7, results[13][0][0])
	require.Equal(t, "Alice works at Initech", results[13][0][5])
	require.Equal(t, "Ask Alice and @bob about the billing outage in docs/billing.md\nThanks Alice, the billing outage is fixed.", results[13][0][8])
	require.Len(t, results[14], 1, "one current episode; the one citing the invalidated tool call is stale")
	require.Equal(t, "episode", results[14][0][0])
	require.NotContains(t, results[14][0][2], int64(4), "the invalidated event is no source")
	pinned := false
	for _, r := range results[15] {
		if r[0] == "ev:2" {
			pinned = r[7].(bool)
		}
	}
	require.True(t, pinned, "the pinned message is listed as pinned")
	require.Len(t, results[16], 1)
	require.Equal(t, "ev:13", results[16][0][0], "the repeated message")
	require.EqualValues(t, 1, results[16][0][1])
	require.Equal(t, []any{"ev:14"}, results[16][0][3])
	require.Len(t, results[17], 1, "the one current episode")
	require.Equal(t, "zaxy-offline@1", results[17][0][1])
	require.Equal(t, results[17][0][2], results[17][0][3], "every source embedded")
	d, err := results[17][0][4].(pgtype.Numeric).Float64Value()
	require.NoError(t, err)
	require.Zero(t, d.Float64, "an episode is at distance 0 from itself")
	require.Len(t, results[18], 1, "the one judged memory action")
	require.Equal(t, "retrieve_failure_prior", results[18][0][1])
	require.Equal(t, "s3", results[18][0][2])
	require.Equal(t, "unhelpful", results[18][0][3])
	require.Equal(t, "proposed", results[18][0][7], "the pass proposes its verdicts for review by default")
	var bookkeeping bool
	require.NoError(t, conn.QueryRow(ctx, `SELECT bookkeeping FROM memory.events WHERE space_id = 'demo' AND type = 'memory_action.surfaced'`).Scan(&bookkeeping))
	require.True(t, bookkeeping, "a memory action's record is Zaxy's bookkeeping, as a checkout's is")

	// The analyst sees the views and nothing else.
	for _, q := range []string{`SELECT count(*) FROM events`, `SELECT count(*) FROM facts`, `SELECT count(*) FROM river_job`} {
		_, err := conn.Exec(ctx, q)
		require.ErrorContains(t, err, "permission denied", q)
	}
	_, err = conn.Exec(ctx, `INSERT INTO events (space_id, type) VALUES ('demo', 'note')`)
	require.ErrorContains(t, err, "permission denied")
}
