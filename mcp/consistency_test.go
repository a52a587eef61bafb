package mcp_test

import (
	"context"
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
// is served by the standby and finds no such space.
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
}
