package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/mcp"
	"github.com/zaxy/zaxy/testcontainers"
)

// The composition root builds every service the API and the MCP server require, from the
// configuration alone.
func TestBuildServices_BuildsEveryServiceTheAPIRequires(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	pool := db.AppPool(t)
	env := map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_TEXT_SEARCH_CONFIG": "simple"}
	cfg, err := readConfig(func(k string) string { return env[k] })
	require.NoError(t, err)
	svc, err := buildServices(t.Context(), cfg, cfg.http, serviceDeps{pool: pool, analytics: pool, store: eventloom.NewStore(pool, nil, nil), withAuth: true}, nil)
	require.NoError(t, err)
	require.NotNil(t, svc.api.Auth)
	require.NotNil(t, svc.handler)
	require.NotNil(t, svc.mcp.API)
	require.Same(t, svc.api.Auth, svc.mcp.Auth)
	_, err = mcp.NewHTTPHandler(mcp.HTTPConfig{}, svc.mcp, nil)
	require.NoError(t, err)
}

// zaxy mcp builds its services through the composition root, so the projector behind its
// erasure route reads ZAXY_TEXT_SEARCH_CONFIG as the workers' does: a configuration the
// database lacks stops it at start rather than erasing under the English one.
func TestMCPCommand_RefusesATextSearchConfigTheDatabaseLacks(t *testing.T) {
	t.Parallel()
	db := testcontainers.NewDatabase(t)
	env := map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_MODEL_DIR": "/nonexistent/zaxy-models", "ZAXY_TEXT_SEARCH_CONFIG": "klingon"}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"mcp"}, func(k string) string { return env[k] }, strings.NewReader(""), &stdout, &stderr)
	require.NotZero(t, code, stderr.String())
	require.Contains(t, stderr.String(), `text search configuration "klingon" does not exist`)
}
