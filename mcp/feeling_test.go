package mcp_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFeelingOfKnowing_AnswersThroughTheCoreTool(t *testing.T) {
	e := newEnv(t, false)
	cs := connectHTTP(t, e.serveHTTP(t).URL+"/mcp", "")
	ok(t, cs, "memory_append", map[string]any{"space": "fk", "type": "message", "content": "The harpsichord tuning is booked for Thursday.",
		"data": map[string]any{"role": "user"}})
	ok(t, cs, "memory_append", map[string]any{"space": "fk", "type": "message", "content": "We talked about lunch and the weather.",
		"data": map[string]any{"role": "user"}})
	e.project(t, "fk")
	out := ok(t, cs, "memory_feeling_of_knowing", map[string]any{"space": "fk", "query": "When is the harpsichord tuning?"})
	require.Equal(t, "likely", out["judgement"], out)
	out = ok(t, cs, "memory_feeling_of_knowing", map[string]any{"space": "fk", "query": "Which saxophone brand?"})
	require.Equal(t, "unlikely", out["judgement"], out)
	e2 := toolError(t, cs, "memory_feeling_of_knowing", map[string]any{"space": "fk", "query": ""})
	require.Equal(t, "invalid_request", e2["code"], e2)
}
