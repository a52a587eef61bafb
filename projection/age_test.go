package projection_test

import (
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/validation"
)

// factView is one fact as both graphs should agree on it.
type factView struct {
	ID, Subject, Predicate, Status, Object string
	Value                                  any
	ClosedSeq                              any
}

func relationalFacts(t *testing.T, f *bundle, space string) []factView {
	t.Helper()
	rows, err := f.DB.Query(context.Background(),
		`SELECT fact_id, subject_id, predicate, status, coalesce(object_id, ''), coalesce(value::text, 'null'), closed_seq
		 FROM facts WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, space)
	require.NoError(t, err)
	var out []factView
	for rows.Next() {
		var v factView
		var value string
		var closed *int64
		require.NoError(t, rows.Scan(&v.ID, &v.Subject, &v.Predicate, &v.Status, &v.Object, &value, &closed))
		require.NoError(t, json.Unmarshal([]byte(value), &v.Value))
		if closed != nil {
			v.ClosedSeq = float64(*closed)
		}
		out = append(out, v)
	}
	require.NoError(t, rows.Err())
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func cypherFacts(t *testing.T, f *bundle, space string) []factView {
	t.Helper()
	res, err := graph.Cypher(context.Background(), f.DB, graph.CypherParams{
		SpaceID: space, Columns: 7, Limit: 100000,
		Query: `MATCH (s:Entity)-[f:FACT]->(o) RETURN f.id, s.id, f.predicate, f.status, o.id, o.value, f.closed_seq`,
	})
	require.NoError(t, err)
	require.False(t, res.Truncated)
	var out []factView
	for _, row := range res.Rows {
		var v factView
		var object *string
		require.NoError(t, json.Unmarshal(row[0], &v.ID))
		require.NoError(t, json.Unmarshal(row[1], &v.Subject))
		require.NoError(t, json.Unmarshal(row[2], &v.Predicate))
		require.NoError(t, json.Unmarshal(row[3], &v.Status))
		require.NoError(t, json.Unmarshal(row[4], &object))
		if object != nil {
			v.Object = *object
		}
		require.NoError(t, json.Unmarshal(row[5], &v.Value))
		require.NoError(t, json.Unmarshal(row[6], &v.ClosedSeq))
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func countEntities(t *testing.T, f *bundle, space string) (relational, age int) {
	t.Helper()
	require.NoError(t, f.DB.QueryRow(context.Background(), `SELECT count(*) FROM entities WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, space).Scan(&relational))
	res, err := graph.Cypher(context.Background(), f.DB, graph.CypherParams{SpaceID: space, Query: `MATCH (e:Entity) RETURN count(e)`})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(res.Rows[0][0], &age))
	return relational, age
}

func TestAGE_MirrorAgreesWithRelationalGraph(t *testing.T) {
	f := newFixtureTx(t, projection.Config{BatchSize: 37})
	require.True(t, f.Proj.AGE(), "the test database has AGE")
	space := "agegraph"
	randomWorkload(t, f, space, 800, 99)
	f.Project(t, space)

	rel := relationalFacts(t, f, space)
	require.NotEmpty(t, rel)
	require.Equal(t, rel, cypherFacts(t, f, space))
	r, a := countEntities(t, f, space)
	require.Equal(t, r, a)

	// A rebuild drops and recreates the mirror; it still agrees.
	_, err := f.Proj.Rebuild(context.Background(), space)
	require.NoError(t, err)
	require.Equal(t, rel, relationalFacts(t, f, space))
	require.Equal(t, rel, cypherFacts(t, f, space))
	r, a = countEntities(t, f, space)
	require.Equal(t, r, a)
}

func TestCypher_IsReadOnlySpaceScopedAndBounded(t *testing.T) {
	f := newFixture(t, projection.Config{})
	ctx := context.Background()
	f.Append(t, "one", ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "knows", "object": "Bob"}))
	f.Append(t, "two", ev("fact.asserted", "", map[string]any{"subject": "Carol", "predicate": "knows", "object": "Dan"}))
	f.Project(t, "one")
	f.Project(t, "two")

	res, err := graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "one", Query: `MATCH (e:Entity) RETURN e.name`})
	require.NoError(t, err)
	var names []string
	for _, r := range res.Rows {
		var n string
		require.NoError(t, json.Unmarshal(r[0], &n))
		names = append(names, n)
	}
	sort.Strings(names)
	require.Equal(t, []string{"Alice", "Bob"}, names, "space two's entities are not reachable")

	_, err = graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "one", Query: `CREATE (x:Entity {name: 'Mallory'}) RETURN x`})
	var ve interface{ Error() string }
	require.ErrorAs(t, err, &ve)
	require.ErrorContains(t, err, "read-only")

	_, err = graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "one", Query: `RETURN 1 $$; DROP TABLE events; --`})
	require.ErrorContains(t, err, "must not contain")
	// AGE would run a schema-qualified SQL function with the service's role; refused.
	_, err = graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "one", Query: "RETURN pg_catalog.current_user()"})
	require.ErrorIs(t, err, validation.ErrInvalid)
	require.ErrorContains(t, err, "schema-qualified")
	res, err = graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "one", Query: "MATCH (e:Entity) WHERE e.name = 'pg_catalog.now()' RETURN e.name"})
	require.NoError(t, err, "the same text inside a string is only a string")
	require.Empty(t, res.Rows)

	_, err = graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "nope", Query: `MATCH (e) RETURN e`})
	require.Error(t, err)

	// A query that runs too long is stopped by the statement timeout.
	_, err = graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "one", Timeout: 50e6,
		Query: `UNWIND range(1, 5000) AS x UNWIND range(1, 5000) AS y WITH x, y WHERE x + y < 0 RETURN x`})
	require.ErrorIs(t, err, graph.ErrQueryTimeout)
}

func TestAGEOff_ProjectionWorksAndCypherSaysSo(t *testing.T) {
	f := newFixture(t, projection.Config{})
	ctx := context.Background()
	// Drop AGE as a managed Postgres without it would be.
	admin := f.db.AdminPool(t)
	_, err := admin.Exec(ctx, `DROP EXTENSION age CASCADE`)
	require.NoError(t, err)

	proj, err := projection.New(ctx, f.DB, projection.Config{})
	require.NoError(t, err)
	require.False(t, proj.AGE())
	f.Append(t, "plain", ev("fact.asserted", "", map[string]any{"subject": "Alice", "predicate": "knows", "object": "Bob"}))
	_, err = proj.ProjectSpace(ctx, "plain")
	require.NoError(t, err)
	require.Len(t, f.facts(t, graph.FactsParams{SpaceID: "plain"}), 1)
	_, err = proj.Rebuild(ctx, "plain")
	require.NoError(t, err)

	_, err = graph.Cypher(ctx, f.DB, graph.CypherParams{SpaceID: "plain", Query: `MATCH (e:Entity) RETURN e`})
	require.ErrorIs(t, err, graph.ErrAGEOff)
	require.ErrorContains(t, err, "not installed")
}
