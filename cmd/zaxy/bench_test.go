package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/testcontainers"
)

func TestBenchLoCoMoCommand_WritesRankedLinesAndSummary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	dir := t.TempDir()
	out := filepath.Join(dir, "ranked.jsonl")
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"bench", "locomo", "--file", "../../bench/testdata/locomo_mini.json", "--out", out}, getenv, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "2 cases, 8 questions (2 abstention), 12 turns appended (1 without text skipped)")
	require.Contains(t, stdout.String(), "keyword only:")
	require.Contains(t, stdout.String(), "retriever: checkout")
	require.Contains(t, stdout.String(), "feeling of knowing vs evidence in packet (all, ")

	type line struct {
		QuestionID string `json:"question_id"`
		Ranked     []struct {
			Seq       int64  `json:"seq"`
			SessionID string `json:"session_id"`
			TurnID    string `json:"turn_id"`
		} `json:"ranked"`
		PacketTurnIDs []string `json:"packet_turn_ids"`
		PacketTokens  int      `json:"packet_tokens"`
		FoK           *struct {
			Judgement   string  `json:"judgement"`
			Probability float64 `json:"probability"`
		} `json:"fok"`
	}
	read := func(path string) []line {
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		var ls []line
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l line
			require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
			ls = append(ls, l)
		}
		return ls
	}
	fused, keyword := read(out), read(filepath.Join(dir, "ranked.keyword.jsonl"))
	require.Len(t, fused, 8)
	require.Len(t, keyword, 8)
	require.Equal(t, "conv-30#0", fused[0].QuestionID)
	require.Equal(t, "conv-41#2", fused[7].QuestionID)
	// The vector lane ranks every turn of the 7-turn conversation; keyword only finds the
	// turns sharing a word with "What did Caroline decide to study?" (D1:2 and D1:3).
	require.Len(t, fused[0].Ranked, 7)
	require.Len(t, keyword[0].Ranked, 2)
	require.Contains(t, []string{keyword[0].Ranked[0].TurnID, keyword[0].Ranked[1].TurnID}, "D1:3")
	// The whole conversation fits in 2000 tokens.
	require.Len(t, fused[0].PacketTurnIDs, 7)
	require.Positive(t, fused[0].PacketTokens)
	require.LessOrEqual(t, fused[0].PacketTokens, 2000)
	// Every question is also asked of the feeling of knowing.
	for _, l := range fused {
		require.NotNil(t, l.FoK, l.QuestionID)
		require.Contains(t, []string{"likely", "possible", "unlikely"}, l.FoK.Judgement)
	}
	require.Nil(t, keyword[0].FoK)

	var sum struct {
		Dataset   string `json:"dataset"`
		Retriever string `json:"retriever"`
		Embedder  string `json:"embedder"`
		Questions int    `json:"questions"`
		Turns     int    `json:"turns"`
		Overall   struct {
			Abstention int `json:"abstention"`
			Fused      struct {
				Turn struct {
					Questions   int     `json:"questions"`
					RecallAny10 float64 `json:"recall_any@10"`
				} `json:"turn"`
			} `json:"fused"`
			PacketEvidence float64 `json:"packet_evidence"`
		} `json:"overall"`
		ByType []struct {
			Name string `json:"name"`
		} `json:"by_type"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "ranked.summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &sum))
	require.Equal(t, "locomo", sum.Dataset)
	// zaxy bench builds the embedder from its getenv (ZAXY_EMBEDDER, ZAXY_MODEL_DIR).
	cfg, err := readConfig(getenv)
	require.NoError(t, err)
	want, err := cfg.memory.benchEmbedder()
	require.NoError(t, err)
	require.Equal(t, want.Model(), sum.Embedder)
	require.Equal(t, 8, sum.Questions)
	require.Equal(t, 12, sum.Turns)
	require.Equal(t, 2, sum.Overall.Abstention)
	require.Equal(t, 6, sum.Overall.Fused.Turn.Questions)
	require.Equal(t, 1.0, sum.Overall.Fused.Turn.RecallAny10, "every conversation is shorter than 10 turns")
	require.Equal(t, 1.0, sum.Overall.PacketEvidence)
	require.Len(t, sum.ByType, 5)
}

func TestBenchMemoryCommand_RejectsBadArguments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getenv := func(string) string { return "" }
	for _, args := range [][]string{
		{"bench", "longmemeval"},
		{"bench", "longmemeval", "--file", "x.json"},
		{"bench", "locomo", "--file", "x.json", "--out", "o.jsonl", "--parallel", "0"},
		{"bench", "locomo", "--file", "x.json", "--out", "o.jsonl", "--k", "5"},
		{"bench", "locomo", "--file", "x.json", "--out", "o.jsonl", "extra"},
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 2, run(ctx, args, getenv, nil, &stdout, &stderr), args)
		require.Contains(t, stderr.String(), "usage: zaxy bench "+args[1])
	}
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "o.jsonl")
	require.Equal(t, 1, run(ctx, []string{"bench", "locomo", "--file", "missing.json", "--out", out}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "missing.json")
	stderr.Reset()
	require.Equal(t, 1, run(ctx, []string{"bench", "locomo", "--file", "../../bench/testdata/locomo_mini.json", "--out", out}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "ZAXY_DATABASE_URL is not set")
}

// TestBenchSoftSpots_NeedsNoFileAndNamesItsSets: zaxy bench softspots generates its cases (no
// --file), refuses an unknown set or split, and otherwise stops only at the database.
func TestBenchSoftSpots_NeedsNoFileAndNamesItsSets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getenv := func(string) string { return "" }
	out := filepath.Join(t.TempDir(), "o.jsonl")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 2, run(ctx, []string{"bench", "softspots"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "--out is required")
	stderr.Reset()
	require.Equal(t, 1, run(ctx, []string{"bench", "softspots", "--out", out, "--set", "recipes"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "set must be one of preference, coding, multi-session or all")
	stderr.Reset()
	require.Equal(t, 1, run(ctx, []string{"bench", "softspots", "--out", out, "--split", "test"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "split must be one of dev, held-out, held-out-2 or all")
	stderr.Reset()
	require.Equal(t, 1, run(ctx, []string{"bench", "softspots", "--out", out, "--set", "coding"}, getenv, nil, &stdout, &stderr))
	require.Contains(t, stderr.String(), "ZAXY_DATABASE_URL is not set")
}

func TestBenchMemoryCommand_RejectsUnknownLanesAndEmbedders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	getenv := func(string) string { return "" }
	out := filepath.Join(t.TempDir(), "o.jsonl")
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--disable-lanes", "keyword,vectors"}, `--disable-lanes: unknown lane "vectors"; lanes are exact, keyword, vector, graph, verbatim, recent, topic, reply`},
		{[]string{"--disable-lanes", "topic, topic"}, `--disable-lanes: lane "topic" named twice`},
		{[]string{"--disable-lanes", "keyword,"}, `--disable-lanes: unknown lane ""`},
		{[]string{"--embedder", "word2vec"}, `--embedder word2vec: ZAXY_EMBEDDER must be`},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"bench", "locomo", "--file", "../../bench/testdata/locomo_mini.json", "--out", out}, tc.flags...)
		require.Equal(t, 2, run(ctx, args, getenv, nil, &stdout, &stderr), tc.flags)
		require.Contains(t, stderr.String(), tc.want)
	}
}

func TestBenchLoCoMoCommand_DisabledLanesGiveNoCandidates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	dir := t.TempDir()
	type line struct {
		QuestionID string `json:"question_id"`
		Ranked     []struct {
			TurnID string `json:"turn_id"`
		} `json:"ranked"`
	}
	read := func(path string) []line {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		var ls []line
		for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var x line
			require.NoError(t, json.Unmarshal(l, &x))
			ls = append(ls, x)
		}
		return ls
	}
	type summary struct {
		Retriever     string   `json:"retriever"`
		Embedder      string   `json:"embedder"`
		Lanes         []string `json:"lanes"`
		DisabledLanes []string `json:"disabled_lanes"`
	}
	bench := func(name string, flags ...string) ([]line, []line, summary, string) {
		out := filepath.Join(dir, name+".jsonl")
		var stdout, stderr bytes.Buffer
		args := append([]string{"bench", "locomo", "--file", "../../bench/testdata/locomo_mini.json", "--out", out}, flags...)
		require.Equal(t, 0, run(ctx, args, dbEnv(db), nil, &stdout, &stderr), stderr.String())
		var s summary
		b, err := os.ReadFile(filepath.Join(dir, name+".summary.json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &s))
		return read(out), read(filepath.Join(dir, name+".keyword.jsonl")), s, stdout.String()
	}

	// Every lane but keyword off: the fused ranking is the keyword lane's, question by
	// question (with every lane, the vector lane ranks all 7 turns of the first conversation).
	fused, keyword, sum, stdout := bench("kw", "--disable-lanes", "exact,vector,graph,verbatim,topic,reply,remedy")
	require.Equal(t, []string{"keyword"}, sum.Lanes)
	require.Equal(t, []string{"exact", "vector", "graph", "verbatim", "topic", "reply", "remedy"}, sum.DisabledLanes)
	require.Contains(t, sum.Embedder, "zaxy-offline@")
	require.Contains(t, stdout, "lanes: keyword; disabled: exact, vector, graph, verbatim, topic, reply, remedy\nembedder: zaxy-offline@")
	require.Len(t, fused, 8)
	require.Equal(t, keyword, fused)
	require.Len(t, fused[0].Ranked, 2)

	// --embedder off: no vector lane, and the summary says so.
	fused, _, sum, stdout = bench("novec", "--embedder", "off")
	require.Equal(t, "off", sum.Embedder)
	require.Empty(t, sum.DisabledLanes)
	require.NotContains(t, sum.Lanes, "vector")
	require.Contains(t, sum.Retriever, "no vector lane")
	require.Contains(t, stdout, "lanes: exact, keyword, graph, verbatim, topic, reply, remedy; disabled: none\nembedder: off")
	require.Less(t, len(fused[0].Ranked), 7)
}

func TestBenchLatentCommand_RunsTheLanesAndRejectsBadFlags(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"bench", "latent", "--families", "1", "--locomo", "../../bench/testdata/locomo_mini.json", "--longmemeval", ""},
		getenv, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "citation fidelity: ")
	require.Contains(t, stdout.String(), "(1.0000)")
	require.Contains(t, stdout.String(), "leaked into a weave once projected: 0 (before the projection caught up: 0)")
	require.Contains(t, stdout.String(), "token reduction, locomo")
	require.NotContains(t, stdout.String(), "token reduction, longmemeval")

	for _, args := range [][]string{
		{"bench", "latent", "--sections", "fidelity,dreams"},
		{"bench", "latent", "--weave-tokens", "100"},
		{"bench", "latent", "--families", "0"},
		{"bench", "latent", "extra"},
	} {
		stdout.Reset()
		stderr.Reset()
		require.Equal(t, 2, run(ctx, args, getenv, nil, &stdout, &stderr), args)
		require.Contains(t, stderr.String(), "usage: zaxy bench latent", args)
	}
}

// TestBenchLoCoMoCommand_BudgetsInTheNamedTokenizer: --tokenizer picks what --packet-tokens
// counts in, and the summary counts every fused packet under each tokenizer: none is over the
// budget in the one it was packed in. A tokenizer not in the list is refused.
func TestBenchLoCoMoCommand_BudgetsInTheNamedTokenizer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	out := filepath.Join(t.TempDir(), "ranked.jsonl")
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"bench", "locomo", "--file", "../../bench/testdata/locomo_mini.json", "--out", out,
		"--tokenizer", "cl100k_base", "--packet-tokens", "200"}, getenv, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "packets budgeted in cl100k_base to 200 tokens (8 fused packets)")
	var sum struct {
		Tokens struct {
			Tokenizer string `json:"tokenizer"`
			Budget    int    `json:"budget"`
			Packets   int    `json:"packets"`
			Counts    map[string]struct {
				Max  int `json:"max"`
				Over int `json:"over_budget"`
			} `json:"counts"`
		} `json:"tokens"`
	}
	b, err := os.ReadFile(strings.TrimSuffix(out, ".jsonl") + ".summary.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &sum))
	require.Equal(t, "cl100k_base", sum.Tokens.Tokenizer)
	require.Equal(t, 8, sum.Tokens.Packets)
	require.Len(t, sum.Tokens.Counts, 3)
	require.Zero(t, sum.Tokens.Counts["cl100k_base"].Over)
	require.LessOrEqual(t, sum.Tokens.Counts["cl100k_base"].Max, 200)
	require.Positive(t, sum.Tokens.Counts["o200k_base"].Max)

	stderr.Reset()
	code = run(ctx, []string{"bench", "locomo", "--file", "../../bench/testdata/locomo_mini.json", "--out", out, "--tokenizer", "gpt2"},
		getenv, nil, &stdout, &stderr)
	require.NotEqual(t, 0, code)
	require.Contains(t, stderr.String(), "--tokenizer must be one of o200k_base, cl100k_base, chars4")
}
