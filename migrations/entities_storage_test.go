package migrations_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// entityRows renders a space's entities (their hash of the first event from events), for
// comparing the table before and after a migration; entities keyed by the text id or by the
// space key (000073).
func entityRows(t *testing.T, pool *pgxpool.Pool, space string) []string {
	t.Helper()
	where := `x.space_id = $1`
	if entitiesKeyed(t, pool) {
		where = `x.space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`
	}
	rows, err := pool.Query(context.Background(), `
		SELECT concat_ws('|', x.entity_id, x.key, x.name, array_to_string(x.kinds, ','), x.version, x.first_seq,
		                 encode(ev.hash, 'hex'), x.last_seq, x.mentions, x.invalidated_seq, x.age_node)
		FROM entities x JOIN events ev ON ev.space_id = $1 AND ev.seq = x.first_seq
		WHERE `+where+` ORDER BY 1`, space)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return out
}

// mirrorAgrees checks zaxy doctor's AGE mirror digest for the space.
func mirrorAgrees(t *testing.T, pool *pgxpool.Pool, space string) {
	t.Helper()
	var expected, actual string
	var lines int64
	require.NoError(t, pool.QueryRow(context.Background(),
		`SELECT expected, actual, expected_lines FROM zaxy_age_mirror_digest($1)`, space).Scan(&expected, &actual, &lines))
	require.Equal(t, expected, actual, "the graph holds what the relational graph says")
	require.Positive(t, lines)
}

// vertexProps is each Entity vertex's properties, by entity id.
func vertexProps(t *testing.T, pool *pgxpool.Pool, space string) map[string]map[string]any {
	t.Helper()
	res, err := graph.Cypher(context.Background(), pool, graph.CypherParams{SpaceID: space, Columns: 1, Limit: 1000,
		Query: `MATCH (e:Entity) RETURN properties(e)`})
	require.NoError(t, err)
	out := map[string]map[string]any{}
	for _, r := range res.Rows {
		var p map[string]any
		require.NoError(t, json.Unmarshal(r[0], &p))
		out[p["id"].(string)] = p
	}
	return out
}

