package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeFoKLines writes a ranked.jsonl of n questions whose feeling of knowing rises with the
// query's length and whose target follows it, every seventh question a negative against it.
func writeFoKLines(t *testing.T, path string, n int) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		terms := 1 + i%12
		p := 0.4 + 0.05*float64(terms)
		pos := terms > 3
		if i%7 == 0 {
			pos = !pos
		}
		fmt.Fprintf(&b, `{"question_id":"q%d","fok":{"judgement":"likely","probability":%g,"query_terms":%d,"known_idf_share":0.9,"max_known_specificity":0.3,"entity_hits":0,"positive":%t}}`+"\n",
			i, p, terms, pos)
	}
	b.WriteString(`{"question_id":"no-target","fok":{"judgement":"likely","probability":0.5,"query_terms":3,"known_idf_share":0.9,"max_known_specificity":0.3,"entity_hits":0}}` + "\n")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o600))
}

func TestBenchFoKFitCommand_FitsAndCrossValidatesBothFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getenv := func(string) string { return "" }
	dir := t.TempDir()
	lme, locomo := filepath.Join(dir, "lme.jsonl"), filepath.Join(dir, "locomo.jsonl")
	writeFoKLines(t, lme, 60)
	writeFoKLines(t, locomo, 240)

	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"bench", "fok-fit", "--lme", lme, "--locomo", locomo, "--folds", "5"}, getenv, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "| shipped (metamemory/probability.go) | 2.98 | -2.54 | -2.00 | 1.79 |")
	require.Contains(t, stdout.String(), "| refit on every question (in sample) |")
	require.Contains(t, stdout.String(), "5-fold CV (seed 1)")
	require.Contains(t, stdout.String(), "| longmemeval | 60 |")
	require.Contains(t, stdout.String(), "| locomo | 240 |")
	require.Contains(t, stdout.String(), "warning: the files' probabilities differ")

	stdout.Reset()
	code = run(ctx, []string{"bench", "fok-fit", "--lme", lme, "--locomo", locomo, "--repeats", "3", "--json"}, getenv, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	var rep struct {
		Folds   int `json:"folds"`
		Repeats int `json:"repeats"`
		Sets    []struct {
			Name           string `json:"name"`
			Questions      int    `json:"questions"`
			Skipped        int    `json:"skipped"`
			CrossValidated struct {
				Brier, Skill float64
			} `json:"cross_validated"`
		} `json:"sets"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &rep))
	require.Equal(t, 10, rep.Folds)
	require.Equal(t, 3, rep.Repeats)
	require.Len(t, rep.Sets, 2)
	require.Equal(t, "longmemeval", rep.Sets[0].Name)
	require.Equal(t, 1, rep.Sets[0].Skipped)
	require.Positive(t, rep.Sets[1].CrossValidated.Skill, "query length predicts the target")
}

func TestBenchFoKFitCommand_RejectsBadArguments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getenv := func(string) string { return "" }
	dir := t.TempDir()
	good, empty := filepath.Join(dir, "good.jsonl"), filepath.Join(dir, "empty.jsonl")
	writeFoKLines(t, good, 60)
	require.NoError(t, os.WriteFile(empty, []byte(`{"question_id":"a"}`+"\n"), 0o600))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--lme", good}, "--lme and --locomo are both required"},
		{[]string{"--lme", good, "--locomo", good, "--folds", "1"}, "--folds must be between 2 and 100"},
		{[]string{"--lme", good, "--locomo", good, "--penalty", "0"}, "--penalty must be above 0"},
		{[]string{"--lme", good, "--locomo", good, "--repeats", "0"}, "--repeats must be between 1 and 1000"},
		{[]string{"--lme", good, "--locomo", good, "--seed", "0"}, "--seed must be positive"},
		{[]string{"--lme", good, "--locomo", good, "extra"}, `unexpected argument "extra"`},
		{[]string{"--lme", good, "--locomo", filepath.Join(dir, "missing.jsonl")}, "missing.jsonl"},
		{[]string{"--lme", empty, "--locomo", good}, "no question with a feeling of knowing and a target"},
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 2, run(ctx, append([]string{"bench", "fok-fit"}, tc.args...), getenv, nil, &stdout, &stderr), tc.args)
		require.Contains(t, stderr.String(), tc.want, tc.args)
	}
}
