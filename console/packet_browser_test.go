package console_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/console"
	"github.com/zaxy/zaxy/erasure"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// TestConsole_ShowsThePacketAsHandedOutAndSalienceOverTime drives the checkouts page and an
// item's page in headless Chromium: a recorded checkout shows exactly the text the caller
// received, its hash matching; after an item of it is erased, the page says the packet differs,
// names the erasure on that item and shows none of its text; a record without a rendering lists
// its items as not recorded as rendered; and the item's page charts and lists its salience
// after each surfacing, feedback, pin and unpin, then now. Along the way: the timeline filters
// by type, the whole-space graph stays within its bounds, and no date shown wraps.
func TestConsole_ShowsThePacketAsHandedOutAndSalienceOverTime(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	fixture.Append(t, store, "demo",
		ev("message", "s1", "ann", "Alice moved to the Oslo office; loop her in on the Postgres upgrade.", `{"role":"user","name":"Ann"}`, 0),
		ev("message", "s1", "bob", "The Postgres upgrade window is Saturday night, Alice approves the plan.", `{"role":"user"}`, 1),
		ev("fact.asserted", "s1", "ann", "", `{"subject":"Alice","predicate":"works at","object":"Acme"}`, 2),
	)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	project := func() {
		_, err := proj.ProjectSpace(ctx, "demo")
		require.NoError(t, err)
	}
	// A wide space: 120 entities and 60 values, more than the whole-space graph draws.
	var wide []eventloom.NewEvent
	for i := range 60 {
		wide = append(wide, ev("fact.asserted", "w", "ann", "", fmt.Sprintf(`{"subject":"Team %02d","predicate":"reports to","object":"Lead %02d"}`, i, i), 0),
			ev("fact.asserted", "w", "ann", "", fmt.Sprintf(`{"subject":"Team %02d","predicate":"size","value":%d}`, i, i+3), 0))
	}
	fixture.Append(t, store, "wide", wide...)
	project()
	_, err = proj.ProjectSpace(ctx, "wide")
	require.NoError(t, err)
	_, adminToken, err := tokens.Create(ctx, []string{"demo", "wide"}, auth.ScopeAdmin, "console test")
	require.NoError(t, err)
	srv := httptest.NewServer(console.Mount(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil)))
	t.Cleanup(srv.Close)
	b := startBrowser(t, srv)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/console/#/checkouts?space=demo")))
	require.Equal(t, "signed-out", b.waitState(t))
	require.Equal(t, "ready", b.signIn(t, adminToken))

	packet := postJSON(t, srv.URL+"/v1/spaces/demo/checkout", adminToken,
		`{"query":"When is the Postgres upgrade and who is Alice?","max_tokens":600,"session_id":"s1","who_when":true}`)
	surfaced := int64(packet["surfaced_seq"].(float64))
	text := packet["text"].(string)
	require.Contains(t, text, "Saturday night")
	fixture.Append(t, store, "demo",
		ev("feedback.recorded", "s1", "ann", "", `{"target_seqs":[1],"signal":"helpful"}`, 10),
		ev("memory.pinned", "s1", "ann", "", `{"target_seqs":[1]}`, 11),
		ev("memory.unpinned", "s1", "ann", "", `{"target_seqs":[1]}`, 12),
	)
	project()

	// The checkout's page: the packet re-rendered is the text handed out, byte for byte.
	checkoutPage := fmt.Sprintf("#/checkouts?space=demo&session=s1&seq=%d", surfaced)
	start := b.count()
	require.Equal(t, "ready", b.open(t, checkoutPage))
	var shown struct {
		Status, Text string
		Rows         []string
	}
	read := func() {
		b.eval(t, `(() => ({
			Status: document.querySelector('[data-checkout]').dataset.status,
			Text: (document.getElementById('recorded-text') || {}).textContent || '',
			Rows: [...document.querySelectorAll('[data-checkout] table.surfaced tbody tr')].map((tr) => tr.dataset.itemId + ' ' + tr.dataset.status) }))()`, &shown)
	}
	read()
	require.Equal(t, "matches", shown.Status)
	require.Equal(t, text, shown.Text)
	require.NotEmpty(t, shown.Rows)
	for _, r := range shown.Rows {
		require.True(t, strings.HasSuffix(r, " matches"), r)
	}
	b.screenshot(t, "checkout-record")
	time.Sleep(100 * time.Millisecond) // let late console events arrive
	require.Empty(t, b.errorsSince(start, nil))

	// Dates never wrap: each date shown lies on one line.
	onOneLine := func(page string) {
		t.Helper()
		var dates struct {
			Seen    int
			Wrapped []string
		}
		b.eval(t, `(() => {
			const re = /\d{4}-\d\d-\d\d\u00a0\d\d:\d\d:\d\dZ/g, bad = [];
			let seen = 0;
			const walk = document.createTreeWalker(document.getElementById('main'), NodeFilter.SHOW_TEXT);
			for (let n; (n = walk.nextNode());) {
				for (const m of n.textContent.matchAll(re)) {
					seen++;
					const r = document.createRange();
					r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
					if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) bad.push(m[0]);
				}
			}
			return { Seen: seen, Wrapped: bad } })()`, &dates)
		require.Positive(t, dates.Seen, page)
		require.Empty(t, dates.Wrapped, "dates wrapped on %s", page)
	}
	onOneLine("checkouts")

	// The timeline filters by type: only messages, both of them.
	require.Equal(t, "ready", b.open(t, "#/timeline?space=demo&type=message"))
	var typed []string
	b.eval(t, `[...document.querySelectorAll('table.timeline tbody tr')].map((tr) => tr.dataset.seq + ' ' + tr.dataset.type)`, &typed)
	require.Equal(t, []string{"2 message", "1 message"}, typed)
	onOneLine("timeline")

	// The whole-space graph is bounded: 40 of the 120 entities, at most 70 nodes in all.
	require.Equal(t, "ready", b.open(t, "#/graph?space=wide"))
	var nodes, entities int
	var bounds string
	b.eval(t, `document.querySelectorAll('#space-graph [data-node]').length`, &nodes)
	b.eval(t, `document.querySelectorAll('#space-graph [data-node^="e:"]').length`, &entities)
	b.eval(t, `document.getElementById('space-graph-bounds').textContent`, &bounds)
	require.Equal(t, 40, entities)
	require.LessOrEqual(t, nodes, 70)
	require.Greater(t, nodes, entities, "values are drawn too")
	require.Contains(t, bounds, "40 of 120 entities")

	// The item's page: its salience after each reinforcement, then now.
	start = b.count()
	require.Equal(t, "ready", b.open(t, "#/log?space=demo&event=1"))
	var steps []string
	var points int
	b.eval(t, `[...document.querySelectorAll('#salience-history table.salience-steps tbody tr')].map((tr) => tr.dataset.signal)`, &steps)
	b.eval(t, `document.querySelectorAll('#salience-history svg.salience-chart circle').length`, &points)
	require.Equal(t, []string{"occurred", "surfaced", "helpful", "pinned", "unpinned", "now"}, steps)
	require.Equal(t, len(steps), points)
	var pinnedRow bool
	b.eval(t, `document.querySelector('#salience-history tr[data-signal="pinned"] .badge.label') !== null`, &pinnedRow)
	require.True(t, pinnedRow, "the pin's row says pinned")
	b.screenshot(t, "salience")
	onOneLine("log")
	time.Sleep(100 * time.Millisecond)
	require.Empty(t, b.errorsSince(start, nil))

	// Erase the second message: the packet no longer matches, the item names its erasure, and
	// its text is nowhere on the page.
	res, err := erasure.New(pool, store, proj, nil).Erase(ctx, &eventloom.EraseParams{SpaceID: "demo", Seq: 2, Reason: "asked to forget"})
	require.NoError(t, err)
	require.Equal(t, "ready", b.open(t, checkoutPage))
	read()
	require.Equal(t, "differs", shown.Status)
	require.Contains(t, shown.Rows, "ev:2 erased")
	require.Contains(t, shown.Text, fmt.Sprintf("(erased by seq %d)", res.ErasureSeq))
	var page string
	b.eval(t, `document.getElementById('main').innerText`, &page)
	require.NotContains(t, page, "Saturday night")

	// A record without a rendering lists its items, marked not recorded as rendered.
	old := fixture.Append(t, store, "demo", ev("checkout.surfaced", "s1", "zaxy", "",
		`{"purpose":"general","query_sha256":"00","max_tokens":500,"used_tokens":12,"items":[{"item_id":"ev:1","seqs":[1],"tier":"query"}]}`, 20))
	require.Equal(t, "ready", b.open(t, fmt.Sprintf("#/checkouts?space=demo&session=s1&seq=%d", old[0].Seq)))
	read()
	require.Equal(t, "not_recorded_as_rendered", shown.Status)
	require.Equal(t, []string{"ev:1 not_recorded_as_rendered"}, shown.Rows)
	require.Empty(t, shown.Text)
	b.eval(t, `document.getElementById('main').innerText`, &page)
	require.Contains(t, page, "not recorded as rendered")
}
