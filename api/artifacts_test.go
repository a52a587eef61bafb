package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// seedArtifacts appends three working sessions (a recurring procedure and a repeated failure)
// and a trip session (an episode) to space, projects it and builds its artifacts. It returns
// the trip's message seqs.
func seedArtifacts(t *testing.T, e *env, space string) []int64 {
	t.Helper()
	for _, s := range []string{"s1", "s2", "s3"} {
		var evs []string
		for _, c := range [][3]string{{"git pull", "success", ""}, {"go build", "success", ""}, {"go test", "success", ""},
			{"go vet", "failure", "vet: unreachable code"}, {"gofmt", "success", ""}, {"go vet", "success", ""}} {
			d := fmt.Sprintf(`{"tool":%q,"outcome":%q`, c[0], c[1])
			if c[2] != "" {
				d += fmt.Sprintf(`,"error":%q`, c[2])
			}
			evs = append(evs, fmt.Sprintf(`{"type":"tool_call.completed","session_id":%q,"data":%s}}`, s, d))
		}
		status, out := e.do(t, "POST", "/v1/spaces/"+space+"/events", `{"events":[`+strings.Join(evs, ",")+`]}`)
		require.Equal(t, 201, status, out)
	}
	status, out := e.do(t, "POST", "/v1/spaces/"+space+"/events", `{"events":[
		{"type":"message","session_id":"trip","content":"Ana is planning a trip to Lisbon in May with the whole team.","data":{"role":"user"}},
		{"type":"message","session_id":"trip","content":"The hotel near Alfama is booked for four nights.","data":{"role":"user"}},
		{"type":"message","session_id":"trip","content":"Flights leave from Berlin on the second of May.","data":{"role":"user"}}]}`)
	require.Equal(t, 201, status, out)
	var trip []int64
	for _, r := range out["events"].([]any) {
		trip = append(trip, int64(r.(map[string]any)["seq"].(float64)))
	}
	buildArtifacts(t, e, space)
	return trip
}

// buildArtifacts projects space and builds its latent artifacts.
func buildArtifacts(t *testing.T, e *env, space string) {
	t.Helper()
	ctx := context.Background()
	pool := e.db.AppPool(t)
	fixture.Project(t, pool, space)
	b, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, nil), latent.Config{})
	require.NoError(t, err)
	_, err = b.Build(ctx, space)
	require.NoError(t, err)
}

// listArtifacts calls GET /artifacts with query and returns the artifacts by id, in order.
func listArtifacts(t *testing.T, e *env, space, query string) ([]map[string]any, map[string]any) {
	t.Helper()
	status, out := e.do(t, "GET", "/v1/spaces/"+space+"/artifacts?"+query, "")
	require.Equal(t, 200, status, out)
	var arts []map[string]any
	for _, a := range out["artifacts"].([]any) {
		arts = append(arts, a.(map[string]any))
	}
	return arts, out
}

func ids(arts []map[string]any) []string {
	out := make([]string, len(arts))
	for i, a := range arts {
		out[i] = a["artifact_id"].(string)
	}
	return out
}

