package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/auth"
)

// emptySpaceReads are, for every route a read token may call, a request of it (the path under
// /v1/spaces/{space} and a body) and its answer on a space with no events: 200 with an empty
// answer, or, for a route that names one thing by id, that thing's 404 code. Never
// space_not_found (docs/api.md, Spaces).
var emptySpaceReads = map[string]struct {
	path, body string
	// notFound is the code of a route that names one thing, which a space with no events lacks.
	notFound string
}{
	"GET /events":                             {path: "/events"},
	"GET /verify":                             {path: "/verify"},
	"GET /facts":                              {path: "/facts"},
	"GET /entities/{entity}":                  {path: "/entities/alice", notFound: "entity_not_found"},
	"GET /projection":                         {path: "/projection"},
	"GET /salience":                           {path: "/salience"},
	"POST /cypher":                            {path: "/cypher", body: `{"query":"MATCH (n) RETURN n","columns":1}`},
	"GET /index":                              {path: "/index"},
	"GET /timeline":                           {path: "/timeline"},
	"GET /items/{id}":                         {path: "/items/ev:1", notFound: "item_not_found"},
	"POST /checkout":                          {path: "/checkout", body: `{"query":"how do we deploy?","session_id":"s1"}`},
	"POST /query":                             {path: "/query", body: `{"query":"how do we deploy?"}`},
	"POST /context/assemble":                  {path: "/context/assemble", body: `{"query":"how do we deploy?","working_set":["deploy.sh"]}`},
	"POST /handoff":                           {path: "/handoff", body: `{"query":"hand over","session_id":"s1"}`},
	"POST /feeling-of-knowing":                {path: "/feeling-of-knowing", body: `{"query":"how do we deploy?"}`},
	"POST /weave":                             {path: "/weave", body: `{"goal":"deploy the site"}`},
	"POST /prospective":                       {path: "/prospective", body: `{"goal":"deploy the site"}`},
	"GET /proposals":                          {path: "/proposals"},
	"GET /proposals/{seq}":                    {path: "/proposals/1", notFound: "proposal_not_found"},
	"GET /artifacts":                          {path: "/artifacts"},
	"GET /checkouts/{seq}":                    {path: "/checkouts/1", notFound: "checkout_not_found"},
	"GET /items/{id}/salience":                {path: "/items/ev:1/salience"},
	"POST /actions/simulate-forward":          {path: "/actions/simulate-forward", body: `{"steps":["edit","test"],"session_id":"s1"}`},
	"POST /actions/reflect-backward":          {path: "/actions/reflect-backward", body: `{"session_id":"s1"}`},
	"POST /actions/retrieve-procedure-prior":  {path: "/actions/retrieve-procedure-prior", body: `{"goal":"deploy the site"}`},
	"POST /actions/retrieve-failure-prior":    {path: "/actions/retrieve-failure-prior", body: `{"tools":["deploy"]}`},
	"POST /actions/query-causal-neighborhood": {path: "/actions/query-causal-neighborhood", body: `{"tool":"deploy"}`},
	"GET /policies":                           {path: "/policies"},
}

// TestHTTP_ReadsOfASpaceWithNoEventsAnswerEmpty walks every route a read token may call
// (spaceRoutes) on a space with no events: each answers 200 with a well-formed, empty answer (a
// JSON object with no null where a list belongs), or the 404 of the thing it names, never
// space_not_found; and none of them creates the space (a read appends no record to a space
// with nothing to record). A read route missing from emptySpaceReads fails the test.
func TestHTTP_ReadsOfASpaceWithNoEventsAnswerEmpty(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const space = "nothing-yet"
	covered := 0
	for _, rt := range api.SpaceRoutes() {
		if rt.Scope != auth.ScopeRead {
			continue
		}
		key := rt.Method + " " + rt.Pattern
		tc, ok := emptySpaceReads[key]
		require.True(t, ok, "%s is a read with no case in emptySpaceReads", key)
		covered++
		t.Run(key, func(t *testing.T) {
			status, raw := doRaw(t, e.url, rt.Method, "/v1/spaces/"+space+tc.path, tc.body)
			var body map[string]any
			require.NoError(t, json.Unmarshal(raw, &body), string(raw))
			if tc.notFound != "" {
				require.Equal(t, http.StatusNotFound, status, string(raw))
				require.Equal(t, tc.notFound, body["error"].(map[string]any)["code"], string(raw))
				return
			}
			require.Equal(t, http.StatusOK, status, string(raw))
			require.NotContains(t, body, "error")
			for k, v := range body {
				require.NotNil(t, v, "%s: %s is null in %s", key, k, raw)
			}
		})
	}
	require.Len(t, emptySpaceReads, covered, "emptySpaceReads names a route that is not a read")
	var n int
	require.NoError(t, e.db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM events WHERE space_id = $1`, space).Scan(&n))
	require.Zero(t, n, "a read created the space")

	// Writes still work on a new space: the first append creates it, and the reads see it.
	status, raw := doRaw(t, e.url, "POST", "/v1/spaces/"+space+"/events", `{"type":"note","content":"we deploy with make deploy"}`)
	require.Equal(t, http.StatusCreated, status, string(raw))
	status, raw = doRaw(t, e.url, "GET", "/v1/spaces/"+space+"/events", "")
	require.Equal(t, http.StatusOK, status, string(raw))
	require.Contains(t, string(raw), "make deploy")
}

// doRaw sends one request and returns the status and the body as it came.
func doRaw(t *testing.T, base, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, bytes.TrimSpace(b)
}
