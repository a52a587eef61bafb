package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	zmcp "github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/tokenize"
)

// definitionTokens lists profile's tools over stdio and counts their definitions (tools/list's
// tools as JSON, what a client puts in the model's context) under every tokenizer.
func definitionTokens(t *testing.T, e *env, profile string) (tools []*sdk.Tool, counts map[string]int) {
	t.Helper()
	cs := connectStdio(t, e.api, zmcp.Config{Profile: profile})
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	b, err := json.Marshal(res.Tools)
	require.NoError(t, err)
	counts = map[string]int{"bytes": len(b)}
	for _, name := range tokenize.Names {
		c, err := tokenize.Get(name)
		require.NoError(t, err)
		counts[name] = c.Count(string(b))
	}
	return res.Tools, counts
}

// TestDefinitions_CoreFitsUnderTwoThousandTokens: the core profile's definitions, paid in
// every agent turn, are under 2,000 o200k tokens; compact's are fewer still, and full lists
// everything. Run with -v for the counts docs/mcp.md reports. (Before the lean definitions,
// core's were 4,507 o200k tokens.)
func TestDefinitions_CoreFitsUnderTwoThousandTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	counts := map[string]map[string]int{}
	for _, p := range zmcp.Profiles {
		tools, c := definitionTokens(t, e, p)
		counts[p] = c
		t.Logf("%-7s %2d tools %6d bytes: o200k_base %5d, cl100k_base %5d, chars4 %5d",
			p, len(tools), c["bytes"], c[tokenize.O200kBase], c[tokenize.CL100kBase], c[tokenize.Chars4])
		for _, tl := range tools {
			require.NotNil(t, tl.OutputSchema, "%s: %s declares its structured content", p, tl.Name)
			require.Equal(t, "object", tl.OutputSchema.(map[string]any)["type"], "%s: %s", p, tl.Name)
		}
	}
	require.LessOrEqual(t, counts[zmcp.ProfileCore][tokenize.O200kBase], 2000,
		"the core profile's tool definitions must stay under 2,000 o200k tokens: shorten mcp/lean.go's briefs")
	require.Less(t, counts[zmcp.ProfileCompact][tokenize.O200kBase], counts[zmcp.ProfileCore][tokenize.O200kBase])
	require.Less(t, counts[zmcp.ProfileCore][tokenize.O200kBase], counts[zmcp.ProfileFull][tokenize.O200kBase]/5)
}

// TestManage_CompactReachesEveryOperation: the compact profile lists five tools, and
// memory_manage runs every other one by name with that tool's own checks and answers.
func TestManage_CompactReachesEveryOperation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	srv := e.serveHTTP(t)
	for transport, cs := range map[string]*sdk.ClientSession{
		"stdio": connectStdio(t, e.api, zmcp.Config{Profile: zmcp.ProfileCompact}),
		"http":  connectHTTP(t, srv.URL+"/mcp?profile=compact", ""),
	} {
		names := toolNames(t, cs)
		slices.Sort(names)
		require.Equal(t, []string{"memory_append", "memory_capabilities", "memory_checkout", "memory_feedback", "memory_manage"}, names, transport)
		space := "manage-" + transport
		rec := ok(t, cs, "memory_append", map[string]any{"space": space, "type": "fact.asserted",
			"data": map[string]any{"subject": "Alice", "predicate": "works at", "object": "Acme"}})
		seq := rec["events"].([]any)[0].(map[string]any)["seq"]
		e.project(t, space)

		// A tool compact does not list, by name: the same answer as the tool's own.
		facts := ok(t, cs, "memory_manage", map[string]any{"space": space, "operation": "memory_facts",
			"arguments": map[string]any{"entity": "alice"}})
		require.Len(t, facts["facts"], 1, transport)
		q := ok(t, cs, "memory_manage", map[string]any{"space": space, "operation": "memory_query",
			"arguments": map[string]any{"query": "where does Alice work", "limit": 5}})
		require.NotEmpty(t, q["items"], transport)
		inv := ok(t, cs, "memory_manage", map[string]any{"space": space, "operation": "memory_invalidate",
			"arguments": map[string]any{"target_seq": seq, "reason": "she left"}})
		require.Greater(t, inv["events"].([]any)[0].(map[string]any)["seq"], seq, transport)
		replay := ok(t, cs, "memory_manage", map[string]any{"space": space, "operation": "memory_replay", "arguments": map[string]any{"after_seq": seq}})
		require.Equal(t, "memory.invalidated", replay["events"].([]any)[0].(map[string]any)["type"], transport)
		asm := call(t, cs, "memory_manage", map[string]any{"space": space, "operation": "context_assemble",
			"arguments": map[string]any{"query": "Alice", "working_set": []any{"editing deploy.md"}}})
		require.False(t, asm.IsError, text(asm))
		require.Contains(t, text(asm), "editing deploy.md", "the tool's own text rendering")

		// Its mistakes are the tool's own errors, naming the field.
		for _, tc := range []struct {
			args  map[string]any
			field string
		}{
			{map[string]any{"space": space, "operation": "memory_teleport"}, "operation"},
			{map[string]any{"space": space, "operation": "memory_checkout", "arguments": map[string]any{"query": "x"}}, "operation"},
			{map[string]any{"space": space, "operation": "memory_capabilities"}, "operation"},
			{map[string]any{"space": space, "operation": "memory_facts", "arguments": map[string]any{"space": "other"}}, "arguments.space"},
			{map[string]any{"space": space, "operation": "memory_facts", "arguments": map[string]any{"entitty": "x"}}, "entitty"},
			{map[string]any{"space": space, "operation": "memory_query", "arguments": map[string]any{"query": "x", "tokenizer": "gpt2"}}, "tokenizer"},
			{map[string]any{"space": space, "operation": "memory_facts", "args": map[string]any{}}, "args"},
			{map[string]any{"operation": "memory_facts"}, "space"},
		} {
			er := toolError(t, cs, "memory_manage", tc.args)
			require.Equal(t, tc.field, er["details"].(map[string]any)["field"], "%s: %v", transport, tc.args)
		}
	}
}

// TestCheckoutTool_TokenizerIsAnArgument: memory_checkout takes tokenizer, the packet says it,
// and an unknown one is the API's 400 naming the field.
func TestCheckoutTool_TokenizerIsAnArgument(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	cs := connectStdio(t, e.api, zmcp.Config{})
	ok(t, cs, "memory_append", map[string]any{"space": "tok", "type": "note", "content": "デプロイは金曜日の午後を避ける"})
	p := ok(t, cs, "memory_checkout", map[string]any{"space": "tok", "query": "デプロイ", "tokenizer": "o200k_base", "no_record": true})
	require.Equal(t, "o200k_base", p["budget"].(map[string]any)["tokenizer"])
	er := toolError(t, cs, "memory_checkout", map[string]any{"space": "tok", "query": "x", "tokenizer": "gpt2"})
	require.Equal(t, "tokenizer", er["details"].(map[string]any)["field"])
}