// TestHTTP_ArtifactsListCurrentOrStaleWithTheirWeaves: the list serves current artifacts by
// default and stale ones too on include_stale (labelled), filters by type and entity, pages
// by cursor, reports the checkouts whose weave cited each artifact, keeps spaces apart and
// answers a bad parameter with a 400 naming it.
func TestHTTP_ArtifactsListCurrentOrStaleWithTheirWeaves(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const sp, other = "arts", "arts-other"
	trip := seedArtifacts(t, e, sp)

	all, out := listArtifacts(t, e, sp, "")
	require.NotEmpty(t, all)
	require.Nil(t, out["next_after"], "one page holds them all")
	require.True(t, slices.IsSorted(ids(all)), "in artifact_id order")
	types := map[string]bool{}
	for _, a := range all {
		types[a["artifact_type"].(string)] = true
		require.Nil(t, a["stale_at"])
		require.Nil(t, a["stale_reason"])
		require.Equal(t, "non_authoritative", a["authority_status"])
		require.NotEmpty(t, a["source_event_refs"])
		require.NotEmpty(t, a["summary"])
		require.Equal(t, []any{}, a["weaves"], "nothing has woven it yet")
	}
	require.True(t, types["episode"] && types["failure"], "%v", types)

	// A weave cites artifacts; each lists the checkout.surfaced event that recorded it.
	status, w := e.do(t, "POST", "/v1/spaces/"+sp+"/weave", `{"goal":"go vet failed with unreachable code","reasoning_phase":"act"}`)
	require.Equal(t, 200, status, w)
	surfaced := w["surfaced_seq"].(float64)
	woven := w["artifact_ids"].([]any)
	require.NotEmpty(t, woven)
	// Listed at once (the record is read from the log past the projection watermark), and the
	// same once projected (from latent_weave_citations).
	for _, projected := range []bool{false, true} {
		if projected {
			e.project(t, sp)
		}
		all, _ = listArtifacts(t, e, sp, "")
		for _, a := range all {
			if slices.Contains(woven, any(a["artifact_id"])) {
				require.Equal(t, []any{surfaced}, a["weaves"], "projected %v: %s", projected, a["artifact_id"])
			} else {
				require.Equal(t, []any{}, a["weaves"], a["artifact_id"])
			}
		}
	}

	// confidence is the one the weave ranks by: a revision's, beside the producer's.
	revised := all[0]
	require.Equal(t, revised["produced_confidence"], revised["confidence"])
	require.Nil(t, revised["confidence_revision"])
	status, rv := e.do(t, "POST", "/v1/spaces/"+sp+"/actions/revise-confidence",
		fmt.Sprintf(`{"artifact_id":%q,"confidence":0.125,"reason":"the fix no longer works"}`, revised["artifact_id"]))
	require.Equal(t, 201, status, rv)
	all, _ = listArtifacts(t, e, sp, "")
	require.Equal(t, revised["artifact_id"], all[0]["artifact_id"])
	require.Equal(t, 0.125, all[0]["confidence"])
	require.Equal(t, revised["produced_confidence"], all[0]["produced_confidence"])
	require.Equal(t, rv["event"].(map[string]any)["seq"], all[0]["confidence_revision"].(map[string]any)["seq"])

	// type keeps one kind.
	episodes, _ := listArtifacts(t, e, sp, "type=episode")
	require.NotEmpty(t, episodes)
	for _, a := range episodes {
		require.Equal(t, "episode", a["artifact_type"])
	}
	require.Less(t, len(episodes), len(all))

	// entity keeps the artifacts covering it.
	var entity string
	for _, a := range all {
		if refs := a["entity_refs"].([]any); len(refs) > 0 {
			entity = refs[0].(string)
		}
	}
	require.NotEmpty(t, entity, "some artifact covers an entity")
	covering, _ := listArtifacts(t, e, sp, "entity="+url.QueryEscape(entity))
	require.NotEmpty(t, covering)
	require.Less(t, len(covering), len(all))
	for _, a := range covering {
		require.Contains(t, a["entity_refs"], entity)
	}
	none, _ := listArtifacts(t, e, sp, "entity=no-such-entity")
	require.Empty(t, none)

	// Paging: limit and the next_after cursor walk the same list.
	var paged []string
	after := ""
	for range len(all) + 1 {
		page, out := listArtifacts(t, e, sp, "limit=2&after="+after)
		paged = append(paged, ids(page)...)
		if out["next_after"] == nil {
			break
		}
		after = out["next_after"].(string)
	}
	require.Equal(t, ids(all), paged)

	// Invalidating a message of the trip stales its episode: gone from the default list,
	// listed with include_stale, labelled, next to the version that replaced it.
	status, out = e.do(t, "POST", "/v1/spaces/"+sp+"/events",
		fmt.Sprintf(`{"events":[{"type":"memory.invalidated","data":{"target_seq":%d,"reason":"the booking fell through"}}]}`, trip[1]))
	require.Equal(t, 201, status, out)
	buildArtifacts(t, e, sp)
	current, _ := listArtifacts(t, e, sp, "type=episode")
	withStale, _ := listArtifacts(t, e, sp, "type=episode&include_stale=true")
	require.Len(t, withStale, len(current)+1)
	var stale map[string]any
	for _, a := range withStale {
		if a["stale_at"] != nil {
			stale = a
		}
	}
	require.NotNil(t, stale)
	require.Equal(t, "invalidated", stale["stale_reason"])
	require.NotContains(t, ids(current), stale["artifact_id"])
	var replaced bool
	for _, a := range current {
		if a["supersedes"] == stale["artifact_id"] {
			replaced = true
			require.NotContains(t, a["summary"], "Alfama")
		}
	}
	require.True(t, replaced, "the new version of the episode supersedes the stale one")

	// Another space sees none of them, and an unknown space lists nothing.
	status, out = e.do(t, "POST", "/v1/spaces/"+other+"/events", `{"events":[
		{"type":"message","session_id":"x","content":"Bruno prefers tea over coffee in the mornings.","data":{"role":"user"}},
		{"type":"message","session_id":"x","content":"He drinks green tea from Kyoto.","data":{"role":"user"}}]}`)
	require.Equal(t, 201, status, out)
	buildArtifacts(t, e, other)
	others, _ := listArtifacts(t, e, other, "include_stale=true")
	require.NotEmpty(t, others)
	for _, a := range others {
		require.NotContains(t, ids(withStale), a["artifact_id"])
		require.NotContains(t, a["summary"], "Lisbon")
	}
	// A weave record forged in the other space naming this space's artifacts lists in neither
	// space, before it is projected (read from the log) or after (latent_weave_citations).
	before, _ := listArtifacts(t, e, sp, "include_stale=true")
	forged, _ := json.Marshal(map[string]any{"events": []map[string]any{{"type": "checkout.surfaced",
		"data": map[string]any{"items": []any{}, "weave": map[string]any{"artifact_ids": ids(before)}}}}})
	status, out = e.do(t, "POST", "/v1/spaces/"+other+"/events", string(forged))
	require.Equal(t, 201, status, out)
	for _, projected := range []bool{false, true} {
		if projected {
			e.project(t, other)
		}
		after, _ := listArtifacts(t, e, sp, "include_stale=true")
		for i, a := range after {
			require.Equal(t, before[i]["weaves"], a["weaves"], "projected %v: %s", projected, a["artifact_id"])
		}
	}
	unknown, _ := listArtifacts(t, e, sp+"-nobody", "include_stale=true")
	require.Empty(t, unknown)

	for _, tc := range []struct{ query, field string }{
		{"type=memo", "type"},
		{"limit=0", "limit"},
		{"limit=201", "limit"},
		{"limit=ten", "limit"},
		{"include_stale=yes", "include_stale"},
		{"after=zz", "after"},
		{"entity=" + strings.Repeat("e", 300), "entity"},
	} {
		status, out := e.do(t, "GET", "/v1/spaces/"+sp+"/artifacts?"+tc.query, "")
		require.Equal(t, 400, status, "%s: %v", tc.query, out)
		require.Equal(t, tc.field, out["error"].(map[string]any)["details"].(map[string]any)["field"], tc.query)
	}
}
