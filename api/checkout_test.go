package api_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHTTP_CheckoutAndQuery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, _ := e.do(t, "POST", "/v1/spaces/c/events", `{"events":[
		{"type":"message","content":"The staging registry times out after 30 seconds","data":{"role":"user"}},
		{"type":"fact.asserted","data":{"subject":"registry","predicate":"timeout","value":"30s"}}]}`)
	require.Equal(t, 201, status)

	// Not projected yet: the verbatim lane still finds it.
	status, out := e.do(t, "POST", "/v1/spaces/c/checkout", `{"query":"registry timeout","max_tokens":500}`)
	require.Equal(t, 200, status, out)
	require.Contains(t, out["text"], "times out after 30 seconds")
	require.LessOrEqual(t, out["budget"].(map[string]any)["used"].(float64), 500.0)
	require.NotZero(t, out["surfaced_seq"])

	e.project(t, "c")
	status, out = e.do(t, "POST", "/v1/spaces/c/query", `{"query":"registry timeout","disable_lanes":["recent"]}`)
	require.Equal(t, 200, status, out)
	items := out["items"].([]any)
	require.NotEmpty(t, items)
	require.NotEmpty(t, items[0].(map[string]any)["components"])

	for _, tc := range []struct{ body, field string }{
		{`{"query":""}`, "query"},
		{`{"query":"x","max_tokens":50}`, "max_tokens"},
		{`{"query":"x","max_tokens":50000}`, "max_tokens"},
		{`{"query":"x","purpose":"gossip"}`, "purpose"},
		{`{"query":"x","as_of":"last tuesday"}`, "as_of"},
		{`{"query":"x","lanes":["vector"]}`, "lanes"},
		{`{"query":"x","cues":{"Repo":"api"}}`, "cues"},
		{`{"query":"x","cues":{"repo":""}}`, "cues.repo"},
		{`{"query":"x","cues":{"repo":3}}`, "cues"},
		{`{"query":"x","cues":{"task":{"id":1}}}`, "cues"},
		{`{"query":"x","cues":["repo"]}`, "cues"},
		{`{"query":"x","cues":{"phase":"` + strings.Repeat("d", 201) + `"}}`, "cues.phase"},
		{`{"query":"x","who_when":"yes"}`, "who_when"},
		{`{"query":"x","weave":1}`, "weave"},
		{`{"query":"x","ppr_weight":-0.5}`, "ppr_weight"},
		{`{"query":"x","ppr_weight":6}`, "ppr_weight"},
		{`{"query":"x","ppr_weight":"high"}`, "ppr_weight"},
	} {
		status, out := e.do(t, "POST", "/v1/spaces/c/checkout", tc.body)
		require.Equal(t, 400, status, tc.body)
		require.Equal(t, tc.field, out["error"].(map[string]any)["details"].(map[string]any)["field"], tc.body)
	}
	// ppr_weight switches the PageRank lane on for one request (it is off by default).
	status, out = e.do(t, "POST", "/v1/spaces/c/query", `{"query":"registry timeout","ppr_weight":0.5}`)
	require.Equal(t, 200, status, out)
	require.NotContains(t, out["lanes"].(map[string]any)["ppr"], "off", out["lanes"])
	status, out = e.do(t, "POST", "/v1/spaces/c/query", `{"query":"registry timeout"}`)
	require.Equal(t, 200, status, out)
	require.Equal(t, true, out["lanes"].(map[string]any)["ppr"].(map[string]any)["off"], out["lanes"])
	// who_when: the message's line opens with its day and role.
	status, out = e.do(t, "POST", "/v1/spaces/c/checkout", `{"query":"registry timeout","max_tokens":500,"who_when":true,"no_record":true}`)
	require.Equal(t, 200, status, out)
	require.Regexp(t, `\] \d{4}-\d\d-\d\d user: The staging registry times out after 30 seconds`, out["text"])
	// A space with no events: an empty packet, and no checkout.surfaced that would create it.
	status, out = e.do(t, "POST", "/v1/spaces/none/checkout", `{"query":"x"}`)
	require.Equal(t, 200, status, out)
	require.NotContains(t, out, "surfaced_seq")
}