// Migration 000069 drops the first event's hash from entities (the readers take it from
// events) and the space (and a null invalidated_seq) from the graph mirror's vertices and
// edges; the projector writes a new entity or fact version once, its graph ids given at the
// insert. The down migration puts the hash back. Neither rewrites a graph: the mirror check
// reads a vertex or edge mirrored before either as the sync in force writes it.
func TestEntitiesStorageMigration_WritesEachEntityOnceAndKeepsTheMirrorBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	const space = "ents"
	lisbon := projection.EntityID(space, "lisbon")
	log.Append(t, space,
		eventloom.NewEvent{Type: "message", Actor: "user", Content: "Maren flew to Lisbon with Tobias."},
		eventloom.NewEvent{Type: "fact.asserted", Actor: "user", Content: "Alice knows Bob.",
			Data: fixture.Data(map[string]any{"subject": "Alice", "predicate": "knows", "object": "Bob"})},
		eventloom.NewEvent{Type: "fact.asserted", Actor: "user", Content: "Alice is 30.",
			Data: fixture.Data(map[string]any{"subject": "Alice", "predicate": "age", "value": 30})},
		eventloom.NewEvent{Type: "memory.invalidated", Actor: "user", Content: "Not Lisbon.",
			Data: fixture.Data(map[string]any{"target_id": lisbon, "reason": "wrong city"})})
	log.Project(t, space)
	// The space's rows of entities or facts, by the text id or the space key (000073).
	ofSpace := func() string {
		if entitiesKeyed(t, pool) {
			return `space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`
		}
		return `space_id = $1`
	}

	hasHash := func() bool {
		t.Helper()
		var ok bool
		require.NoError(t, pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'entities'::regclass AND attname = 'first_hash' AND NOT attisdropped)`).Scan(&ok))
		return ok
	}
	require.False(t, hasHash())
	keyIndexed := func() bool {
		t.Helper()
		var ok bool
		require.NoError(t, pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
			WHERE i.indrelid = 'entities'::regclass AND a.attname = 'key')`).Scan(&ok))
		return ok
	}
	require.False(t, keyIndexed(), "an entity is found by key through its id")
	want := entityRows(t, pool, space)
	require.Len(t, want, 4, "Lisbon, Tobias, Alice, Bob")

	// One batch inserted every entity and fact version, each with its graph ids, and updated
	// none (the sync used to give each new row its ids with an update).
	unmirrored := func() int {
		t.Helper()
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM entities WHERE `+ofSpace()+` AND age_node IS NULL)
			+ (SELECT count(*) FROM facts WHERE `+ofSpace()+` AND (age_edge IS NULL OR (value IS NULL) <> (age_value_node IS NULL)))`, space).Scan(&n))
		return n
	}
	require.Zero(t, unmirrored())
	var entIns, entUpd, factIns, factUpd int64
	for entIns < int64(len(want)) || factIns < 2 { // the projector's backend reports its counts once idle
		time.Sleep(20 * time.Millisecond)
		require.NoError(t, pool.QueryRow(ctx, `
			SELECT (SELECT n_tup_ins FROM pg_stat_user_tables WHERE relid = 'entities'::regclass),
			       (SELECT n_tup_upd FROM pg_stat_user_tables WHERE relid = 'entities'::regclass),
			       (SELECT n_tup_ins FROM pg_stat_user_tables WHERE relid = 'facts'::regclass),
			       (SELECT n_tup_upd FROM pg_stat_user_tables WHERE relid = 'facts'::regclass)`).Scan(&entIns, &entUpd, &factIns, &factUpd))
	}
	require.Equal(t, int64(len(want)), entIns)
	require.Zero(t, entUpd, "a new entity is written once")
	require.Equal(t, int64(2), factIns)
	require.Zero(t, factUpd, "a new fact version is written once")

	mirrorAgrees(t, pool, space)
	props := vertexProps(t, pool, space)
	require.Len(t, props, len(want))
	for id, p := range props {
		require.NotContains(t, p, "space", "the graph is the space")
		if id == lisbon {
			require.InDelta(t, 4, p["invalidated_seq"], 0)
		} else {
			require.NotContains(t, p, "invalidated_seq", "only once set")
		}
	}
	res, err := graph.Cypher(ctx, pool, graph.CypherParams{SpaceID: space, Columns: 1,
		Query: `MATCH (e:Entity) WHERE e.invalidated_seq IS NULL RETURN count(e)`})
	require.NoError(t, err)
	require.JSONEq(t, `3`, string(res.Rows[0][0]), "a missing invalidated_seq reads as null")
	res, err = graph.Cypher(ctx, pool, graph.CypherParams{SpaceID: space, Columns: 2,
		Query: `MATCH (a:Entity)-[f:FACT]->(v:Value) RETURN f.space, v.space`})
	require.NoError(t, err)
	require.Len(t, res.Rows, 1)
	require.JSONEq(t, `null`, string(res.Rows[0][0]))
	require.JSONEq(t, `null`, string(res.Rows[0][1]))

	e, err := graph.ResolveEntity(ctx, pool, space, "  LISBON ")
	require.NoError(t, err, "by key")
	require.Equal(t, lisbon, e.ID)
	byID, err := graph.ResolveEntity(ctx, pool, space, lisbon)
	require.NoError(t, err, "by id")
	require.Equal(t, e, byID)
	var firstHash []byte
	require.NoError(t, pool.QueryRow(ctx, `SELECT hash FROM events WHERE space_id = $1 AND seq = 1`, space).Scan(&firstHash))
	require.Equal(t, firstHash, []byte(e.FirstHash[:]), "the hash comes from events")

	entitiesSpaceKeyDown(t, pool) // the tables by the text id, as 000069 found them
	_, err = pool.Exec(ctx, readMigration(t, "000069_entities_storage.down.sql"))
	require.NoError(t, err)
	require.True(t, hasHash())
	require.True(t, keyIndexed())
	var wrong int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM entities x JOIN events e ON e.space_id = x.space_id AND e.seq = x.first_seq WHERE x.first_hash IS DISTINCT FROM e.hash`).Scan(&wrong))
	require.Zero(t, wrong, "down gives every entity its first event's hash")
	require.Equal(t, want, entityRows(t, pool, space))
	mirrorAgrees(t, pool, space)
	require.Equal(t, props, vertexProps(t, pool, space), "down rewrites no graph")
	// The old sync writes a vertex with the space and a null invalidated_seq, as every vertex
	// mirrored before 000069 has them.
	tobias := projection.EntityID(space, "tobias")
	_, err = pool.Exec(ctx, `SELECT zaxy_age_sync($1, ARRAY[$2], '{}')`, space, tobias)
	require.NoError(t, err)
	require.Equal(t, space, vertexProps(t, pool, space)[tobias]["space"])
	require.Contains(t, vertexProps(t, pool, space)[tobias], "invalidated_seq")
	mirrorAgrees(t, pool, space)

	// Up touches no graph's tables: holding a lock on each space's labels until commit is what
	// a database of a few hundred spaces cannot grant.
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit a no-op; on a failure it lets the cleanup go
	_, err = tx.Exec(ctx, readMigration(t, "000069_entities_storage.up.sql"))
	require.NoError(t, err)
	var graphLocks int
	require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		JOIN age_graphs g ON c.relnamespace = to_regnamespace(quote_ident(g.graph_name))
		WHERE l.pid = pg_backend_pid()`).Scan(&graphLocks))
	require.Zero(t, graphLocks, "no lock on a graph's relations")
	require.NoError(t, tx.Commit(ctx))
	require.False(t, hasHash())
	require.False(t, keyIndexed())
	require.Equal(t, want, entityRows(t, pool, space))
	mirrorAgrees(t, pool, space)
	after := vertexProps(t, pool, space)
	require.Equal(t, space, after[tobias]["space"], "a vertex mirrored before keeps its properties")
	delete(after[tobias], "space")
	delete(after[tobias], "invalidated_seq")
	require.Equal(t, props, after)
	var clustered bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT bool_or(indisclustered) FROM pg_index WHERE indrelid = 'entities'::regclass`).Scan(&clustered))
	require.False(t, clustered, "no clustering mark is left behind")

	entitiesSpaceKeyUp(t, pool)
	// Projecting on: a known entity mentioned again, new ones, a fact closed by a new value,
	// and the mirror still agrees.
	log.Append(t, space,
		eventloom.NewEvent{Type: "message", Actor: "user", Content: "Tobias met Ingrid in Porto."},
		eventloom.NewEvent{Type: "fact.asserted", Actor: "user", Content: "Alice is 31.",
			Data: fixture.Data(map[string]any{"subject": "Alice", "predicate": "age", "value": 31})})
	log.Project(t, space)
	require.Zero(t, unmirrored())
	mirrorAgrees(t, pool, space)
	require.Len(t, vertexProps(t, pool, space), len(want)+2)

	// An entity stored without a vertex id (its graph dropped) gets one from the sync.
	_, err = pool.Exec(ctx, `SELECT zaxy_age_drop($1)`, space)
	require.NoError(t, err)
	_, err = pool.Exec(ctx, `SELECT zaxy_age_sync($1, (SELECT array_agg(entity_id) FROM entities WHERE `+ofSpace()+`),
		(SELECT array_agg(fact_id) FROM facts WHERE `+ofSpace()+`))`, space)
	require.NoError(t, err)
	require.Zero(t, unmirrored())
	mirrorAgrees(t, pool, space)
}
