package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
)

// worldDigest hashes every space's relational rows (each public table with a space_id), the
// token table and every AGE graph's vertices and edges, table by table.
func worldDigest(t *testing.T, admin *pgxpool.Pool) map[string]string {
	t.Helper()
	ctx := context.Background()
	conn, err := admin.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(ctx, `SET search_path = public, ag_catalog`)
	require.NoError(t, err)
	rows, err := conn.Query(ctx, `SELECT table_name::text FROM information_schema.columns
		WHERE table_schema = 'public' AND column_name = 'space_id' ORDER BY 1`)
	require.NoError(t, err)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	queries := map[string]string{}
	for _, tbl := range append(tables, "api_tokens") {
		queries[tbl] = fmt.Sprintf(`SELECT coalesce(md5(string_agg(x::text, E'\n' ORDER BY x::text)), '') FROM %s x`, pgx.Identifier{tbl}.Sanitize())
	}
	rows, err = conn.Query(ctx, `SELECT graph_name FROM age_graphs ORDER BY 1`)
	require.NoError(t, err)
	graphs, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	require.NotEmpty(t, graphs)
	for _, g := range graphs {
		queries[g+".vertices"] = fmt.Sprintf(`SELECT coalesce(md5(string_agg(l, E'\n' ORDER BY l)), '') FROM (
			SELECT id::text || agtype_out(properties)::text AS l FROM %s._ag_label_vertex) v`, g)
		queries[g+".edges"] = fmt.Sprintf(`SELECT coalesce(md5(string_agg(l, E'\n' ORDER BY l)), '') FROM (
			SELECT id::text || start_id::text || end_id::text || agtype_out(properties)::text AS l FROM %s._ag_label_edge) e`, g)
	}
	out := map[string]string{}
	for name, q := range queries {
		var d string
		require.NoError(t, conn.QueryRow(ctx, q).Scan(&d), name)
		out[name] = d
	}
	return out
}

// TestHTTP_CypherEscapesAreRefusedAndChangeNothing runs each known escape payload with a read
// token for space A through POST /v1/spaces/A/cypher and the MCP memory_cypher tool: each is a
// 400 naming query, and every space (A's too) is byte-identical afterwards.
func TestHTTP_CypherEscapesAreRefusedAndChangeNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	srv := e.serveHTTP(t)
	ctx := context.Background()
	store := eventloom.NewStore(e.db.AppPool(t), nil, nil)
	for _, space := range []string{"esc-a", "esc-b"} {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
			{Type: "note", Content: "the secret of " + space},
			{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Alice","predicate":"works at","object":"Acme"}`)},
		}})
		require.NoError(t, err)
		e.project(t, space)
	}
	readA := e.token(t, auth.ScopeRead, "esc-a")
	admin := e.db.AdminPool(t)
	var graphB string
	require.NoError(t, admin.QueryRow(ctx, `SELECT graph_name FROM age_graphs WHERE space_id = 'esc-b'`).Scan(&graphB))
	var pid int
	require.NoError(t, admin.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE usename = 'zaxy_test_app' LIMIT 1`).Scan(&pid))

	vt := "\v"
	escapes := []string{
		"RETURN pg_catalog" + vt + ".concat(pg_catalog" + vt + ".to_json(pg_catalog" + vt + ".version()))",
		"RETURN pg_catalog" + vt + ".query_to_xml('select * from events where space_id = ''esc-b''', true, true, '')",
		"RETURN pg_catalog" + vt + ".query_to_xml('select * from api_tokens', true, true, '')",
		"RETURN query_to_xml('select datname from pg_stat_activity', true, true, '')",
		fmt.Sprintf("RETURN pg_catalog"+vt+".pg_terminate_backend(%d)", pid),
		fmt.Sprintf("RETURN pg_terminate_backend(%d)", pid),
		"RETURN ag_catalog" + vt + ".cypher('" + graphB + "', 'MATCH (a:Entity) SET a.name = ''pwned'' RETURN a')",
		"RETURN ag_catalog\f.cypher('" + graphB + "', 'MATCH (a:Entity) DETACH DELETE a')",
		"RETURN pg_catalog/**/./**/version()",
		"RETURN `pg_catalog`.`version`()",
		"RETURN pg_catalog\u00a0.version()",
		"MATCH (a:Entity) DETACH DELETE a",
		"MATCH (a:Entity) SET a.name = 'pwned' RETURN a",
		"MATCH (a:Entity) REMOVE a.name RETURN a",
		"CREATE (a:Entity {name: 'mallory'}) RETURN a",
		"RETURN $$x$$",
	}
	before := worldDigest(t, admin)
	cs := connectHTTP(t, srv.URL+"/mcp?profile=full", readA)
	for _, q := range escapes {
		body, err := json.Marshal(map[string]any{"query": q})
		require.NoError(t, err)
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/spaces/esc-a/cypher", strings.NewReader(string(body)))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+readA)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var out struct {
			Error struct {
				Code    string         `json:"code"`
				Details map[string]any `json:"details"`
			} `json:"error"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		resp.Body.Close()
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%q", q)
		require.Equal(t, "invalid_request", out.Error.Code, "%q", q)
		require.Equal(t, "query", out.Error.Details["field"], "%q", q)

		te := toolError(t, cs, "memory_cypher", map[string]any{"space": "esc-a", "query": q})
		require.Equal(t, "invalid_request", te["code"], "%q", q)
		require.Equal(t, "query", te["details"].(map[string]any)["field"], "%q", q)
	}
	require.Equal(t, before, worldDigest(t, admin), "no space changed")

	// The same token still reads its own graph.
	res := ok(t, cs, "memory_cypher", map[string]any{"space": "esc-a", "query": "MATCH (a:Entity)-[f:FACT]->(b:Entity) RETURN a.name", "columns": 1})
	require.Equal(t, []any{[]any{"Alice"}}, res["rows"])
}

// TestMCP_CypherBackquotedWriteAndTimeoutAreRefused: a backquoted write (AGE reads `SET` as
// SET) and an out-of-range timeout_ms are 400s naming their field through memory_cypher
// (issue 30), and the graph is unchanged.
func TestMCP_CypherBackquotedWriteAndTimeoutAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, true)
	srv := e.serveHTTP(t)
	ctx := context.Background()
	_, err := eventloom.NewStore(e.db.AppPool(t), nil, nil).Append(ctx, &eventloom.AppendParams{SpaceID: "bq", Events: []eventloom.NewEvent{
		{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Alice","predicate":"works at","object":"Acme"}`)},
	}})
	require.NoError(t, err)
	e.project(t, "bq")
	read := e.token(t, auth.ScopeRead, "bq")
	admin := e.db.AdminPool(t)
	before := worldDigest(t, admin)
	cs := connectHTTP(t, srv.URL+"/mcp?profile=full", read)
	for _, tc := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"space": "bq", "query": "MATCH (n) `SET` n.name = 'pwned' RETURN n.name"}, "query"},
		{map[string]any{"space": "bq", "query": "MATCH (n:Entity) `DETACH` `DELETE` n RETURN count(*)"}, "query"},
		{map[string]any{"space": "bq", "query": "MATCH (a) RETURN a", "timeout_ms": 76480200929599801}, "timeout_ms"},
	} {
		te := toolError(t, cs, "memory_cypher", tc.args)
		require.Equal(t, "invalid_request", te["code"], "%v", tc.args)
		require.Equal(t, tc.field, te["details"].(map[string]any)["field"], "%v", tc.args)
	}
	require.Equal(t, before, worldDigest(t, admin), "nothing changed")
}