func TestHTTP_ContextLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, out := e.do(t, "POST", "/v1/spaces/lc/context/after-turn", `{"session_id":"s1","max_tokens":600,
		"events":[{"type":"message","content":"Deploys go through the blue cluster now","data":{"role":"user"}},
		          {"type":"task.updated","data":{"task_id":"T1","status":"open","title":"move deploys"}}]}`)
	require.Equal(t, 201, status, out)
	require.Len(t, out["receipts"], 2)
	require.Contains(t, out["context"].(map[string]any)["text"], "blue cluster")

	status, out = e.do(t, "POST", "/v1/spaces/lc/context/assemble", `{"query":"deploys","session_id":"s1","working_set":["deploy.yaml"]}`)
	require.Equal(t, 200, status, out)
	require.Contains(t, out["text"], "- deploy.yaml")

	status, out = e.do(t, "POST", "/v1/spaces/lc/sessions/s1/resume", ``)
	require.Equal(t, 201, status, out)
	require.Len(t, out["open_tasks"], 1)

	status, out = e.do(t, "POST", "/v1/spaces/lc/handoff", `{"session_id":"s1","tail_events":3}`)
	require.Equal(t, 200, status, out)
	require.True(t, out["chain"].(map[string]any)["ok"].(bool))

	status, out = e.do(t, "POST", "/v1/spaces/lc/subagents/helper-1/cleanup", `{"outcome":"success","summary":"done"}`)
	require.Equal(t, 201, status, out)

	for _, tc := range []struct{ path, body, field string }{
		{"/v1/spaces/lc/context/after-turn", `{"session_id":"s1","events":[]}`, "events"},
		{"/v1/spaces/lc/context/after-turn", `{"session_id":"s1","events":[{"type":"BAD"}]}`, "events[0].type"},
		{"/v1/spaces/lc/context/assemble", `{"query":"x","max_tokens":10}`, "max_tokens"},
		{"/v1/spaces/lc/handoff", `{"tail_events":3}`, "session_id"},
		{"/v1/spaces/lc/subagents/helper-1/cleanup", `{"outcome":"meh"}`, "outcome"},
	} {
		status, out := e.do(t, "POST", tc.path, tc.body)
		require.Equal(t, 400, status, tc.body)
		require.Equal(t, tc.field, out["error"].(map[string]any)["details"].(map[string]any)["field"], tc.body)
	}
	var n int
	require.NoError(t, e.db.AdminPool(t).QueryRow(context.Background(), `SELECT count(*) FROM events WHERE type = 'message'`).Scan(&n))
	require.Equal(t, 1, n, "rejected after-turn requests appended nothing")
}

func TestHTTP_Metrics(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, _ := e.do(t, "POST", "/v1/spaces/m/events", `{"events":[{"type":"note","content":"a"},{"type":"note","content":"b"}]}`)
	require.Equal(t, 201, status)
	status, _ = e.do(t, "POST", "/v1/spaces/m/checkout", `{"query":"a b"}`)
	require.Equal(t, 200, status)
	resp, err := http.Get(e.url + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	text := string(b)
	for _, want := range []string{
		`zaxy_http_request_duration_seconds_count{method="POST",route="/v1/spaces/{space}/events",status="201"} 1`,
		`zaxy_events_appended_total 2`,
		`zaxy_checkout_lane_seconds_count{lane="keyword"} 1`,
		`zaxy_projection_lag_events`,
		`zaxy_jobs{kind="project_space",state="available"}`,
	} {
		require.Contains(t, text, want)
	}
}

func TestHTTP_QueryIncludeAttenuatedAndPlainProfile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A note 200 days old, a use of the space 199 days ago: the note is below the floor.
	status, out := e.do(t, "POST", "/v1/spaces/att/events", `{"events":[
		{"type":"message","content":"The audit topic keeps kafka records for seven days","occurred_at":"2026-01-01T00:00:00Z","data":{"role":"user"}},
		{"type":"feedback.recorded","occurred_at":"2026-01-02T00:00:00Z","data":{"target_seqs":[1],"signal":"unhelpful"}}]}`)
	require.Equal(t, 201, status, out)
	e.project(t, "att")
	ids := func(out map[string]any) []string {
		var ids []string
		for _, it := range out["items"].([]any) {
			ids = append(ids, it.(map[string]any)["item_id"].(string))
		}
		return ids
	}
	body := `{"query":"audit topic kafka records","as_of":"2026-07-20T00:00:00Z"}`
	status, out = e.do(t, "POST", "/v1/spaces/att/query", body)
	require.Equal(t, 200, status, out)
	require.NotContains(t, ids(out), "ev:1")
	require.Equal(t, 1.0, out["salience"].(map[string]any)["attenuated"])

	status, out = e.do(t, "POST", "/v1/spaces/att/query?include_attenuated=true", body)
	require.Equal(t, 200, status, out)
	require.Contains(t, ids(out), "ev:1")
	labels := out["items"].([]any)[0].(map[string]any)["labels"].(map[string]any)
	require.Equal(t, "salience", labels["attenuated_by"])

	status, out = e.do(t, "POST", "/v1/spaces/att/query", `{"query":"audit topic kafka records","as_of":"2026-07-20T00:00:00Z","include_attenuated":true}`)
	require.Equal(t, 200, status, out)
	require.Contains(t, ids(out), "ev:1", "the request field works as the parameter does")

	status, out = e.do(t, "POST", "/v1/spaces/att/query?retrieval_profile=plain", body)
	require.Equal(t, 200, status, out)
	require.Contains(t, ids(out), "ev:1", "plain: no salience at all")
	require.Nil(t, out["salience"])

	status, out = e.do(t, "POST", "/v1/spaces/att/query?include_attenuated=yes", body)
	require.Equal(t, 400, status, out)
	require.Equal(t, "include_attenuated", out["error"].(map[string]any)["details"].(map[string]any)["field"])
	status, out = e.do(t, "POST", "/v1/spaces/att/checkout?retrieval_profile=fancy", body)
	require.Equal(t, 400, status, out)
	require.Equal(t, "retrieval_profile", out["error"].(map[string]any)["details"].(map[string]any)["field"])
}
