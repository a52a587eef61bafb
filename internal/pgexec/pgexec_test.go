package pgexec_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestAfterConnect_RegistersPgvectorTypes: on a migrated database the vector types are
// registered, so a pgvector.Vector goes out and comes back in binary, unchanged.
func TestAfterConnect_RegistersPgvectorTypes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	conn, err := pgx.Connect(ctx, db.AppURL)
	require.NoError(t, err)
	defer conn.Close(ctx)

	require.NoError(t, pgexec.AfterConnect(ctx, conn))
	for _, name := range []string{"vector", "halfvec", "_vector"} {
		_, ok := conn.TypeMap().TypeForName(name)
		require.True(t, ok, name)
	}
	in := pgvector.NewVector([]float32{1, -2.5, 0.1, 3e-8})
	var out pgvector.Vector
	require.NoError(t, conn.QueryRow(ctx, `SELECT $1::vector`, in).Scan(&out))
	require.Equal(t, in.Slice(), out.Slice())
	var outs []pgvector.Vector
	require.NoError(t, conn.QueryRow(ctx, `SELECT $1::vector[]`, []pgvector.Vector{in, in}).Scan(&outs))
	require.Len(t, outs, 2)
	require.Equal(t, in.Slice(), outs[1].Slice())
}

// TestAfterConnect_LeavesADatabaseWithoutPgvectorAlone: a database without the extension
// (before 'zaxy migrate') still gets connections; nothing is registered.
func TestAfterConnect_LeavesADatabaseWithoutPgvectorAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	admin := testcontainers.AdminURL(t)
	name := fmt.Sprintf("zaxy_bare_%d", time.Now().UnixNano()%1e9)
	exec := func(ctx context.Context, stmt string) error {
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		_, err = c.Exec(ctx, stmt)
		return err
	}
	require.NoError(t, exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"))
	t.Cleanup(func() {
		if err := exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop %s: %v", name, err)
		}
	})

	u, err := url.Parse(admin)
	require.NoError(t, err)
	u.Path = "/" + name
	conn, err := pgx.Connect(ctx, u.String())
	require.NoError(t, err)
	defer conn.Close(ctx)
	require.NoError(t, pgexec.AfterConnect(ctx, conn))
	_, ok := conn.TypeMap().TypeForName("vector")
	require.False(t, ok)
}

// TestConfigure_TurnsJITOffUnlessTheURLSetsIt: a configured pool's sessions run with jit off
// (the server default here is on); a URL that sets jit keeps its own value.
func TestConfigure_TurnsJITOffUnlessTheURLSetsIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	jit := func(dsn string) string {
		cfg, err := pgxpool.ParseConfig(dsn)
		require.NoError(t, err)
		pgexec.Configure(cfg)
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		require.NoError(t, err)
		defer pool.Close()
		var v string
		require.NoError(t, pool.QueryRow(ctx, `SHOW jit`).Scan(&v))
		return v
	}
	conn, err := pgx.Connect(ctx, db.AppURL)
	require.NoError(t, err)
	var server string
	require.NoError(t, conn.QueryRow(ctx, `SHOW jit`).Scan(&server))
	require.NoError(t, conn.Close(ctx))
	require.Equal(t, "on", server, "the test cluster's default")
	require.Equal(t, "off", jit(db.AppURL))
	sep := "?"
	if strings.Contains(db.AppURL, "?") {
		sep = "&"
	}
	require.Equal(t, "on", jit(db.AppURL+sep+"jit=on"))
}
