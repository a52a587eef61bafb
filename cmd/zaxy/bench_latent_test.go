package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBenchLatentLanes_RunWithoutADatabaseAndMeetTheirTargets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getenv := func(string) string { return "" }
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"bench", "latent-attribution", "--json"}, getenv, nil, &stdout, &stderr), stderr.String())
	var att struct {
		Traces  int     `json:"traces"`
		MacroF1 float64 `json:"macro_f1"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &att))
	require.Equal(t, 180, att.Traces)
	require.GreaterOrEqual(t, att.MacroF1, 0.8)

	stdout.Reset()
	require.Equal(t, 0, run(ctx, []string{"bench", "latent-priors"}, getenv, nil, &stdout, &stderr), stderr.String())
	require.Contains(t, stdout.String(), "procedure prior top-1")

	for _, args := range [][]string{
		{"bench", "latent-attribution", "--traces", "99"},
		{"bench", "latent-attribution", "--confounded", "1.5"},
		{"bench", "latent-priors", "--seed", "0"},
		{"bench", "latent-priors", "extra"},
	} {
		stderr.Reset()
		require.Equal(t, 2, run(ctx, args, getenv, nil, &stdout, &stderr), args)
		require.Contains(t, stderr.String(), "usage: zaxy bench "+args[1])
	}
	stderr.Reset()
	require.Equal(t, 1, run(ctx, []string{"bench", "latent-priors", "--sessions", "2"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "sessions 4-100")
}
