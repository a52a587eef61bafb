package erasure_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/eventloom"
)

// unknownTerms is the feeling of knowing's list of the query's words memory does not hold.
var unknownTerms = regexp.MustCompile(`"unknown_terms":\[[^\]]*\]`)

// readRoute is one read over HTTP of a space's memory.
type readRoute struct {
	method, path, body string
}

// readRoutes are the reads that return text derived from the log, asked about the marker and
// the entity, facts and events it was derived into.
func readRoutes(space string, entityID string, factIDs []string, seqs []int64) []readRoute {
	p := "/v1/spaces/" + space
	q := marker + " lighthouse"
	routes := []readRoute{
		{"GET", p + "/events", ""},
		{"GET", p + "/facts", ""},
		{"GET", p + "/facts?include_inferred=true", ""},
		{"GET", p + "/facts?entity=" + url.QueryEscape(marker), ""},
		{"GET", p + "/entities/" + url.PathEscape(marker), ""},
		{"GET", p + "/entities/" + entityID, ""},
		{"GET", p + "/index", ""},
		{"GET", p + "/timeline", ""},
		{"GET", p + "/items/" + entityID, ""},
		{"GET", p + "/items/predicate:likes", ""},
		{"GET", p + "/items/session:s9", ""},
		{"GET", p + "/items/type:fact.asserted", ""},
		{"GET", p + "/proposals", ""},
		{"GET", p + "/artifacts", ""},
		{"GET", p + "/salience", ""},
		{"POST", p + "/checkout", fmt.Sprintf(`{"query":%q}`, q)},
		{"POST", p + "/checkout", fmt.Sprintf(`{"query":%q,"session_id":"s9"}`, q)},
		{"POST", p + "/query", fmt.Sprintf(`{"query":%q}`, q)},
		{"POST", p + "/context/assemble", fmt.Sprintf(`{"query":%q}`, q)},
		{"POST", p + "/handoff", fmt.Sprintf(`{"query":%q}`, q)},
		{"POST", p + "/weave", fmt.Sprintf(`{"query":%q}`, q)},
		{"POST", p + "/prospective", fmt.Sprintf(`{"goal":%q}`, q)},
		{"POST", p + "/feeling-of-knowing", fmt.Sprintf(`{"query":%q}`, q)},
		{"POST", p + "/cypher", `{"query":"MATCH (n) RETURN n","limit":500}`},
		{"POST", p + "/cypher", `{"query":"MATCH (a)-[r]->(b) RETURN a, r, b","columns":3,"limit":500}`},
	}
	for _, id := range factIDs {
		routes = append(routes, readRoute{"GET", p + "/items/fact:" + id, ""})
	}
	for _, s := range seqs {
		routes = append(routes, readRoute{"GET", p + fmt.Sprintf("/items/ev:%d", s), ""})
	}
	return routes
}

// get asks srv one route and returns its status and body with the request's own words (which
// some answers echo) taken out.
func get(t *testing.T, srv *httptest.Server, rt readRoute) (int, string) {
	t.Helper()
	req, err := http.NewRequest(rt.method, srv.URL+rt.path, strings.NewReader(rt.body))
	require.NoError(t, err)
	if rt.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := strings.ReplaceAll(string(b), marker+" lighthouse", "<query>")
	// An entity asked for by name and not found is named back as asked.
	// The feeling of knowing names the query's words memory does not hold.
	out = unknownTerms.ReplaceAllString(out, `"unknown_terms":[<asked>]`)
	for _, name := range []string{marker, strings.ToLower(marker)} {
		out = strings.ReplaceAll(out, `no entity \"`+name+`\"`, "no entity <asked>")
	}
	return resp.StatusCode, out
}

