package migrations_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestCheck_RefusesEmptyThenAcceptsMigrated(t *testing.T) {
	ctx := context.Background()
	admin := testcontainers.AdminURL(t)
	name := fmt.Sprintf("zaxy_mig_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	conn, err := pgx.Connect(ctx, admin)
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		conn.Close(context.Background())
	})
	u, err := url.Parse(admin)
	require.NoError(t, err)
	u.Path = "/" + name

	pool, err := pgxpool.New(ctx, u.String())
	require.NoError(t, err)
	require.ErrorIs(t, migrations.Check(ctx, pool), migrations.ErrOutOfDate)
	require.ErrorContains(t, migrations.Check(ctx, pool), "zaxy migrate")
	pool.Close()

	v, err := migrations.Up(ctx, u.String(), time.Minute)
	require.NoError(t, err)
	require.Equal(t, migrations.Latest(), v)
	v, err = migrations.Up(ctx, u.String(), time.Minute) // no change is success
	require.NoError(t, err)
	require.Equal(t, migrations.Latest(), v)

	pool, err = pgxpool.New(ctx, u.String())
	require.NoError(t, err)
	defer pool.Close()
	require.NoError(t, migrations.Check(ctx, pool))
}
