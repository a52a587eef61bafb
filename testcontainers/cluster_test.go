package testcontainers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

// These tests start real clusters and standbys with testcontainers/postgres.sh, so they run
// where the test database is the local cluster that script manages (make test, run as root,
// provides it: it starts that cluster and passes its URL as ZAXY_TEST_DATABASE_URL) and skip
// elsewhere, saying why.

func fact(subject, predicate, object string) eventloom.NewEvent {
	data, _ := json.Marshal(map[string]string{"subject": subject, "predicate": predicate, "object": object})
	return eventloom.NewEvent{Type: "fact.asserted", Content: subject + " " + predicate + " " + object, Data: data}
}

// TestStandby_ReplaysAppendsAndServesReads: a standby started from a primary with an apply
// delay has received an append made through the Eventloom but does not show it; without the
// delay it replays it (its chain verifies there); an AGE cypher() read (graph.Cypher, as the
// service runs it) and a pgvector HNSW index scan run on it; LISTEN is refused there; stopped
// mid-test it refuses connections while the primary goes on, and started again it catches up.
func TestStandby_ReplaysAppendsAndServesReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := testcontainers.StartCluster(t, "primary")
	db := primary.NewDatabase(t)
	pool := db.AppPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	require.True(t, proj.AGE(), "AGE is installed on the primary")

	standby := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{ApplyDelay: time.Hour})
	replica := standby.Database(db)
	rpool := replica.AppPool(t)
	rstore := eventloom.NewStore(rpool, nil, nil)

	const space = "replicated"
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
		fact("Alice", "knows", "Bob"), fact("Bob", "knows", "Carol"),
	}})
	require.NoError(t, err)
	_, err = proj.ProjectSpace(ctx, space)
	require.NoError(t, err)
	// The vectors of a space promoted to the HNSW index, through the migration's own function.
	admin := db.AdminPool(t)
	var index string
	require.NoError(t, admin.QueryRow(ctx, `SELECT zaxy_ensure_vector_index('test@1', 3)`).Scan(&index))
	_, err = admin.Exec(ctx, `INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash, indexed)
		SELECT $1, 'item-' || i, 'test@1', 3, ARRAY[cos(i), sin(i), i % 7]::vector, '\x00', true
		FROM generate_series(1, 300) i`, space)
	require.NoError(t, err)
	_, err = admin.Exec(ctx, `ANALYZE embeddings`)
	require.NoError(t, err)

	lsn := primary.CurrentLSN(t)
	standby.WaitReceive(t, lsn)
	exists, err := rstore.SpaceExists(ctx, space)
	require.NoError(t, err)
	require.False(t, exists, "the delayed standby has received the append and does not show it yet")

	standby.SetApplyDelay(t, 0)
	rpool.Reset() // its connections went with the restart
	standby.WaitReplay(t, lsn)
	var inRecovery, passed bool
	require.NoError(t, rpool.QueryRow(ctx, `SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() >= $1::pg_lsn`, lsn).Scan(&inRecovery, &passed))
	require.True(t, inRecovery, "the standby is a standby")
	require.True(t, passed, "the standby has replayed past the primary's WAL position after the append")

	t.Run("the append is on the standby and its chain verifies", func(t *testing.T) {
		page, err := rstore.Replay(ctx, &eventloom.ReplayParams{SpaceID: space})
		require.NoError(t, err)
		require.Len(t, page.Events, 2)
		require.Equal(t, res.Receipts[1].Hash, page.Events[1].Hash)
		v, err := rstore.Verify(ctx, space)
		require.NoError(t, err)
		require.True(t, v.OK, "%+v", v)
		require.Equal(t, int64(2), v.HeadSeq)
	})

	t.Run("an AGE cypher read runs on the standby", func(t *testing.T) {
		out, err := graph.Cypher(ctx, rpool, graph.CypherParams{SpaceID: space, Columns: 2,
			Query: `MATCH (s:Entity)-[f:FACT]->(o:Entity) RETURN s.name, o.name ORDER BY s.name`})
		require.NoError(t, err)
		require.Len(t, out.Rows, 2)
		require.JSONEq(t, `"Alice"`, string(out.Rows[0][0]))
		require.JSONEq(t, `"Bob"`, string(out.Rows[0][1]))
	})

	t.Run("a pgvector HNSW index scan runs on the standby", func(t *testing.T) {
		conn, err := rpool.Acquire(ctx)
		require.NoError(t, err)
		defer conn.Release()
		// The shape of checkout's vector lane (sql/checkout/handwritten/vector_hnsw.sql).
		q := `SELECT item_id FROM embeddings WHERE model = 'test@1' AND indexed AND space_id = $1
			ORDER BY embedding::halfvec(3) <=> '[1,0,0]'::vector(3)::halfvec(3) LIMIT 5`
		// As checkout sets them (sql/checkout/vector_hnsw_settings.sql); with 300 rows the
		// planner would rather sort them all, so the plans that sort are turned off.
		for _, set := range []string{`SET hnsw.ef_search = 40`, `SET hnsw.iterative_scan = relaxed_order`,
			`SET enable_seqscan = off`, `SET enable_bitmapscan = off`, `SET enable_sort = off`} {
			_, err = conn.Exec(ctx, set)
			require.NoError(t, err)
		}
		rows, err := conn.Query(ctx, "EXPLAIN (COSTS OFF) "+q, space)
		require.NoError(t, err)
		plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		require.Contains(t, strings.Join(plan, "\n"), "Index Scan using "+index, "plan:\n%s", strings.Join(plan, "\n"))
		rows, err = conn.Query(ctx, q, space)
		require.NoError(t, err)
		items, err := pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		require.Len(t, items, 5)
	})

	t.Run("LISTEN is refused on the standby", func(t *testing.T) {
		// PostgreSQL 17 answers "cannot execute LISTEN during recovery", SQLSTATE 25006
		// (read_only_sql_transaction): notifications are never replicated, so LISTEN stays on
		// the primary.
		_, err := rpool.Exec(ctx, `LISTEN zaxy_standby_probe`)
		var pgErr *pgconn.PgError
		require.True(t, errors.As(err, &pgErr), "LISTEN on a standby fails: %v", err)
		require.Equal(t, "25006", pgErr.Code)
		require.Contains(t, pgErr.Message, "cannot execute LISTEN during recovery")
	})

	t.Run("a standby stopped mid-test refuses reads, then catches up", func(t *testing.T) {
		standby.Stop(t)
		_, err := rstore.Replay(ctx, &eventloom.ReplayParams{SpaceID: space})
		require.Error(t, err, "a stopped standby serves nothing")
		_, err = store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{fact("Dan", "knows", "Eve")}})
		require.NoError(t, err, "the primary appends while its standby is down")
		standby.Start(t)
		rpool.Reset()
		standby.CatchUp(t)
		page, err := rstore.Replay(ctx, &eventloom.ReplayParams{SpaceID: space})
		require.NoError(t, err)
		require.Len(t, page.Events, 3)
	})
}