// Issue 30 §3: an erasure never waits for a busy projector, and from the moment it returns no
// read route shows anything derived from the erased events, though the projections still
// hold it until the projector purges them. With a projection transaction holding the space's
// watermark lock, two events carrying a marker word (a message naming it, and a fact about it)
// are erased; then every read route over HTTP (checkout with the marker as the query, facts,
// entities, the index, the timeline, items, proposals, artifacts, the query routes) answers
// without a trace of it, and Cypher (whose graph mirror cannot be filtered) and the feeling of
// knowing (whose sketch holds aggregate frequencies) are refused with 503 erasure_pending.
// After the purge, the same routes answer as before and those two run again.
func TestErase_NoReadRouteShowsTheErasedTextBeforeThePurge(t *testing.T) {
	ctx := context.Background()
	b := setup(t)
	const space = "pending"
	user := json.RawMessage(`{"role":"user"}`)
	var evs []eventloom.NewEvent
	for i, f := range []string{
		"The build pipeline failed on the linter step again",
		"Ada prefers short standups and written summaries",
		"The staging database needs a bigger disk next month",
		"Lighthouse scores improved after the image change",
		"Remember to rotate the signing keys before the audit",
	} {
		evs = append(evs, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", i%2), Content: f, Data: user})
	}
	b.Append(t, space, evs...)
	target := b.Append(t, space,
		eventloom.NewEvent{Type: "message", SessionID: "s9", Content: marker + " met Ada at the lighthouse and talked about " + strings.ToLower(marker) + "ing",
			Data: json.RawMessage(`{"role":"user","tags":["` + marker + `"]}`)},
		eventloom.NewEvent{Type: "fact.asserted", SessionID: "s9", Content: marker + " likes tea",
			Data: json.RawMessage(`{"subject":"` + marker + `","predicate":"likes","value":"tea with ` + marker + `"}`)},
	)
	b.Append(t, space, eventloom.NewEvent{Type: "message", SessionID: "s1", Content: "Ada likes coffee in the morning", Data: user})
	b.derive(t, space)

	var entityID string
	require.NoError(t, b.admin.QueryRow(ctx, `SELECT entity_id FROM entities WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND key = lower($2)`, space, marker).Scan(&entityID))
	var factIDs []string
	require.NoError(t, b.admin.QueryRow(ctx, `SELECT array_agg(fact_id) FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND recorded_seq = $2`,
		space, target[1].Seq).Scan(&factIDs))
	require.NotEmpty(t, factIDs)
	routes := readRoutes(space, entityID, factIDs, []int64{target[0].Seq, target[1].Seq})

	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: b.pool, Store: b.Store, Erasure: b.svc}, nil))
	t.Cleanup(srv.Close)
	lower := strings.ToLower(marker)

	// Before the erasure the routes show the marker: the test can fail.
	shown := map[string]bool{}
	for _, rt := range routes {
		status, out := get(t, srv, rt)
		require.Less(t, status, 500, "%s %s: %s", rt.method, rt.path, out)
		if strings.Contains(strings.ToLower(out), lower) {
			shown[rt.method+" "+rt.path] = true
		}
	}
	for _, want := range []string{"GET /v1/spaces/pending/facts", "GET /v1/spaces/pending/index", "POST /v1/spaces/pending/cypher",
		"GET /v1/spaces/pending/entities/" + entityID, "GET /v1/spaces/pending/items/fact:" + factIDs[0],
		"POST /v1/spaces/pending/checkout"} {
		require.True(t, shown[want], "%s shows the marker before the erasure (shown: %v)", want, shown)
	}

	// A projector's transaction holds the space's watermark lock; the erasures return at once.
	busy, err := b.pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = busy.Rollback(ctx) }()
	_, err = busy.Exec(ctx, `SELECT projected_seq FROM projection_watermarks WHERE space_id = $1 FOR UPDATE`, space)
	require.NoError(t, err)
	for _, r := range target {
		done := make(chan error, 1)
		var res struct {
			ProjectionsPurged bool `json:"projections_purged"`
		}
		go func() {
			status, out := get(t, srv, readRoute{"POST", "/v1/spaces/" + space + "/erasures", fmt.Sprintf(`{"seq":%d,"reason":"ticket 9"}`, r.Seq)})
			if status != http.StatusCreated {
				done <- fmt.Errorf("erasure: %d %s", status, out)
				return
			}
			done <- json.Unmarshal([]byte(out), &res)
		}()
		select {
		case err := <-done:
			require.NoError(t, err)
		case <-time.After(2 * time.Minute):
			t.Fatal("the erasure waits for the projector's lock")
		}
		require.False(t, res.ProjectionsPurged, "a worker holds the space: the projections are not purged yet")
	}
	var held int
	require.NoError(t, b.admin.QueryRow(ctx, `SELECT count(*) FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND lower(text) LIKE '%' || $2 || '%'`,
		space, lower).Scan(&held))
	require.Positive(t, held, "the projections still hold the erased text: the reads must filter it")

	check := func(when string, refusedStatus int) {
		t.Helper()
		for _, rt := range routes {
			status, out := get(t, srv, rt)
			if strings.HasSuffix(rt.path, "/cypher") || strings.HasSuffix(rt.path, "/feeling-of-knowing") {
				require.Equal(t, refusedStatus, status, "%s: %s %s: %s", when, rt.method, rt.path, out)
				if status != http.StatusOK {
					require.Contains(t, out, `"erasure_pending"`)
				}
			} else {
				require.Less(t, status, 500, "%s: %s %s: %s", when, rt.method, rt.path, out)
			}
			require.NotContains(t, strings.ToLower(out), lower, "%s: %s %s shows the erased text", when, rt.method, rt.path)
		}
	}
	check("before the purge", http.StatusServiceUnavailable)

	// The projector's transaction ends; the next projection purges; the routes answer as before.
	require.NoError(t, busy.Rollback(ctx))
	b.Project(t, space)
	check("after the purge", http.StatusOK)
	status, out := get(t, srv, readRoute{"POST", "/v1/spaces/" + space + "/checkout", `{"query":"Ada lighthouse"}`})
	require.Equal(t, http.StatusOK, status, out)
	require.Contains(t, out, "Lighthouse scores improved", "the other items are still found")
}
