package console_test

import (
	"context"
	"encoding/json"
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
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// startBrowser opens one headless Chromium tab whose console messages are collected.
func startBrowser(t *testing.T, srv *httptest.Server) *browserEnv {
	t.Helper()
	browser := chromiumPath(t)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000), chromedp.Flag("disable-gpu", true))...)
	t.Cleanup(cancelAlloc)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	tabCtx, cancelTimeout := context.WithTimeout(tabCtx, 4*time.Minute)
	t.Cleanup(cancelTimeout)
	b := &browserEnv{srv: srv, ctx: tabCtx}
	messages := chromedp.Console(tabCtx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.logged = append(b.logged, m)
			b.mu.Unlock()
		}
	}()
	return b
}

// loggedEvent is one event as the database holds it.
type loggedEvent struct {
	Seq     int64
	Type    string
	Actor   string
	Data    map[string]any
	Content string
}

// TestConsole_ActsOnMemoryAndShowsWhatLanded drives the console's actions in headless Chromium:
// pin, unpin, feedback, invalidate and erase an event from the log page, defer and reject
// proposals from the review queue; each appends exactly its event (checked in the database)
// and the log shows it as it lands. The checkouts page lists a recorded checkout with the
// items its packet held, the log filters by type, and with auth off there is no token box.
func TestConsole_ActsOnMemoryAndShowsWhatLanded(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	fixture.Append(t, store, "demo",
		ev("message", "s1", "ann", "Alice moved to the Oslo office; loop her in on the Postgres upgrade.", `{"role":"user"}`, 0),
		ev("fact.asserted", "s1", "ann", "", `{"subject":"Alice","predicate":"works at","object":"Acme"}`, 1),
		ev("message", "s2", "bob", "My password hint is the name of my first cat, Whiskers.", `{"role":"user"}`, 2),
		ev("proposal.created", "s2", "agent", "", `{"kind":"belief_update","evidence":[1],"confidence":0.7,"fact":{"subject":"Alice","predicate":"works in","object":"Oslo"}}`, 3),
		ev("proposal.created", "s2", "agent", "", `{"kind":"skill","evidence":[1,2]}`, 4),
	)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	_, err = proj.ProjectSpace(ctx, "demo")
	require.NoError(t, err)
	_, writeToken, err := tokens.Create(ctx, []string{"demo"}, auth.ScopeWrite, "console test")
	require.NoError(t, err)
	_, adminToken, err := tokens.Create(ctx, []string{"demo"}, auth.ScopeAdmin, "console test")
	require.NoError(t, err)
	srv := httptest.NewServer(console.Mount(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil)))
	t.Cleanup(srv.Close)
	b := startBrowser(t, srv)

	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/console/#/log?space=demo")))
	require.Equal(t, "signed-out", b.waitState(t))
	require.Equal(t, "ready", b.signIn(t, writeToken))

	head := func() int64 {
		var seq int64
		require.NoError(t, pool.QueryRow(ctx, `SELECT max(seq) FROM events WHERE space_id = 'demo'`).Scan(&seq))
		return seq
	}
	// newEvents are the events appended after seq, as the database holds them.
	newEvents := func(after int64) []loggedEvent {
		rows, err := pool.Query(ctx, `SELECT seq, type, actor, data, content FROM events WHERE space_id = 'demo' AND seq > $1 ORDER BY seq`, after)
		require.NoError(t, err)
		defer rows.Close()
		var out []loggedEvent
		for rows.Next() {
			var e loggedEvent
			var data []byte
			require.NoError(t, rows.Scan(&e.Seq, &e.Type, &e.Actor, &data, &e.Content))
			require.NoError(t, json.Unmarshal(data, &e.Data))
			out = append(out, e)
		}
		require.NoError(t, rows.Err())
		return out
	}
	var actOn func(hash, target, action, reason, signal string, confirmErase bool) (int64, string)
	// act opens event seq in the log, fills the reason (and signal) and clicks the action; it
	// returns the state of the result box: the landed event's seq, or the error shown.
	act := func(seq int64, action, reason, signal string, confirmErase bool) (landed int64, alert string) {
		t.Helper()
		return actOn(fmt.Sprintf("#/log?space=demo&event=%d", seq), fmt.Sprintf("ev:%d", seq), action, reason, signal, confirmErase)
	}
	actOn = func(hash, target, action, reason, signal string, confirmErase bool) (landed int64, alert string) {
		t.Helper()
		start := b.count()
		require.Equal(t, "ready", b.open(t, hash))
		var ok bool
		b.eval(t, fmt.Sprintf(`(() => {
			const p = document.querySelector('[data-actions-for="%s"]');
			p.querySelector('input[name=reason]').value = %q;
			p.querySelector('select[name=signal]').value = %q || 'helpful';
			const c = p.querySelector('input[name=confirm-erase]'); if (c) c.checked = %t;
			document.body.dataset.state = 'navigating';
			p.querySelector('button[data-action=%q]').click();
			return true })()`, target, reason, signal, confirmErase, action), &ok)
		// Either the action landed and the log re-rendered, or the panel shows an error.
		var out struct {
			Landed int64
			Alert  string
		}
		_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](`(() => {
			if (document.querySelector('#action-result [role=alert]')) return true;
			return document.body.dataset.state === 'ready' && document.querySelector('#landed') !== null })()`,
			chromedp.WithPollingTimeout(20*time.Second)))
		require.NoError(t, err, action)
		b.eval(t, `(() => {
			const a = document.querySelector('#action-result [role=alert]');
			const row = document.querySelector('table.log tr.landed');
			return { Landed: row ? Number(row.dataset.seq) : 0, Alert: a ? a.textContent : '' } })()`, &out)
		require.Empty(t, b.errorsSince(start, func(m chromedp.ConsoleMessage) bool {
			return m.Source == "network" && out.Alert != "" // the refused call itself is logged by the browser
		}), action)
		return out.Landed, out.Alert
	}

	// Pin, unpin, feedback and invalidate event 1: each appends exactly its event, as the
	// console's actor, and the log's newest row is that event, marked as landed.
	cases := []struct {
		action, reason, signal, typ string
		data                        map[string]any
	}{
		{"pin", "keep the move", "", "memory.pinned", map[string]any{"target_seqs": []any{1.0}, "reason": "keep the move"}},
		{"unpin", "", "", "memory.unpinned", map[string]any{"target_seqs": []any{1.0}}},
		{"feedback", "she moved again", "outdated", "feedback.recorded", map[string]any{"target_seqs": []any{1.0}, "signal": "outdated", "comment": "she moved again"}},
		{"invalidate", "wrong office", "", "memory.invalidated", map[string]any{"target_seq": 1.0, "reason": "wrong office"}},
	}
	var eventSignals []int64
	for _, c := range cases {
		before := head()
		landed, alert := act(1, c.action, c.reason, c.signal, false)
		eventSignals = append([]int64{landed}, eventSignals...)
		require.Empty(t, alert, c.action)
		got := newEvents(before)
		require.Len(t, got, 1, c.action)
		require.Equal(t, c.typ, got[0].Type, c.action)
		require.Equal(t, "console", got[0].Actor, c.action)
		require.Equal(t, c.data, got[0].Data, c.action)
		require.Equal(t, got[0].Seq, landed, "%s: the log marks the appended event as landed", c.action)
		var rowType string
		b.eval(t, fmt.Sprintf(`document.querySelector('table.log tbody tr[data-seq="%d"]').dataset.type`, landed), &rowType)
		require.Equal(t, c.typ, rowType)
	}

	// The timeline's event page acts the same way, and the action lands in the log.
	before := head()
	landed, alert := actOn("#/timeline?space=demo&event=2", "ev:2", "feedback", "", "helpful", false)
	require.Empty(t, alert)
	got := newEvents(before)
	require.Len(t, got, 1)
	require.Equal(t, "feedback.recorded", got[0].Type)
	require.Equal(t, map[string]any{"target_seqs": []any{2.0}, "signal": "helpful"}, got[0].Data)
	require.Equal(t, got[0].Seq, landed)

	// The event's page lists those four, newest first: the signals its salience comes from.
	signalsOn := func(hash string) []int64 {
		require.Equal(t, "ready", b.open(t, hash))
		var seqs []int64
		b.eval(t, `[...document.querySelectorAll('#signals [data-signal-seq]')].map((li) => Number(li.dataset.signalSeq))`, &seqs)
		return seqs
	}
	require.Equal(t, eventSignals, signalsOn("#/log?space=demo&event=1"))

	// Pinning and giving feedback on a fact version from its page name it by item id.
	var factID string
	require.NoError(t, pool.QueryRow(ctx, `SELECT fact_id FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'demo') AND status = 'current' LIMIT 1`).Scan(&factID))
	var factSignals []int64
	for _, c := range []struct {
		action, signal, typ string
		data                map[string]any
	}{
		{"pin", "", "memory.pinned", map[string]any{"item_ids": []any{"fact:" + factID}, "reason": "a fact to keep"}},
		{"feedback", "helpful", "feedback.recorded", map[string]any{"item_ids": []any{"fact:" + factID}, "signal": "helpful", "comment": "a fact to keep"}},
	} {
		before := head()
		landed, alert := actOn("#/entity?space=demo&fact="+factID, "fact:"+factID, c.action, "a fact to keep", c.signal, false)
		require.Empty(t, alert, c.action)
		got := newEvents(before)
		require.Len(t, got, 1, c.action)
		require.Equal(t, c.typ, got[0].Type)
		require.Equal(t, c.data, got[0].Data)
		require.Equal(t, got[0].Seq, landed)
		factSignals = append([]int64{landed}, factSignals...)
	}
	require.Equal(t, factSignals, signalsOn("#/entity?space=demo&fact="+factID))

	// Invalidating with no reason is refused by the API, and the panel says why; nothing is appended.
	before = head()
	_, alert = act(2, "invalidate", "", "", false)
	require.Contains(t, alert, "reason")
	require.Empty(t, newEvents(before))

	// Erasing with a write token is refused (admin only), and says so.
	_, alert = act(3, "erase", "secret in a message", "", true)
	require.Contains(t, alert, "forbidden")
	require.Empty(t, newEvents(before))

	// Deferring and rejecting proposals from the review queue append proposal.deferred and
	// proposal.rejected, which the log then lists.
	for _, d := range []struct {
		seq         int64
		action, typ string
		decided     string
	}{{4, "defer", "proposal.deferred", "deferred"}, {5, "reject", "proposal.rejected", "rejected"}} {
		require.Equal(t, "ready", b.open(t, "#/review?space=demo"))
		before := head()
		require.NoError(t, chromedp.Do(b.ctx,
			chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-proposal="%d"] button[data-action=%q]`, d.seq, d.action))),
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-proposal="%d"] [data-decided=%q]`, d.seq, d.decided)))))
		got := newEvents(before)
		require.Len(t, got, 1)
		require.Equal(t, d.typ, got[0].Type)
		require.Equal(t, float64(d.seq), got[0].Data["proposal_seq"])
		require.Equal(t, "ready", b.open(t, "#/log?space=demo&type="+d.typ))
		var seqs []int64
		b.eval(t, `[...document.querySelectorAll('table.log tbody tr')].map((tr) => Number(tr.dataset.seq))`, &seqs)
		require.Equal(t, []int64{got[0].Seq}, seqs, "the log filtered by type lists exactly the decision")
	}

	// Erasing with an admin token appends erasure.recorded and blanks the event.
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#token-forget`))))
	require.Equal(t, "signed-out", b.waitState(t))
	require.Equal(t, "ready", b.signIn(t, adminToken))
	before = head()
	landed, alert = act(3, "erase", "held a password hint", "", true)
	require.Empty(t, alert)
	got = newEvents(before)
	require.Len(t, got, 1)
	require.Equal(t, "erasure.recorded", got[0].Type)
	require.Equal(t, got[0].Seq, landed)
	var content string
	require.NoError(t, pool.QueryRow(ctx, `SELECT content FROM events WHERE space_id = 'demo' AND seq = 3`).Scan(&content))
	require.Empty(t, content)
	var text string
	b.eval(t, `document.getElementById('main').innerText`, &text)
	require.NotContains(t, text, "Whiskers")
	var erasedBy int64
	var eraseOffered bool
	b.eval(t, `Number(document.querySelector('#event-detail [data-erased-by]').dataset.erasedBy)`, &erasedBy)
	b.eval(t, `document.querySelector('#event-detail button[data-action=erase]') !== null`, &eraseOffered)
	require.Equal(t, landed, erasedBy, "the event's page says which erasure erased it")
	require.False(t, eraseOffered, "an erased event cannot be erased again")
	b.screenshot(t, "log")

	// A recorded checkout in session s1 is on the checkouts page with the items its packet held.
	packet := postJSON(t, srv.URL+"/v1/spaces/demo/checkout", adminToken, `{"query":"Where does Alice work?","max_tokens":300,"session_id":"s1"}`)
	surfaced := int64(packet["surfaced_seq"].(float64))
	require.Positive(t, surfaced)
	var want []string
	for _, tier := range packet["tiers"].([]any) {
		for _, it := range tier.(map[string]any)["items"].([]any) {
			want = append(want, it.(map[string]any)["item_id"].(string))
		}
	}
	require.NotEmpty(t, want)
	require.Equal(t, "ready", b.open(t, fmt.Sprintf("#/checkouts?space=demo&session=s1&seq=%d", surfaced)))
	var listed []int64
	b.eval(t, `[...document.querySelectorAll('table.checkouts tbody tr')].map((tr) => Number(tr.dataset.seq))`, &listed)
	require.Equal(t, []int64{surfaced}, listed)
	var shown []string
	b.eval(t, `[...document.querySelectorAll('[data-checkout] table.surfaced tbody tr')].map((tr) => tr.dataset.itemId)`, &shown)
	require.Equal(t, want, shown)
	b.screenshot(t, "checkouts")
	// The log shows the record itself (GET /items never shows bookkeeping), linking to it.
	start := b.count()
	require.Equal(t, "ready", b.open(t, fmt.Sprintf("#/log?space=demo&event=%d", surfaced)))
	var toCheckout string
	b.eval(t, fmt.Sprintf(`document.querySelector('#event-detail [data-event="%d"] #to-checkout').getAttribute('href')`, surfaced), &toCheckout)
	require.Contains(t, toCheckout, fmt.Sprintf("seq=%d", surfaced))
	require.Empty(t, b.errorsSince(start, nil))
	// The log's event page lists the checkouts that surfaced the event.
	var surfacedEvent string
	for _, id := range want {
		if strings.HasPrefix(id, "ev:") {
			surfacedEvent = strings.TrimPrefix(id, "ev:")
			break
		}
	}
	require.NotEmpty(t, surfacedEvent, "the packet holds an event")
	require.Equal(t, "ready", b.open(t, "#/log?space=demo&event="+surfacedEvent))
	var surfacedBy []int64
	b.eval(t, `[...document.querySelectorAll('#surfaced-in [data-checkout-seq]')].map((li) => Number(li.dataset.checkoutSeq))`, &surfacedBy)
	require.Equal(t, []int64{surfaced}, surfacedBy)

	// Find ranks as POST /query does, without recording; its filters narrow the ranked items.
	headBefore := head()
	ranked := postJSON(t, srv.URL+"/v1/spaces/demo/query", adminToken, `{"query":"Alice office","limit":100,"no_record":true}`)
	var rankedIDs, s1IDs []string
	for _, it := range ranked["items"].([]any) {
		m := it.(map[string]any)
		rankedIDs = append(rankedIDs, m["item_id"].(string))
		if m["session_id"] == "s1" {
			s1IDs = append(s1IDs, m["item_id"].(string))
		}
	}
	require.NotEmpty(t, s1IDs)
	require.Equal(t, "ready", b.open(t, "#/find?space=demo&q=Alice+office"))
	var found []string
	b.eval(t, `[...document.querySelectorAll('table.found tbody tr')].map((tr) => tr.dataset.itemId)`, &found)
	require.Equal(t, rankedIDs, found)
	b.screenshot(t, "find")
	require.Equal(t, "ready", b.open(t, "#/find?space=demo&q=Alice+office&session=s1"))
	found = nil
	b.eval(t, `[...document.querySelectorAll('table.found tbody tr')].map((tr) => tr.dataset.itemId)`, &found)
	require.Equal(t, s1IDs, found)
	require.Equal(t, headBefore, head(), "finding records nothing")
	// The keyword search of the log keeps the events holding every word.
	require.Equal(t, "ready", b.open(t, "#/log?space=demo&q=oslo+postgres"))
	var keyword []int64
	b.eval(t, `[...document.querySelectorAll('table.log tbody tr')].map((tr) => Number(tr.dataset.seq))`, &keyword)
	require.Equal(t, []int64{1}, keyword)
	// Another session's checkouts are not listed for s1.
	require.Equal(t, "ready", b.open(t, "#/checkouts?space=demo&session=s2"))
	listed = nil
	b.eval(t, `[...document.querySelectorAll('table.checkouts tbody tr')].map((tr) => Number(tr.dataset.seq))`, &listed)
	require.Empty(t, listed)

	// With auth off there is no token to type: the token box is hidden.
	open := httptest.NewServer(console.Mount(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store}, nil)))
	t.Cleanup(open.Close)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(open.URL+"/console/#/spaces")))
	require.Equal(t, "ready", b.waitState(t))
	var hidden bool
	b.eval(t, `document.getElementById('token-form').hidden`, &hidden)
	require.True(t, hidden)
}
