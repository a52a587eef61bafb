package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBenchLoop_NamesBadFlagsAndNeedsADatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getenv := func(string) string { return "" }
	var stdout, stderr bytes.Buffer
	for _, args := range [][]string{
		{"bench", "loop", "--seed", "0"},
		{"bench", "loop", "--families", "0"},
		{"bench", "loop", "--tasks", "-1"},
		{"bench", "loop", "--max-steps", "3"},
		{"bench", "loop", "--arms", "on,sometimes"},
		{"bench", "loop", "--arms", "on,on"},
		{"bench", "loop", "--run", "a/b"},
		{"bench", "loop", "extra"},
	} {
		stderr.Reset()
		require.Equal(t, 2, run(ctx, args, getenv, nil, &stdout, &stderr), args)
		require.Contains(t, stderr.String(), "usage: zaxy bench loop", args)
	}
	stderr.Reset()
	require.Equal(t, 1, run(ctx, []string{"bench", "loop", "--arms", "off"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "ZAXY_DATABASE_URL")
}
