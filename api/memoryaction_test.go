package api_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// TestHTTP_MemoryActionsCiteOrAppendOneEvent: the reading actions answer with citations that
// verify against the chain and record what they surfaced (memory_action.surfaced, in the
// caller's session; no_record: nothing), each writing action appends exactly one event (once, with an
// Idempotency-Key), bad input is a 400 naming the field and another space sees nothing.
func TestHTTP_MemoryActionsCiteOrAppendOneEvent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	const sp = "acts"
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
		status, out := e.do(t, "POST", "/v1/spaces/"+sp+"/events", `{"events":[`+strings.Join(evs, ",")+`]}`)
		require.Equal(t, 201, status, out)
	}
	pool := e.db.AppPool(t)
	fixture.Project(t, pool, sp)
	b, err := latent.NewBuilder(ctx, pool, eventloom.NewStore(pool, nil, nil), latent.Config{})
	require.NoError(t, err)
	_, err = b.Build(ctx, sp)
	require.NoError(t, err)

	verify := func(refs []any) {
		t.Helper()
		require.NotEmpty(t, refs)
		for _, r := range refs {
			ref := r.(map[string]any)
			var hash []byte
			require.NoError(t, e.db.AdminPool(t).QueryRow(ctx, `SELECT hash FROM events WHERE space_id = $1 AND seq = $2`, sp, int64(ref["seq"].(float64))).Scan(&hash))
			require.Equal(t, hex.EncodeToString(hash), ref["hash"])
		}
	}
	head := e.count(t)
	status, out := e.do(t, "POST", "/v1/spaces/"+sp+"/actions/retrieve-failure-prior", `{"tools":["go vet"],"session_id":"agent-1"}`)
	require.Equal(t, 200, status, out)
	require.Equal(t, head+1, e.count(t), "a reading action records what it surfaced")
	rec := out["record"].(map[string]any)
	var typ, session string
	require.NoError(t, e.db.AdminPool(t).QueryRow(ctx, `SELECT type, session_id FROM events WHERE space_id = $1 AND seq = $2`,
		sp, int64(rec["seq"].(float64))).Scan(&typ, &session))
	require.Equal(t, [2]string{"memory_action.surfaced", "agent-1"}, [2]string{typ, session})
	status, out = e.do(t, "POST", "/v1/spaces/"+sp+"/actions/retrieve-failure-prior", `{"tools":["go vet"],"no_record":true}`)
	require.Equal(t, 200, status, out)
	require.Nil(t, out["record"])
	require.Equal(t, head+1, e.count(t), "no_record appends nothing")
	priors := out["priors"].([]any)
	require.Len(t, priors, 1)
	artifact := priors[0].(map[string]any)["artifact_id"].(string)
	verify(out["source_event_refs"].([]any))
	for _, path := range []string{"retrieve-procedure-prior", "simulate-forward", "query-causal-neighborhood", "reflect-backward"} {
		body := map[string]string{"retrieve-procedure-prior": `{"tools":["git pull","go build"]}`, "simulate-forward": `{"steps":["git pull","go vet"]}`,
			"query-causal-neighborhood": `{"tool":"go vet"}`, "reflect-backward": `{"session_id":"s2"}`}[path]
		n := e.count(t)
		status, out = e.do(t, "POST", "/v1/spaces/"+sp+"/actions/"+path, body)
		require.Equal(t, 200, status, "%s: %v", path, out)
		require.Equal(t, n+1, e.count(t), "%s leaves exactly one event, its record", path)
		require.NotNil(t, out["record"], path)
		if path != "query-causal-neighborhood" { // no decisions were recorded: no causal links
			verify(out["source_event_refs"].([]any))
		}
	}

	before := e.count(t)
	for _, tc := range []struct{ path, body, typ string }{
		{"revise-confidence", fmt.Sprintf(`{"artifact_id":%q,"confidence":0.3,"reason":"the fix no longer works"}`, artifact), "memory.confidence_revised"},
		{"propose-memory-update", fmt.Sprintf(`{"kind":"consolidation","evidence":[4,10],"artifact_id":%q}`, artifact), "proposal.created"},
		{"record-known-unknown", `{"question":"Which vet analyzers does CI enable?","session_id":"s3"}`, "memory.known_unknown"},
		{"score-memory-action", `{"action":"retrieve_failure_prior","cited_seqs":[4],"signal":"helpful"}`, "feedback.recorded"},
	} {
		status, out = e.do(t, "POST", "/v1/spaces/"+sp+"/actions/"+tc.path, tc.body, "Idempotency-Key", "key-"+tc.path)
		require.Equal(t, 201, status, "%s: %v", tc.path, out)
		require.Equal(t, tc.typ, out["type"])
		require.Equal(t, before+1, e.count(t), "%s appends exactly one event", tc.path)
		status, out = e.do(t, "POST", "/v1/spaces/"+sp+"/actions/"+tc.path, tc.body, "Idempotency-Key", "key-"+tc.path)
		require.Equal(t, 200, status, "%s: %v", tc.path, out)
		require.Equal(t, true, out["replayed"])
		require.Equal(t, before+1, e.count(t), "%s: the retry appends nothing", tc.path)
		before++
	}
	status, out = e.do(t, "POST", "/v1/spaces/"+sp+"/actions/retrieve-failure-prior", `{"tools":["go vet"]}`)
	require.Equal(t, 200, status, out)
	require.InDelta(t, 0.3, out["priors"].([]any)[0].(map[string]any)["confidence"], 1e-9, "ranked by the revision")
	before = e.count(t)

	for _, tc := range []struct{ path, body, field string }{
		{"retrieve-procedure-prior", `{}`, "goal"},
		{"retrieve-failure-prior", `{"tools":["go vet"],"limit":99}`, "limit"},
		{"retrieve-failure-prior", `{"tool":"go vet"}`, "tool"},
		{"simulate-forward", `{"steps":[]}`, "steps"},
		{"reflect-backward", `{}`, "session_id"},
		{"query-causal-neighborhood", `{"limit":2}`, "seq"},
		{"propose-memory-update", `{"kind":"belief_update","evidence":[1],"fact":{"subject":"vet"}}`, "fact.predicate"},
		{"revise-confidence", fmt.Sprintf(`{"artifact_id":%q,"reason":"r"}`, artifact), "confidence"},
		{"record-known-unknown", `{"question":""}`, "question"},
		{"score-memory-action", `{"action":"retrieve_failure_prior","signal":"helpful","action_seq":1}`, "action_seq"},
		{"retrieve-failure-prior", `{"tools":["go vet"],"session_id":"a\u0000b"}`, "session_id"},
		{"simulate-forward", `{"steps":["go vet"],"actor":"\u0000"}`, "actor"},
	} {
		status, out = e.do(t, "POST", "/v1/spaces/"+sp+"/actions/"+tc.path, tc.body)
		require.Equal(t, 400, status, "%s %s: %v", tc.path, tc.body, out)
		require.Equal(t, tc.field, out["error"].(map[string]any)["details"].(map[string]any)["field"], "%s %s", tc.path, tc.body)
	}
	require.Equal(t, before, e.count(t), "refused actions append nothing")

	status, out = e.do(t, "POST", "/v1/spaces/other/actions/revise-confidence", fmt.Sprintf(`{"artifact_id":%q,"confidence":0.1,"reason":"r"}`, artifact))
	require.Equal(t, 404, status, out)
	require.Equal(t, "artifact_not_found", out["error"].(map[string]any)["code"])
	status, out = e.do(t, "POST", "/v1/spaces/other/actions/retrieve-failure-prior", `{"tools":["go vet"]}`)
	require.Equal(t, 200, status, out)
	require.Empty(t, out["priors"], "another space's artifacts are not its priors")
}
