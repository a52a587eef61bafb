package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestHTTP_ErasureNeedsTheAdminScope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	tokens := auth.NewStore(pool)
	store := eventloom.NewStore(pool, nil, nil)
	srv := httptest.NewServer(apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store, Auth: tokens}, nil))
	t.Cleanup(srv.Close)

	// seq 1 of space a is hashed under version 1, as if appended before migration 000011.
	admin := db.AdminPool(t)
	require.NoError(t, pgx.BeginFunc(ctx, admin, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			WITH v AS (SELECT date_trunc('second', clock_timestamp()) - interval '1 minute' AS t,
			                  '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea AS z),
			e AS (INSERT INTO events (space_id, seq, type, occurred_at, recorded_at, content, prev_hash, hash)
			      SELECT 'a', 1, 'note', t, t, 'old', z, sha256(z || zaxy_event_canonical('a', 1, 'note', '', '', t, t, 'old', '{}', '{}'))
			      FROM v RETURNING space_id, seq, hash, recorded_at)
			INSERT INTO spaces (space_id, head_seq, head_hash, head_at) SELECT * FROM e`)
		return err
	}))
	res, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: "a", Events: []eventloom.NewEvent{{Type: "note", Content: "my phone is 555-0199"}}})
	require.NoError(t, err)
	seq := res.Receipts[0].Seq

	_, readA, err := tokens.Create(ctx, []string{"a"}, auth.ScopeRead, "")
	require.NoError(t, err)
	_, writeA, err := tokens.Create(ctx, []string{"a"}, auth.ScopeWrite, "")
	require.NoError(t, err)
	_, adminB, err := tokens.Create(ctx, []string{"b"}, auth.ScopeAdmin, "")
	require.NoError(t, err)
	_, adminA, err := tokens.Create(ctx, []string{"a"}, auth.ScopeAdmin, "")
	require.NoError(t, err)

	post := func(token, body string) (int, string) {
		req, err := http.NewRequest("POST", srv.URL+"/v1/spaces/a/erasures", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	body := fmt.Sprintf(`{"seq":%d,"reason":"ticket 7"}`, seq)
	for name, token := range map[string]string{"read": readA, "write": writeA, "admin of another space": adminB} {
		status, out := post(token, body)
		require.Equal(t, 403, status, "%s: %s", name, out)
		require.Contains(t, out, `"forbidden"`)
	}
	var content string
	require.NoError(t, pool.QueryRow(ctx, `SELECT content FROM events WHERE space_id = 'a' AND seq = $1`, seq).Scan(&content))
	require.Equal(t, "my phone is 555-0199", content, "a refused erasure changes nothing")

	for _, c := range []struct {
		body, code, field string
		status            int
	}{
		{`{"seq":1,"reason":"ticket 7"}`, "not_erasable", "", 409},
		{`{"seq":99,"reason":"ticket 7"}`, "event_not_found", "", 404},
		{fmt.Sprintf(`{"seq":%d}`, seq), "invalid_request", "reason", 400},
		{`{"reason":"x"}`, "invalid_request", "seq", 400},
		{fmt.Sprintf(`{"seq":%d,"reason":"x","content":"y"}`, seq), "invalid_request", "content", 400},
	} {
		status, out := post(adminA, c.body)
		require.Equal(t, c.status, status, "%s: %s", c.body, out)
		var eb api.ErrorBody
		require.NoError(t, json.Unmarshal([]byte(out), &eb))
		require.Equal(t, c.code, eb.Error.Code, out)
		if c.field != "" {
			require.Equal(t, c.field, eb.Error.Details["field"], out)
		}
	}

	status, out := post(adminA, body)
	require.Equal(t, 201, status, out)
	var rec struct {
		Seq        int64 `json:"seq"`
		ErasureSeq int64 `json:"erasure_seq"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rec))
	require.Equal(t, seq, rec.Seq)
	require.Equal(t, seq+1, rec.ErasureSeq)
	require.NotContains(t, out, "555-0199")

	status, out = post(adminA, body)
	require.Equal(t, 409, status, out)
	require.Contains(t, out, "already erased")

	// The log still verifies over HTTP; replay shows the tombstone and the record.
	req, _ := http.NewRequest("GET", srv.URL+"/v1/spaces/a/verify?method=sql", nil)
	req.Header.Set("Authorization", "Bearer "+readA)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Contains(t, string(b), `"ok":true`)
	req, _ = http.NewRequest("GET", srv.URL+"/v1/spaces/a/events", nil)
	req.Header.Set("Authorization", "Bearer "+readA)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NotContains(t, string(b), "555-0199")
	require.Contains(t, string(b), fmt.Sprintf(`"erased_by_seq":%d`, seq+1))
	require.Contains(t, string(b), `"type":"erasure.recorded"`)
}
