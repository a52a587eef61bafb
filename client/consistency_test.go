package client_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/replica"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestClient_CarriesTheConsistencyToken: behind a standby that applies nothing for an hour, a
// client that appended (decoding strictly, past the answer's consistency field) reads its append back (it sends the token its append was answered, so
// the server reads the primary), while a client of its own session, without the token, is
// served by the standby and does not see it; a client started from the first's token does.
func TestClient_CarriesTheConsistencyToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := testcontainers.StartCluster(t, "clientryw")
	db := primary.NewDatabase(t)
	pool := db.AppPool(t)
	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{ApplyDelay: time.Hour})
	set := replica.NewSet(pool, []*replica.Standby{{Name: "standby", Pool: standby.Database(db).AppPool(t)}},
		replica.Config{Wait: 50 * time.Millisecond, MaxLag: 2 * time.Hour, HealthInterval: 50 * time.Millisecond})
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { set.Run(rctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: eventloom.NewStore(pool, nil, nil), Replicas: set}, nil))
	t.Cleanup(srv.Close)
	deadline := time.Now().Add(2 * time.Minute)
	for !set.Standbys()[0].Up() {
		require.True(t, time.Now().Before(deadline), "the standby is never measured up")
		time.Sleep(20 * time.Millisecond)
	}

	writer, err := client.New(srv.URL)
	require.NoError(t, err)
	// Strict: the append's answer carries the token as a consistency field too, which no result
	// type has; the client reads the header and decodes the rest strictly.
	writer = client.Strict(writer)
	require.Empty(t, client.ConsistencyToken(writer))
	_, err = writer.AppendEvents(ctx, "session", []eventloom.NewEvent{{Type: "note", Content: "written"}})
	require.NoError(t, err)
	token := client.ConsistencyToken(writer)
	_, err = replica.ParseToken(token)
	require.NoError(t, err, "the client kept its append's token")
	page, err := writer.ReplayEvents(ctx, "session", nil)
	require.NoError(t, err)
	require.Len(t, page.Events, 1, "the writer reads its own append")

	other, err := client.New(srv.URL)
	require.NoError(t, err)
	_, err = other.ReplayEvents(ctx, "session", nil)
	require.Error(t, err, "without the token the standby, an hour behind, serves the read: no such space there")

	continued, err := client.New(srv.URL, client.WithConsistencyToken(token))
	require.NoError(t, err)
	page, err = continued.ReplayEvents(ctx, "session", nil)
	require.NoError(t, err)
	require.Len(t, page.Events, 1)
}
