package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

func TestReview_CLIListsAndDecides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	for _, a := range [][]string{
		{"--type", "fact.asserted", "--data", `{"subject":"Alice","predicate":"works at","object":"Acme"}`},
		{"--type", "message", "--content", "Alice moved to Beta", "--data", `{"role":"user"}`},
		{"--type", "proposal.created", "--data", `{"kind":"belief_update","evidence":[2],"fact":{"subject":"Alice","predicate":"works at","object":"Beta"}}`},
		{"--type", "proposal.created", "--data", `{"kind":"consolidation","evidence":[1,2]}`},
	} {
		require.Equal(t, 0, run(ctx, append([]string{"append", "--space", "cli"}, a...), getenv, nil, &out, &errOut), errOut.String())
	}
	require.Equal(t, 0, run(ctx, []string{"rebuild", "--space", "cli", "--no-embed"}, getenv, nil, &out, &errOut), errOut.String())

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"review", "list", "--space", "cli"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "3\tpending\tbelief_update")
	require.Contains(t, out.String(), "4\tpending\tconsolidation\tevidence 1,2")

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"review", "accept", "--space", "cli", "3", "--reason", "confirmed"}, getenv, nil, &out, &errOut), errOut.String())
	require.Equal(t, "proposal 3 accepted (appended seq 5, 6)\n", out.String())
	require.Equal(t, 0, run(ctx, []string{"review", "defer", "--space", "cli", "4"}, getenv, nil, &out, &errOut), errOut.String())

	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"review", "reject", "--space", "cli", "3"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "already accepted")
	errOut.Reset()
	require.Equal(t, 1, run(ctx, []string{"review", "reject", "--space", "cli", "2"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "not a proposal")
	require.Equal(t, 2, run(ctx, []string{"review", "reject", "--space", "cli", "x"}, getenv, nil, &out, &errOut))

	require.Equal(t, 0, run(ctx, []string{"rebuild", "--space", "cli", "--no-embed"}, getenv, nil, &out, &errOut), errOut.String())
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"review", "list", "--space", "cli", "--status", "all"}, getenv, nil, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "3\taccepted")
	require.Contains(t, out.String(), "4\tdeferred")
}
