package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

func TestRetrospective_CLIJudgesASessionOnceAndNamesBadFlags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	for _, a := range [][]string{
		{"--type", "tool_call.completed", "--session", "s1", "--data", `{"tool":"migrate","outcome":"failure","error":"lock timeout"}`},
		{"--type", "outcome.recorded", "--session", "s1", "--data", `{"session_id":"s1","summary":"the migration did not run"}`},
	} {
		require.Equal(t, 0, run(ctx, append([]string{"append", "--space", "cli"}, a...), getenv, nil, &out, &errOut), errOut.String())
	}
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"retrospective", "--space", "cli", "--session", "s1"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "outcome 2\tfailure (classified)\tcause tool_failure\tconfidence 0.7")
	require.Contains(t, out.String(), "1 outcome(s) judged, 1 event(s) appended", "the failure prior proposal")

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"retrospective", "--space", "cli", "--session", "s1", "--json"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), `"appended":0`, "a re-run appends nothing")
	require.Contains(t, out.String(), `"cause":"tool_failure"`)

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"retrospective", "--space", "cli", "--session", "nobody"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), `no outcome.recorded about session "nobody"`)

	for _, args := range [][]string{
		{"retrospective", "--space", "cli"},
		{"retrospective", "--session", "s1"},
		{"retrospective", "--space", "cli", "--session", "s1", "--from-seq", "-1"},
		{"retrospective", "--space", "cli", "--session", "s1", "extra"},
	} {
		errOut.Reset()
		require.Equal(t, 2, run(ctx, args, func(k string) string {
			if k == "ZAXY_SPACE" {
				return ""
			}
			return getenv(k)
		}, nil, &out, &errOut), "%v", args)
		require.Contains(t, errOut.String(), "usage: zaxy retrospective", "%v", args)
	}
}
