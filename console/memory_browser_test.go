package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/console"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// TestConsole_MemoryActionsShowTheirDiagnostics runs the memory actions page in headless
// Chromium on a space whose sessions failed go vet and recovered: the failure prior shows the
// confidence in force with the revision that set it (and the producer's), its review status and
// the events it cites; a simulated plan shows the risk at its go vet step; a session's reflection
// shows its outcome. Every run is a dry run: the log does not grow. After an invalidation, the
// artifacts page names each superseded version by its summary, not its id.
func TestConsole_MemoryActionsShowTheirDiagnostics(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	const sp = "acts"
	minute := 0
	for _, s := range []string{"s1", "s2", "s3"} {
		for _, c := range [][3]string{{"git pull", "success", ""}, {"go build", "success", ""}, {"go vet", "failure", "vet: unreachable code"},
			{"gofmt", "success", ""}, {"go vet", "success", ""}} {
			data := fmt.Sprintf(`{"tool":%q,"outcome":%q`, c[0], c[1])
			if c[2] != "" {
				data += fmt.Sprintf(`,"error":%q`, c[2])
			}
			fixture.Append(t, store, sp, ev("tool_call.completed", s, "agent", "", data+"}", minute))
			minute++
		}
	}
	fixture.Project(t, pool, sp)
	builder, err := latent.NewBuilder(ctx, pool, store, latent.Config{})
	require.NoError(t, err)
	_, err = builder.Build(ctx, sp)
	require.NoError(t, err)

	srv := httptest.NewServer(console.Mount(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store}, nil)))
	t.Cleanup(srv.Close)
	// The failure prior's confidence is revised through the API, so the page has a revision to cite.
	var prior struct {
		Priors []struct {
			ArtifactID string  `json:"artifact_id"`
			Confidence float64 `json:"confidence"`
		} `json:"priors"`
	}
	post(t, srv.URL+"/v1/spaces/"+sp+"/actions/retrieve-failure-prior", `{"tools":["go vet"],"no_record":true}`, http.StatusOK, &prior)
	require.Len(t, prior.Priors, 1)
	var revised struct {
		Event struct {
			Seq int64 `json:"seq"`
		} `json:"event"`
	}
	post(t, srv.URL+"/v1/spaces/"+sp+"/actions/revise-confidence",
		fmt.Sprintf(`{"artifact_id":%q,"confidence":0.35,"reason":"the fix did not hold in CI"}`, prior.Priors[0].ArtifactID), http.StatusCreated, &revised)
	require.Positive(t, revised.Event.Seq)
	count := func() int {
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = $1`, sp).Scan(&n))
		return n
	}
	before := count()

	b := startBrowser(t, srv)
	require.NoError(t, chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/console/#/memory?space="+sp)))
	require.Equal(t, "ready", b.waitState(t))
	open := func(params url.Values) {
		t.Helper()
		params.Set("space", sp)
		params.Set("run", "1")
		start := b.count()
		require.Equal(t, "ready", b.open(t, "#/memory?"+params.Encode()))
		require.Empty(t, b.errorsSince(start, nil))
	}

	open(url.Values{"action": {"failure"}, "tools": {"go vet"}})
	var card struct {
		Artifact, Confidence, Text string
		Cites                      int
	}
	b.eval(t, `(() => {
		const c = document.querySelector('#memory-result .card.prior');
		return c ? { artifact: c.dataset.artifact, confidence: c.querySelector('.confidence').textContent,
			text: c.textContent, cites: c.querySelectorAll('a.cite').length } : null;
	})()`, &card)
	require.Equal(t, prior.Priors[0].ArtifactID, card.Artifact)
	require.Contains(t, card.Confidence, fmt.Sprintf("0.35 (revised from %s by #%d", strings.TrimRight(fmt.Sprintf("%.3f", prior.Priors[0].Confidence), "0"), revised.Event.Seq))
	require.Contains(t, card.Text, "review")
	require.GreaterOrEqual(t, card.Cites, 2, "the revision and the failures it rests on")
	b.screenshot(t, "memory-actions")

	open(url.Values{"action": {"simulate"}, "steps": {"git pull, go vet"}})
	var risks []string
	b.eval(t, `[...document.querySelectorAll('#memory-result table.risks tbody tr')].map((r) => r.cells[0].textContent + ' ' + r.cells[1].textContent)`, &risks)
	require.Contains(t, risks, "2 go vet", "the risk sits at the plan's second step, go vet (steps counted from 1)")

	open(url.Values{"action": {"reflect"}, "session": {"s2"}})
	var reflected string
	b.eval(t, `document.querySelector('#memory-result').textContent`, &reflected)
	require.Contains(t, reflected, "Session s2")
	require.Contains(t, reflected, "outcome")

	require.Equal(t, before, count(), "the page's runs are dry runs")

	// An invalidated failure stales the artifacts citing it; their new versions name the
	// versions they supersede by summary on the artifacts page (with stale ones listed).
	post(t, srv.URL+"/v1/spaces/"+sp+"/events", `{"events":[{"type":"memory.invalidated","data":{"target_seq":3,"reason":"the vet run was misconfigured"}}]}`,
		http.StatusCreated, &map[string]any{})
	fixture.Project(t, pool, sp)
	_, err = builder.Build(ctx, sp)
	require.NoError(t, err)
	want := map[string]string{} // superseding artifact id -> the summary of the one it supersedes
	rows, err := pool.Query(ctx, `SELECT n.artifact_id, o.summary FROM latent_artifacts n
		JOIN latent_artifacts o ON o.space_id = n.space_id AND o.artifact_id = n.supersedes WHERE n.space_id = $1`, sp)
	require.NoError(t, err)
	for rows.Next() {
		var id, summary string
		require.NoError(t, rows.Scan(&id, &summary))
		want[id] = summary
	}
	require.NoError(t, rows.Err())
	require.NotEmpty(t, want, "the invalidation made new versions")
	require.Equal(t, "ready", b.open(t, "#/artifacts?space="+sp+"&stale=1"))
	var shown map[string]string
	b.eval(t, `Object.fromEntries([...document.querySelectorAll('.card.artifact')].filter((c) => c.querySelector('.superseded'))
		.map((c) => [c.dataset.artifact, c.querySelector('.superseded').textContent]))`, &shown)
	require.Equal(t, want, shown, "each new version names the one it supersedes by its summary")
}

// post sends body to url with auth off, requires status and decodes the answer into out.
func post(t *testing.T, url, body string, status int, out any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, status, resp.StatusCode, string(raw))
	require.NoError(t, json.Unmarshal(raw, out))
}
