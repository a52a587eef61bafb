package graph

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// Two workers projecting two new spaces at once both create a graph and its sandbox; the
// sandbox's grant on ag_catalog once failed the second with "tuple concurrently updated".
func TestAgeGraph_NewSpacesCreatedConcurrentlyAllSucceed(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	app := db.AppPool(t)
	ctx := context.Background()
	store := eventloom.NewStore(app, nil, nil)
	const n = 8
	for i := range n {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: fmt.Sprintf("race-%d", i),
			Events: []eventloom.NewEvent{{Type: "note", Content: "x"}}})
		require.NoError(t, err)
	}
	// Each creation runs in a transaction that stays open a moment after it, as a projection's does.
	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			tx, err := app.Begin(ctx)
			if err != nil {
				errs[i] = err
				return
			}
			defer tx.Rollback(ctx)
			var g string
			if err := tx.QueryRow(ctx, `SELECT zaxy_age_graph($1)`, fmt.Sprintf("race-%d", i)).Scan(&g); err != nil {
				errs[i] = err
				return
			}
			if _, err := tx.Exec(ctx, `SELECT pg_sleep(0.05)`); err != nil {
				errs[i] = err
				return
			}
			errs[i] = tx.Commit(ctx)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "space race-%d", i)
	}
	var graphs, runners int
	require.NoError(t, app.QueryRow(ctx, `SELECT count(*) FROM age_graphs WHERE space_id LIKE 'race-%'`).Scan(&graphs))
	require.NoError(t, app.QueryRow(ctx, `SELECT count(*) FROM pg_proc WHERE pronamespace = 'zaxy_cypher'::regnamespace`).Scan(&runners))
	require.Equal(t, n, graphs)
	require.Equal(t, n, runners)
}
