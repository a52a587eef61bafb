package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/eventloom"
	zmcp "github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestMCP_SessionCarriesTheConsistencyToken: behind a standby that applies nothing for an
// hour, an MCP session over stdio that appended replays its append (the session sends the
// token of its append, so the API reads the primary); a second session, which wrote nothing,
// is served by the standby and finds no such space. Over the stateless HTTP endpoint a write's
// tool result hands the token back (_meta zaxy/consistency, and the structured content's
// consistency field, both the API's header), and a call sending it back in its _meta reads
// the write.
func TestMCP_SessionCarriesTheConsistencyToken(t *testing.T) {
	t.Parallel()
	primary := testcontainers.StartCluster(t, "mcpryw")
	db := primary.NewDatabase(t)
	pool := db.AppPool(t)
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{ApplyDelay: time.Hour})
	set := replica.NewSet(pool, []*replica.Standby{{Name: "standby", Pool: standby.Database(db).AppPool(t)}},
		replica.Config{Wait: 50 * time.Millisecond, MaxLag: 2 * time.Hour, HealthInterval: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { set.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	h := apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil), Replicas: set}, nil)
	deadline := time.Now().Add(2 * time.Minute)
	for !set.Standbys()[0].Up() {
		require.True(t, time.Now().Before(deadline), "the standby is never measured up")
		time.Sleep(20 * time.Millisecond)
	}

	writer := connectStdio(t, h, zmcp.Config{Profile: zmcp.ProfileFull})
	ok(t, writer, "memory_append", map[string]any{"space": "agent", "type": "note", "content": "remember this"})
	page := ok(t, writer, "memory_replay", map[string]any{"space": "agent"})
	require.Len(t, page["events"], 1, "the session reads its own append")

	other := connectStdio(t, h, zmcp.Config{Profile: zmcp.ProfileFull})
	e := toolError(t, other, "memory_replay", map[string]any{"space": "agent"})
	require.Equal(t, "space_not_found", e["code"], "a session without the token is served by the standby, an hour behind")

	mh, err := zmcp.NewHTTPHandler(zmcp.HTTPConfig{}, zmcp.Services{API: h}, nil)
	require.NoError(t, err)
	srv := httptest.NewServer(zmcp.Mount(h, mh))
	t.Cleanup(srv.Close)
	call := func(tool, args, meta string) (result struct {
		Meta              map[string]any `json:"_meta"`
		IsError           bool           `json:"isError"`
		StructuredContent map[string]any `json:"structuredContent"`
	}) {
		t.Helper()
		status, _, body := post(t, srv.URL+"/mcp?profile=full", "",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+meta+`}}`)
		require.Equal(t, http.StatusOK, status, body)
		var out struct {
			Result json.RawMessage `json:"result"`
		}
		require.NoError(t, json.Unmarshal([]byte(body), &out), body)
		require.NoError(t, json.Unmarshal(out.Result, &result), body)
		return result
	}
	wrote := call("memory_append", `{"space":"overhttp","type":"note","content":"over http"}`, "")
	require.False(t, wrote.IsError, wrote.StructuredContent)
	token, _ := wrote.Meta["zaxy/consistency"].(string)
	_, err = replica.ParseToken(token)
	require.NoError(t, err, "the write's result carries its token in _meta")
	require.Equal(t, token, wrote.StructuredContent["consistency"], "and in its structured content")
	read := call("memory_replay", `{"space":"overhttp"}`, `,"_meta":{"zaxy/consistency":"`+token+`"}`)
	require.False(t, read.IsError, read.StructuredContent)
	require.Len(t, read.StructuredContent["events"], 1, "a call sending the token back in _meta reads the write")
	require.NotContains(t, read.Meta, "zaxy/consistency", "a read answers no token")
	read = call("memory_replay", `{"space":"overhttp"}`, "")
	require.True(t, read.IsError, "without the token the standby, an hour behind, serves the read")
}
