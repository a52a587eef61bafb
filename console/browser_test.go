package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/console"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// screenshotDir is where the browser test writes a screenshot of each page (docs/console.md).
const screenshotDir = "../docs/console"

// chromiumPath finds the browser, installing Debian's chromium through
// testcontainers/chromium.sh when none is on PATH: a machine without one gets one, never a
// skipped test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("bash", filepath.Join("..", "testcontainers", "chromium.sh")).Output()
	require.NoError(t, err, "testcontainers/chromium.sh could not provide chromium")
	return strings.TrimSpace(string(out))
}

// browserEnv is one seeded database, the API and console behind bearer auth, and one headless
// browser tab whose console messages are collected.
type browserEnv struct {
	srv    *httptest.Server
	ctx    context.Context
	mu     sync.Mutex
	logged []chromedp.ConsoleMessage
}

// errorsSince returns the console errors and exceptions logged after the first n messages,
// leaving out what allowed accepts.
func (b *browserEnv) errorsSince(n int, allowed func(chromedp.ConsoleMessage) bool) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.logged[n:] {
		if (m.Type == chromedp.ConsoleError || m.IsException()) && (allowed == nil || !allowed(m)) {
			out = append(out, m.String()+" "+m.URL)
		}
	}
	return out
}

func (b *browserEnv) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.logged)
}

// open navigates the tab to the console page hash (e.g. "#/timeline?space=demo") and waits
// until the page has rendered (body[data-state]); it returns that state.
func (b *browserEnv) open(t *testing.T, hash string) string {
	t.Helper()
	js := fmt.Sprintf(`document.body.dataset.state = 'navigating'; location.hash = %q; true`, hash)
	_, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
	require.NoError(t, err)
	return b.waitState(t)
}

func (b *browserEnv) waitState(t *testing.T) string {
	t.Helper()
	state, err := chromedp.Run(b.ctx, chromedp.Poll[string](
		`(() => { const s = document.body.dataset.state; return s && s !== 'loading' && s !== 'navigating' ? s : null })()`,
		chromedp.WithPollingTimeout(20*time.Second)))
	require.NoError(t, err)
	return state
}

func (b *browserEnv) eval(t *testing.T, js string, out any, opts ...chromedp.EvaluateOption) {
	t.Helper()
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[json.RawMessage](js, opts...))
	require.NoError(t, err, js)
	require.NoError(t, json.Unmarshal(raw, out), string(raw))
}

func (b *browserEnv) screenshot(t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(screenshotDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(screenshotDir, name+".png"), png, 0o644))
}

// signIn types token into the console's token form and waits for the page.
func (b *browserEnv) signIn(t *testing.T, token string) string {
	t.Helper()
	require.NoError(t, chromedp.Do(b.ctx, chromedp.SendKeys(chromedp.CSS("#token-input"), token)))
	var ok bool
	b.eval(t, `document.body.dataset.state = 'navigating'; document.getElementById('token-form').requestSubmit(); true`, &ok)
	return b.waitState(t)
}

func ev(typ, session, actor, content, data string, minute int) eventloom.NewEvent {
	at := time.Date(2026, 5, 1, 9, minute, 0, 0, time.UTC)
	e := eventloom.NewEvent{Type: typ, SessionID: session, Actor: actor, Content: content, OccurredAt: &at}
	if data != "" {
		e.Data = json.RawMessage(data)
	}
	return e
}

