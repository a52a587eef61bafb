package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestTokenCommands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(ctx, []string{"token", "create", "--space", "a", "--space", "b", "--scope", "write", "--label", "ci"}, getenv, nil, &out, &errOut), errOut.String())
	plain := strings.TrimSpace(out.String())
	require.True(t, strings.HasPrefix(plain, "zx_"), plain)
	pool := db.AppPool(t)
	tok, err := auth.NewStore(pool).Authorize(ctx, plain, "b", auth.ScopeWrite)
	require.NoError(t, err)

	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"token", "list"}, getenv, nil, &out, &errOut))
	require.Contains(t, out.String(), tok.ID+"  write  live     a,b  ci")
	require.NotContains(t, out.String(), plain)

	require.Equal(t, 0, run(ctx, []string{"token", "revoke", tok.ID}, getenv, nil, &out, &errOut))
	_, err = auth.NewStore(pool).Authorize(ctx, plain, "b", auth.ScopeRead)
	require.ErrorIs(t, err, auth.ErrUnauthenticated)

	require.Equal(t, 2, run(ctx, []string{"token", "create", "--space", "a", "--scope", "root"}, getenv, nil, &out, &errOut))
	require.Contains(t, errOut.String(), "scope")
	require.Equal(t, 1, run(ctx, []string{"token", "revoke", "nope"}, getenv, nil, &out, &errOut))
}

func TestServeConfig_AuthOffOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	env := func(addr, authMode string) func(string) string {
		return func(k string) string {
			return map[string]string{"ZAXY_DATABASE_URL": "postgres://x", "ZAXY_ADDR": addr, "ZAXY_AUTH": authMode}[k]
		}
	}
	c, err := readConfig(env("127.0.0.1:8080", "off"))
	require.NoError(t, err)
	require.True(t, c.authOff)
	_, err = readConfig(env("[::1]:8080", "off"))
	require.NoError(t, err)
	_, err = readConfig(env("0.0.0.0:8080", "off"))
	require.ErrorContains(t, err, "only allowed on a loopback address")
	c, err = readConfig(env("0.0.0.0:8080", ""))
	require.NoError(t, err)
	require.False(t, c.authOff, "auth is on by default")
	_, err = readConfig(env("127.0.0.1:8080", "maybe"))
	require.ErrorContains(t, err, "ZAXY_AUTH must be on or off")
}
