package client_test

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// counting is a RoundTripper that counts the requests it sends.
type counting struct{ n atomic.Int64 }

func (c *counting) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(req)
}

// TestEvents_WalksEveryPageInOrder: Events yields every event of the log once, in seq order,
// a page of Limit at a time, keeps the caller's filters, stops sending when the loop breaks, and
// yields a failed page's error once.
func TestEvents_WalksEveryPageInOrder(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t)
	rt := &counting{}
	c, err := client.New(srv.url, client.WithToken(srv.token), client.WithHTTPClient(&http.Client{Transport: rt}))
	require.NoError(t, err)
	var batch []eventloomwire.NewEvent
	for i := range 7 {
		session := "even"
		if i%2 == 1 {
			session = "odd"
		}
		batch = append(batch, eventloomwire.NewEvent{Type: "note", SessionID: session, Content: fmt.Sprintf("note %d", i)})
	}
	_, err = c.AppendEvents(ctx, "walk", batch)
	require.NoError(t, err)

	rt.n.Store(0)
	p := &client.ReplayParams{Limit: 3}
	var seqs []int64
	for ev, err := range c.Events(ctx, "walk", p) {
		require.NoError(t, err)
		seqs = append(seqs, ev.Seq)
	}
	require.Equal(t, []int64{1, 2, 3, 4, 5, 6, 7}, seqs)
	require.EqualValues(t, 3, rt.n.Load(), "pages of 3, 3 and 1")
	require.Zero(t, p.AfterSeq, "the caller's params are not modified")

	seqs = nil
	for ev, err := range c.Events(ctx, "walk", &client.ReplayParams{SessionID: "odd", AfterSeq: 2, Limit: 1}) {
		require.NoError(t, err)
		seqs = append(seqs, ev.Seq)
	}
	require.Equal(t, []int64{4, 6}, seqs)

	rt.n.Store(0)
	for ev, err := range c.Events(ctx, "walk", &client.ReplayParams{Limit: 2}) {
		require.NoError(t, err)
		if ev.Seq == 3 {
			break
		}
	}
	require.EqualValues(t, 2, rt.n.Load(), "no page is asked for after the loop breaks")

	var errs []error
	for _, err := range c.Events(ctx, "Not A Space", nil) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	require.True(t, client.IsCode(errs[0], client.CodeInvalidRequest), "%v", errs[0])
}

// TestNewFromEnv_ReadsURLAndToken: NewFromEnv calls the server at ZAXY_URL with the token in
// ZAXY_TOKEN, and refuses to start without ZAXY_URL.
func TestNewFromEnv_ReadsURLAndToken(t *testing.T) {
	srv := newServer(t)
	t.Setenv(client.EnvURL, "")
	_, err := client.NewFromEnv()
	require.ErrorContains(t, err, "ZAXY_URL is not set")

	t.Setenv(client.EnvURL, srv.url)
	t.Setenv(client.EnvToken, "")
	c, err := client.NewFromEnv()
	require.NoError(t, err)
	_, err = c.Spaces(context.Background())
	require.True(t, client.IsCode(err, client.CodeUnauthorized), "%v", err)

	t.Setenv(client.EnvToken, srv.token)
	c, err = client.NewFromEnv()
	require.NoError(t, err)
	_, err = c.Spaces(context.Background())
	require.NoError(t, err)

	c, err = client.NewFromEnv(client.WithToken("zx_wrong_token"))
	require.NoError(t, err)
	_, err = c.Spaces(context.Background())
	require.True(t, client.IsCode(err, client.CodeUnauthorized), "an option overrides ZAXY_TOKEN: %v", err)
}
