package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

// artifactSpace appends two sessions in which go vet failed the same way and was fixed (a
// failure pattern) through the CLI.
func artifactEvents() [][]string {
	var evs [][]string
	for _, s := range []string{"s1", "s2"} {
		evs = append(evs,
			[]string{"--session", s, "--type", "tool_call.completed", "--data", `{"tool":"go vet","outcome":"failure","error":"vet: unreachable code"}`},
			[]string{"--session", s, "--type", "tool_call.completed", "--data", `{"tool":"go vet","outcome":"success"}`})
	}
	return evs
}

// TestArtifact_CLIListsShowsAndWithdraws: zaxy artifact list finds the failure pattern, show
// prints it with its citations, invalidate withdraws it (a confidence revision to 0, which the
// listing shows and the prospective pass then leaves out), and bad arguments exit 2.
func TestArtifact_CLIListsShowsAndWithdraws(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	for _, a := range artifactEvents() {
		require.Equal(t, 0, run(ctx, append([]string{"append", "--space", "arts"}, a...), getenv, nil, &out, &errOut), errOut.String())
	}
	require.Equal(t, 0, run(ctx, []string{"rebuild", "--space", "arts", "--no-embed"}, getenv, nil, &out, &errOut), errOut.String())

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"artifact", "list", "--space", "arts", "--type", "failure"}, getenv, nil, &out, &errOut), errOut.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 1, out.String())
	id, rest, _ := strings.Cut(lines[0], "\t")
	require.True(t, strings.HasPrefix(rest, "failure\t0.667\t"), rest)

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"artifact", "show", "--space", "arts", id}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "cites: 1,2,3,4\n")
	require.Contains(t, out.String(), "produced confidence: 0.667\n")

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"artifact", "invalidate", "--space", "arts", id, "--reason", "vet was misconfigured", "--evidence", "3"},
		getenv, nil, &out, &errOut), errOut.String())
	// seq 5 is the build's skill proposal of the pattern; the revision follows it.
	require.Equal(t, "artifact "+id+" withdrawn (confidence 0, seq 6)\n", out.String())
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"artifact", "show", "--space", "arts", id}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "\tfailure\t0\tunreviewed, withdrawn\t")
	require.Contains(t, out.String(), "revised to 0 by seq 6\n")

	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"artifact", "show", "--space", "arts", strings.Repeat("0", 64)}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "no artifact")
	require.Equal(t, 2, run(ctx, []string{"artifact", "show", "--space", "arts", "nothex"}, getenv, nil, &out, &errOut))
	require.Equal(t, 2, run(ctx, []string{"artifact", "invalidate", "--space", "arts", id}, getenv, nil, &out, &errOut), "--reason is required")
	require.Equal(t, 2, run(ctx, []string{"artifact", "invalidate", "--space", "arts", id, "--reason", "x", "--evidence", "a"}, getenv, nil, &out, &errOut))
}

func TestArtifact_PredecessorIsTheIdOneLess(t *testing.T) {
	t.Parallel()
	require.Equal(t, strings.Repeat("0", 63)+"9", predecessor(strings.Repeat("0", 63)+"a"))
	require.Equal(t, strings.Repeat("0", 62)+"0f", predecessor(strings.Repeat("0", 62)+"10"))
	require.Equal(t, "ab"+strings.Repeat("f", 62), predecessor("ac"+strings.Repeat("0", 62)))
	require.Equal(t, "", predecessor(strings.Repeat("0", 64)))
}
