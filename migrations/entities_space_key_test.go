package migrations_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
)

// entitiesKeyed says whether entities is keyed by spaces.space_key (migration 000073).
func entitiesKeyed(t *testing.T, pool *pgxpool.Pool) bool {
	t.Helper()
	var keyed bool
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT EXISTS (SELECT FROM pg_attribute
		WHERE attrelid = 'entities'::regclass AND attname = 'space_key' AND NOT attisdropped)`).Scan(&keyed))
	return keyed
}

// entitiesSpaceKeyDown runs migration 000073's down file when entities is keyed by the space
// key, for tests of earlier migrations that read entities or facts by the text space id.
func entitiesSpaceKeyDown(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	if entitiesKeyed(t, pool) {
		_, err := pool.Exec(context.Background(), readMigration(t, "000073_entities_space_key.down.sql"))
		require.NoError(t, err)
	}
}

// entitiesSpaceKeyUp runs migration 000073's up file when entities is keyed by the text id, for
// tests of earlier migrations that project again after their own down and up.
func entitiesSpaceKeyUp(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	if !entitiesKeyed(t, pool) {
		_, err := pool.Exec(context.Background(), readMigration(t, "000073_entities_space_key.up.sql"))
		require.NoError(t, err)
	}
}

// The space of an entities or facts row x as text, whichever key the table has.
const (
	entitySpaceByKey = `(SELECT s.space_id FROM spaces s WHERE s.space_key = x.space_key)`
	entitySpaceByID  = `x.space_id`
)

// Migration 000073 keys entities and facts on spaces.space_key instead of the text space id,
// rewriting the rows, and its down migration gives every row its text id back: the same rows
// each way, each in its own space; the analyst views over them show the same lines; the graph
// mirror's check agrees with the graphs, which neither direction touches; the foreign keys
// from facts to entities hold in both forms; and the projector writes on after the up.
func TestEntitiesSpaceKeyMigration_SameRowsViewsAndMirrorBothWays(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	spaces := []string{"zeta", "alpha"}
	for _, space := range spaces {
		log.Append(t, space,
			eventloom.NewEvent{Type: "message", Actor: "user", Content: "Maren flew to Lisbon with Tobias in " + space + "."},
			eventloom.NewEvent{Type: "fact.asserted", Actor: "user", Content: "Alice knows Bob.",
				Data: fixture.Data(map[string]any{"subject": "Alice", "predicate": "knows", "object": "Bob"})},
			eventloom.NewEvent{Type: "fact.asserted", Actor: "user", Content: "Alice is 30.",
				Data: fixture.Data(map[string]any{"subject": "Alice", "predicate": "age", "value": 30})},
			eventloom.NewEvent{Type: "fact.asserted", Actor: "user", Content: "Alice is 31.",
				Data: fixture.Data(map[string]any{"subject": "Alice", "predicate": "age", "value": 31})},
			eventloom.NewEvent{Type: "memory.invalidated", Actor: "user", Content: "Not Lisbon.",
				Data: fixture.Data(map[string]any{"target_id": projection.EntityID(space, "lisbon"), "reason": "wrong city"})})
		log.Project(t, space)
	}
	rows := func(query string) []string {
		t.Helper()
		r, err := pool.Query(ctx, query)
		require.NoError(t, err)
		out, err := pgx.CollectRows(r, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	entities := func(space string) string {
		return `SELECT concat_ws('|', ` + space + `, x.entity_id, x.key, x.name, array_to_string(x.kinds, ','), x.version,
			x.first_seq, x.last_seq, x.mentions, x.invalidated_seq, x.age_node) FROM entities x ORDER BY 1`
	}
	facts := func(space string) string {
		return `SELECT concat_ws('|', ` + space + `, x.fact_id, x.subject_id, x.predicate, x.object_id, x.value, x.version,
			x.valid_from, x.valid_to, x.recorded_seq, encode(x.recorded_hash, 'hex'), x.closed_seq, x.status, x.superseded_by,
			x.authority, x.review_status, x.inferred, x.confidence, x.evidence, x.close_reason, x.age_edge, x.age_value_node)
			FROM facts x ORDER BY 1`
	}
	views := func() []string {
		t.Helper()
		var out []string
		for _, q := range []string{
			`SELECT 'current|' || concat_ws('|', space_id, subject, predicate, object, value, version, valid_from, valid_to, authority,
				review_status, inferred, confidence, recorded_seq, recorded_hash, evidence_count, fact_id, subject_id, object_id)
				FROM memory.current_facts`,
			`SELECT 'history|' || concat_ws('|', space_id, subject, predicate, object, version, status, valid_from, valid_to,
				recorded_seq, closed_seq, close_reason, superseded_by, authority, inferred, fact_id) FROM memory.fact_history`,
			`SELECT 'timeline|' || concat_ws('|', space_id, entity_id, entity, seq, occurred_at, what, detail) FROM memory.entity_timeline`,
			`SELECT 'salience|' || concat_ws('|', space_id, item_id, kind, authority, base, exempt) FROM memory.salience`,
		} {
			out = append(out, rows(q+` ORDER BY 1`)...)
		}
		return out
	}
	digests := func() []string {
		t.Helper()
		var out []string
		for _, space := range spaces {
			var expected, actual string
			var lines int64
			require.NoError(t, pool.QueryRow(ctx, `SELECT expected, actual, expected_lines FROM zaxy_age_mirror_digest($1)`, space).
				Scan(&expected, &actual, &lines))
			require.Equal(t, expected, actual, "the graph holds what the relational graph says")
			require.Positive(t, lines)
			out = append(out, expected)
		}
		return out
	}
	keyType := func(table string) string {
		t.Helper()
		var typ string
		require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce((SELECT format_type(atttypid, atttypmod) FROM pg_attribute
			WHERE attrelid = $1::regclass AND attname IN ('space_key', 'space_id') AND NOT attisdropped), '')`, table).Scan(&typ))
		return typ
	}
	foreignKeys := func() []string {
		t.Helper()
		return rows(`SELECT pg_get_constraintdef(oid) FROM pg_constraint
			WHERE conrelid = 'facts'::regclass AND confrelid = 'entities'::regclass ORDER BY 1`)
	}
	// A fact whose subject is an entity of the other space is refused by the foreign key.
	crossSpaceRefused := func(spaceColumn, spaceValue string) {
		t.Helper()
		_, err := pool.Exec(ctx, `INSERT INTO facts (`+spaceColumn+`, fact_id, subject_id, predicate, value, version, valid_from,
			recorded_seq, recorded_hash, authority, evidence)
			VALUES (`+spaceValue+`, 'cross', $2, 'p', '1', 1, now(), 1, '\x00', 'asserted', '[]')`,
			"zeta", projection.EntityID("alpha", "alice"))
		var pgErr *pgconn.PgError
		require.True(t, errors.As(err, &pgErr), "%v", err)
		require.Equal(t, "23503", pgErr.Code, "foreign_key_violation")
	}

	for _, table := range []string{"entities", "facts"} {
		require.Equal(t, "integer", keyType(table))
	}
	ents := rows(entities(entitySpaceByKey))
	require.Len(t, ents, 8, "Lisbon, Tobias, Alice and Bob in both spaces")
	fs := rows(facts(entitySpaceByKey))
	require.Len(t, fs, 6, "knows, age 30 (superseded) and age 31 in both spaces")
	lines := views()
	require.Len(t, lines, 2*(2+3+5+8), "per space: current facts, versions, timeline lines, items")
	sums := digests()
	keyed := foreignKeys()
	require.Len(t, keyed, 2)
	require.Contains(t, keyed[0], "(space_key, ")
	crossSpaceRefused("space_key", `(SELECT space_key FROM spaces WHERE space_id = $1)`)
	alice, err := graph.ResolveEntity(ctx, pool, "alpha", "Alice")
	require.NoError(t, err)
	require.Equal(t, projection.EntityID("alpha", "alice"), alice.ID)
	_, err = graph.ResolveEntity(ctx, pool, "zeta", projection.EntityID("alpha", "alice"))
	require.Error(t, err, "an entity is found in its own space only")

	_, err = pool.Exec(ctx, readMigration(t, "000073_entities_space_key.down.sql"))
	require.NoError(t, err)
	for _, table := range []string{"entities", "facts"} {
		require.Equal(t, "text", keyType(table))
	}
	require.Equal(t, ents, rows(entities(entitySpaceByID)))
	require.Equal(t, fs, rows(facts(entitySpaceByID)))
	require.Equal(t, lines, views())
	require.Equal(t, sums, digests())
	byID := foreignKeys()
	require.Len(t, byID, 2)
	require.Contains(t, byID[0], "(space_id, ")
	crossSpaceRefused("space_id", `$1`)

	// Up touches no graph's tables: holding a lock on each space's labels until commit is what
	// a database of a few hundred spaces cannot grant (000069).
	tx, err := pool.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx) //nolint:errcheck // after Commit a no-op; on a failure it lets the cleanup go
	_, err = tx.Exec(ctx, readMigration(t, "000073_entities_space_key.up.sql"))
	require.NoError(t, err)
	var graphLocks int
	require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		JOIN age_graphs g ON c.relnamespace = to_regnamespace(quote_ident(g.graph_name))
		WHERE l.pid = pg_backend_pid()`).Scan(&graphLocks))
	require.Zero(t, graphLocks, "no lock on a graph's relations")
	require.NoError(t, tx.Commit(ctx))
	for _, table := range []string{"entities", "facts"} {
		require.Equal(t, "integer", keyType(table))
	}
	require.Equal(t, ents, rows(entities(entitySpaceByKey)))
	require.Equal(t, fs, rows(facts(entitySpaceByKey)))
	require.Equal(t, lines, views())
	require.Equal(t, sums, digests())
	require.Equal(t, keyed, foreignKeys())
	crossSpaceRefused("space_key", `(SELECT space_key FROM spaces WHERE space_id = $1)`)
	var clustered bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT coalesce(bool_or(indisclustered), false) FROM pg_index
		WHERE indrelid IN ('entities'::regclass, 'facts'::regclass)`).Scan(&clustered))
	require.False(t, clustered)

	// Projecting on: a known entity mentioned again, a new one, a fact closed by a new value;
	// the mirror still agrees, and the other space is untouched.
	log.Append(t, "zeta",
		eventloom.NewEvent{Type: "message", Actor: "user", Content: "Tobias met Ingrid in Porto."},
		eventloom.NewEvent{Type: "fact.asserted", Actor: "user", Content: "Alice is 32.",
			Data: fixture.Data(map[string]any{"subject": "Alice", "predicate": "age", "value": 32})})
	log.Project(t, "zeta")
	after := digests()
	require.NotEqual(t, sums[0], after[0])
	require.Equal(t, sums[1], after[1], "alpha is untouched")
	var current string
	require.NoError(t, pool.QueryRow(ctx, `SELECT object FROM memory.current_facts
		WHERE space_id = 'zeta' AND subject = 'Alice' AND predicate = 'age'`).Scan(&current))
	require.Equal(t, "32", current)
}