// TestStartCluster_IsIndependentOfTheDefaultCluster: a second cluster is a cluster of its own:
// another system identifier, its own databases, and a space appended on one is absent from
// the other.
func TestStartCluster_IsIndependentOfTheDefaultCluster(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	second := testcontainers.StartCluster(t, "second")
	here, there := testcontainers.NewDatabase(t), second.NewDatabase(t)
	herePool, therePool := here.AdminPool(t), there.AdminPool(t)

	sysid := func(db interface {
		QueryRow(context.Context, string, ...any) pgx.Row
	}) (id int64) {
		require.NoError(t, db.QueryRow(ctx, `SELECT system_identifier FROM pg_control_system()`).Scan(&id))
		return id
	}
	require.NotEqual(t, sysid(herePool), sysid(therePool), "two clusters, not two databases of one")
	for _, c := range []struct {
		pool interface {
			QueryRow(context.Context, string, ...any) pgx.Row
		}
		other string
	}{{herePool, there.Name}, {therePool, here.Name}} {
		var exists bool
		require.NoError(t, c.pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1)`, c.other).Scan(&exists))
		require.False(t, exists, "database %s belongs to the other cluster", c.other)
	}

	const space = "independent"
	hereStore, thereStore := eventloom.NewStore(here.AppPool(t), nil, nil), eventloom.NewStore(there.AppPool(t), nil, nil)
	_, err := thereStore.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{fact("x", "is", "there")}})
	require.NoError(t, err)
	ok, err := hereStore.SpaceExists(ctx, space)
	require.NoError(t, err)
	require.False(t, ok, "a space appended on the second cluster is absent from the default one")

	_, err = hereStore.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{fact("x", "is", "here")}})
	require.NoError(t, err)
	for _, c := range []struct {
		store *eventloom.Store
		want  string
	}{{hereStore, "x is here"}, {thereStore, "x is there"}} {
		page, err := c.store.Replay(ctx, &eventloom.ReplayParams{SpaceID: space})
		require.NoError(t, err)
		require.Len(t, page.Events, 1, fmt.Sprintf("each cluster holds only its own append (%s)", c.want))
		require.Equal(t, c.want, page.Events[0].Content)
	}
}