// TestConsole_PagesInHeadlessChromium drives every console page in one headless Chromium against
// one seeded database: each loads without console errors, the artifacts page lists the
// artifacts the latent builder derived, the checkout inspector packs what POST /checkout packs, accepting a
// proposal appends proposal.accepted, and a token for another space sees nothing of this one.
func TestConsole_PagesInHeadlessChromium(t *testing.T) {
	browser := chromiumPath(t)
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)

	fixture.Append(t, store, "demo",
		ev("message", "s1", "ann", "Alice moved to the Oslo office last week; loop her in on the Postgres upgrade.", `{"role":"user","name":"Ann"}`, 0),
		ev("fact.asserted", "s1", "ann", "", `{"subject":"Alice","predicate":"works at","object":"Acme"}`, 1),
		ev("decision.recorded", "s1", "agent", "We compared drivers with Alice.", `{"decision":"Use pgx v5 with pgxpool","rationale":"batching","subject":"postgres driver"}`, 2),
		ev("task.updated", "s2", "agent", "", `{"task_id":"PG-117","status":"open","title":"Upgrade to Postgres 17"}`, 3),
		ev("tool_call.completed", "s2", "agent", "go test failed in projection.", `{"tool":"go test","outcome":"failure","error":"expected 1 invalidation, got 0"}`, 4),
		ev("fact.asserted", "s2", "bob", "", `{"subject":"Alice","predicate":"works at","object":"Globex"}`, 5),
		ev("message", "s2", "assistant", "Bob says Alice's office has a new VPN.", `{"role":"assistant"}`, 6),
		ev("memory.invalidated", "s2", "ann", "", `{"target_seq":7,"reason":"wrong office"}`, 7),
		ev("preference.stated", "s1", "ann", "", `{"topic":"code examples","preference":"plain SQL"}`, 8),
		ev("message", "s3", "bob", "Alice now leads the Postgres upgrade at Globex.", `{"role":"user","name":"Bob"}`, 9),
		ev("proposal.created", "s3", "agent", "", `{"kind":"belief_update","evidence":[10],"confidence":0.7,"fact":{"subject":"Alice","predicate":"leads","object":"Postgres upgrade"},"rationale":"Bob said so"}`, 10),
		ev("proposal.created", "s3", "agent", "", `{"kind":"skill","evidence":[3,5]}`, 11),
	)
	demoCues := ev("note", "s1", "ann", "Alice prefers tea in the Oslo office.", "", 12)
	demoCues.Cues = json.RawMessage(`{"task":"PG-117","repo":"zaxy"}`)
	fixture.Append(t, store, "demo", demoCues)
	fixture.Append(t, store, "other", ev("message", "o1", "eve", "Only other's own memory.", `{"role":"user"}`, 0))
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	for _, sp := range []string{"demo", "other"} {
		_, err = proj.ProjectSpace(ctx, sp)
		require.NoError(t, err)
		_, err = projection.DecaySalience(ctx, pool, sp, time.Now())
		require.NoError(t, err)
	}
	// The latent builder derives demo's artifacts (an episode per session, at least) for the
	// artifacts page and the graph's artifact nodes.
	builder, err := latent.NewBuilder(ctx, pool, store, latent.Config{})
	require.NoError(t, err)
	_, err = builder.Build(ctx, "demo")
	require.NoError(t, err)
	var demoArtifacts int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM latent_current WHERE space_id = 'demo'`).Scan(&demoArtifacts))
	require.Positive(t, demoArtifacts)
	_, demoToken, err := tokens.Create(ctx, []string{"demo"}, auth.ScopeWrite, "console test")
	require.NoError(t, err)
	_, otherToken, err := tokens.Create(ctx, []string{"other"}, auth.ScopeRead, "console test")
	require.NoError(t, err)

	srv := httptest.NewServer(console.Mount(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil)))
	t.Cleanup(srv.Close)

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000), chromedp.Flag("disable-gpu", true))...)
	t.Cleanup(cancelAlloc)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	tabCtx, cancelTimeout := context.WithTimeout(tabCtx, 3*time.Minute)
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

	// Signed out: the console asks for a token; the token never reaches a URL. (The count is
	// taken before navigating: the probe's 401 may be logged before Navigate returns.)
	start := b.count()
	require.NoError(t, chromedp.Do(tabCtx, chromedp.Navigate(srv.URL+"/console/")))
	require.Equal(t, "signed-out", b.waitState(t))
	probe401 := func(m chromedp.ConsoleMessage) bool { // the sign-in probe of GET /v1/spaces
		return m.Source == "network" && strings.Contains(m.Text, "401") && strings.HasSuffix(m.URL, "/v1/spaces")
	}
	require.Eventually(t, func() bool { return len(b.errorsSince(start, nil)) > 0 }, 5*time.Second, 50*time.Millisecond,
		"the browser's log reaches the test: the 401 of the sign-in probe is there")
	require.Empty(t, b.errorsSince(start, probe401))
	start = b.count()
	require.Equal(t, "ready", b.signIn(t, demoToken))
	var href, stored string
	b.eval(t, `location.href`, &href)
	b.eval(t, `sessionStorage.getItem('zaxy.console.token')`, &stored)
	require.NotContains(t, href, demoToken)
	require.Equal(t, demoToken, stored)

	var factID string
	require.NoError(t, pool.QueryRow(ctx, `SELECT fact_id FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'demo') AND status = 'superseded' LIMIT 1`).Scan(&factID))
	pages := []struct {
		name, hash string
		// present is a selector the rendered page must hold.
		present string
	}{
		{"spaces", "#/spaces?space=demo", `.salience .bar`},
		{"timeline", "#/timeline?space=demo&event=1", `#event-detail [data-event="1"]`},
		{"entity", "#/entity?space=demo&entity=Alice", `[data-entity] table.facts`},
		{"fact", "#/entity?space=demo&fact=" + factID, `[data-fact] table.versions`},
		{"graph", "#/graph?space=demo&entity=Alice", `svg.graph [data-node="center"] ~ [data-node^="a:"]`},
		{"checkout", "#/checkout?space=demo&q=Where+does+Alice+work%3F&max_tokens=200", `table.packed tbody tr`},
		{"review", "#/review?space=demo", `[data-proposal="11"] button[data-action="accept"]`},
		{"artifacts", "#/artifacts?space=demo", `#artifacts [data-artifact] .artifact-summary`},
		{"chain", "#/chain?space=demo", `[data-chain="ok"]`},
	}
	for _, p := range pages {
		start := b.count()
		require.Equal(t, "ready", b.open(t, p.hash), p.name)
		var found bool
		b.eval(t, fmt.Sprintf(`document.querySelector(%q) !== null`, p.present), &found)
		var text string
		b.eval(t, `document.getElementById('main').innerText`, &text)
		require.True(t, found, "%s: no %s in\n%s", p.name, p.present, text)
		b.screenshot(t, p.name)
		time.Sleep(100 * time.Millisecond) // let late console events arrive
		require.Empty(t, b.errorsSince(start, nil), p.name)
	}

	// With no entity chosen the graph draws the space: Alice linked to Acme and Globex... by
	// current facts only.
	require.Equal(t, "ready", b.open(t, "#/graph?space=demo"))
	var spaceNodes []string
	b.eval(t, `[...document.querySelectorAll('#space-graph [data-node] text')].map((t) => t.textContent)`, &spaceNodes)
	require.Contains(t, spaceNodes, "Alice")
	var spaceEdges int
	b.eval(t, `document.querySelectorAll('#space-graph [data-fact]').length`, &spaceEdges)
	require.Positive(t, spaceEdges)
	b.screenshot(t, "graph-space")

	// The spaces page names the fact a pending proposal proposes.
	require.Equal(t, "ready", b.open(t, "#/spaces?space=demo"))
	var proposed string
	b.eval(t, `document.querySelector('[data-proposal="11"] .proposal-fact').textContent`, &proposed)
	require.Equal(t, "Alice leads Postgres upgrade ", proposed)

	// The artifacts page lists what GET /artifacts returns: demo's current artifacts, each
	// citing its events.
	require.Equal(t, "ready", b.open(t, "#/artifacts?space=demo"))
	var cards, cites int
	b.eval(t, `document.querySelectorAll('#artifacts [data-artifact]').length`, &cards)
	b.eval(t, `document.querySelectorAll('#artifacts [data-artifact] a.cite').length`, &cites)
	require.Equal(t, demoArtifacts, cards)
	require.GreaterOrEqual(t, cites, cards)
	// It names the entities an artifact covers instead of showing their ids.
	var covered []string
	b.eval(t, `[...document.querySelectorAll('#artifacts [data-artifact] a.entity-name')].map((a) => a.textContent)`, &covered)
	require.Contains(t, covered, "Alice")
	var idsShown int
	b.eval(t, `document.querySelectorAll('#artifacts [data-artifact] dd a.mono:not(.cite)').length`, &idsShown)
	require.Zero(t, idsShown, "every covered entity is shown by name")
	// A superseded fact names the version that superseded it.
	require.Equal(t, "ready", b.open(t, "#/entity?space=demo&fact="+factID))
	var supersededBy []string
	b.eval(t, `[...document.querySelectorAll('[data-fact] table.versions td:nth-child(6) a')].map((a) => a.textContent)`, &supersededBy)
	require.Contains(t, supersededBy, "v2: Alice works at Globex")

	// The inspector packs exactly what POST /checkout packs for the same request.
	require.Equal(t, "ready", b.open(t, "#/checkout?space=demo&q=Where+does+Alice+work%3F&max_tokens=200"))
	var shown []string
	b.eval(t, `[...document.querySelectorAll('table.packed tbody tr')].map((tr) => tr.dataset.itemId)`, &shown)
	packet := postJSON(t, srv.URL+"/v1/spaces/demo/checkout", demoToken, `{"query":"Where does Alice work?","max_tokens":200,"no_record":true}`)
	var want []string
	for _, tier := range packet["tiers"].([]any) {
		for _, it := range tier.(map[string]any)["items"].([]any) {
			want = append(want, it.(map[string]any)["item_id"].(string))
		}
	}
	require.NotEmpty(t, want)
	require.Equal(t, want, shown)
	var policy string
	b.eval(t, `document.getElementById('policy-version').textContent`, &policy)
	require.Equal(t, packet["diagnostics"].(map[string]any)["policy_version"], policy, "the policy the packet was ranked with")
	require.Equal(t, "builtin-10", policy, "the default built-in policy")
	// Elided items are shown by what they say, not only by id.
	elided := packet["budget"].(map[string]any)["elided"].([]any)
	require.NotEmpty(t, elided, "a 200-token budget elides something")
	var elidedText []string
	b.eval(t, `(() => {
		const table = document.querySelector('table.elided');
		const j = [...table.tHead.rows[0].cells].findIndex((c) => c.textContent === 'text');
		return j < 0 ? [] : [...table.tBodies[0].rows].map((tr) => tr.cells[j].textContent) })()`, &elidedText)
	require.Len(t, elidedText, len(elided))
	for _, txt := range elidedText {
		require.NotEmpty(t, txt)
	}
	require.NotContains(t, elidedText, "open the item")
	require.NotContains(t, elidedText, "(no longer in memory)")
	// With cues the inspector sends them too, and still packs what /checkout packs for them.
	require.Equal(t, "ready", b.open(t, "#/checkout?space=demo&q=Where+does+Alice+work%3F&max_tokens=200&cues=%7B%22repo%22%3A%22billing%22%7D"))
	shown = nil
	b.eval(t, `[...document.querySelectorAll('table.packed tbody tr')].map((tr) => tr.dataset.itemId)`, &shown)
	cued := postJSON(t, srv.URL+"/v1/spaces/demo/checkout", demoToken, `{"query":"Where does Alice work?","max_tokens":200,"no_record":true,"cues":{"repo":"billing"}}`)
	want = nil
	for _, tier := range cued["tiers"].([]any) {
		for _, it := range tier.(map[string]any)["items"].([]any) {
			want = append(want, it.(map[string]any)["item_id"].(string))
		}
	}
	require.Equal(t, want, shown)

	// Accepting a proposal in the review queue appends proposal.accepted (and the fact).
	require.Equal(t, "ready", b.open(t, "#/review?space=demo"))
	var before int64
	require.NoError(t, pool.QueryRow(ctx, `SELECT max(seq) FROM events WHERE space_id = 'demo'`).Scan(&before))
	require.NoError(t, chromedp.Do(tabCtx,
		chromedp.Click(chromedp.CSS(`[data-proposal="11"] button[data-action="accept"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-proposal="11"] [data-decided="accepted"]`))))
	var types []string
	rows, err := pool.Query(ctx, `SELECT type FROM events WHERE space_id = 'demo' AND seq > $1 ORDER BY seq`, before)
	require.NoError(t, err)
	for rows.Next() {
		var typ string
		require.NoError(t, rows.Scan(&typ))
		types = append(types, typ)
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{"proposal.accepted", "fact.asserted"}, types)
	var actor string
	require.NoError(t, pool.QueryRow(ctx, `SELECT actor FROM events WHERE space_id = 'demo' AND seq = $1`, before+1).Scan(&actor))
	require.Equal(t, "console", actor)
	// The log lists the decision and the fact it asserted, each under its type.
	for i, typ := range types {
		require.Equal(t, "ready", b.open(t, "#/log?space=demo&type="+typ))
		var seqs []int64
		b.eval(t, `[...document.querySelectorAll('table.log tbody tr')].map((tr) => Number(tr.dataset.seq))`, &seqs)
		require.Contains(t, seqs, before+1+int64(i), typ)
	}

	// A token for space "other" sees nothing of "demo": not in the spaces list, not on any page.
	require.NoError(t, chromedp.Do(tabCtx, chromedp.Click(chromedp.CSS(`#token-forget`))))
	require.Equal(t, "signed-out", b.waitState(t))
	require.Equal(t, "ready", b.signIn(t, otherToken))
	var listed []string
	b.eval(t, `[...document.querySelectorAll('#space-select option')].map((o) => o.value)`, &listed)
	require.Equal(t, []string{"other"}, listed)
	for _, hash := range []string{"#/spaces?space=demo", "#/timeline?space=demo", "#/entity?space=demo&entity=Alice", "#/checkout?space=demo&q=Alice"} {
		b.open(t, hash)
		var text string
		b.eval(t, `document.body.innerText`, &text)
		require.NotContains(t, text, "demo", hash)
		for _, secret := range []string{"Globex", "Acme", "Oslo", "pgx"} { // only demo's memory holds these
			require.NotContains(t, text, secret, hash)
		}
	}
	var status int
	b.eval(t, `fetch('/v1/spaces/demo/timeline', {headers: {Authorization: 'Bearer ' + sessionStorage.getItem('zaxy.console.token')}}).then((r) => r.status)`, &status, chromedp.EvalAwaitPromise)
	require.Equal(t, http.StatusForbidden, status)
}

func postJSON(t *testing.T, url, token, body string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader([]byte(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
