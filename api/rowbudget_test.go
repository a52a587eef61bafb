package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// TestHTTP_FactsPastTheCapStopReadingNearTheCap is the reproduction at a smaller
// scale: GET /facts?limit=10000 over facts far larger than the response cap answers 413, and
// the server allocates about the cap to say so, not the whole result (it read every row, built
// every fact and encoded them all before refusing the answer). The fixture is 3,000 facts
// (about 2 MB as rows, several times that as Go values and JSON); the cap is 64 KiB; the
// request may allocate at most 1 MiB in the whole test process, which nothing else is
// running in (the test is not parallel).
func TestHTTP_FactsPastTheCapStopReadingNearTheCap(t *testing.T) {
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	object := strings.Repeat("y", 500)
	for batch := range 3 {
		var evs []eventloom.NewEvent
		for i := range 1000 {
			evs = append(evs, eventloom.NewEvent{Type: "fact.asserted",
				Data: json.RawMessage(fmt.Sprintf(`{"subject":"Alice","predicate":"note %d","object":"%s"}`, batch*1000+i, object))})
		}
		fixture.Append(t, store, "big", evs...)
	}
	fixture.Project(t, pool, "big")
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{MaxResponseBytes: 64 << 10}, api.Services{Pool: pool, Store: store}, nil))
	t.Cleanup(srv.Close)

	get := func() int {
		resp, err := http.Get(srv.URL + "/v1/spaces/big/facts?limit=10000")
		require.NoError(t, err)
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		require.NoError(t, err)
		return resp.StatusCode
	}
	require.Equal(t, http.StatusRequestEntityTooLarge, get()) // warm up: connections, plans
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	require.Equal(t, http.StatusRequestEntityTooLarge, get())
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("one refused GET /facts?limit=10000 allocated %d KiB", allocated>>10)
	require.Less(t, allocated, uint64(1<<20), "the request built the whole answer before refusing it")
}
