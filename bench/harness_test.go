package bench_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/api/apitest"
	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/testcontainers"
)

// scratchDatabases counts this process's scratch databases (zaxy_bench_<pid>_<unix time>).
func scratchDatabases(t *testing.T, admin string) int {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), admin)
	require.NoError(t, err)
	defer pool.Close()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_database WHERE datname LIKE $1`,
		fmt.Sprintf("zaxy_bench_%d_%%", os.Getpid())).Scan(&n))
	return n
}

func TestAppend_MeasuresInAScratchDatabaseAndDropsIt(t *testing.T) {
	admin := testcontainers.AdminURL(t)
	_, err := bench.Append(context.Background(), admin, bench.AppendOptions{Events: 100, Runs: 1, PoolSize: 1})
	require.ErrorContains(t, err, "Events must be at least 800")

	rep, err := bench.Append(context.Background(), admin, bench.AppendOptions{Events: 800, Runs: 2, PoolSize: 2, Only: "INSERT..unnest",
		API: func(_ context.Context, pool *pgxpool.Pool, store *eventloom.Store) (http.Handler, error) {
			return apitest.NewHandler(t, api.Config{}, api.Services{Pool: pool, Store: store}, nil), nil
		}})
	require.NoError(t, err)
	require.Equal(t, 2, rep.Runs)
	require.Equal(t, "on", rep.SynchronousCommit)
	require.Len(t, rep.Scenarios, 2, "only the two INSERT scenarios, and no verify without the Go batches")
	for _, s := range rep.Scenarios {
		require.Equal(t, 800, s.Events, s.Scenario)
		require.Positive(t, s.EventsPerSec, s.Scenario)
		require.LessOrEqual(t, s.EventsPerSecMin, s.EventsPerSec, s.Scenario)
		require.GreaterOrEqual(t, s.EventsPerSecMax, s.EventsPerSec, s.Scenario)
		require.Positive(t, s.P50Ms, s.Scenario)
	}
	require.Len(t, rep.Ratios, 1)
	require.Equal(t, "chain overhead (same INSERT, batches of 100)", rep.Ratios[0].Name)
	var out bytes.Buffer
	rep.WriteText(&out)
	require.Contains(t, out.String(), "2 run(s), pool 2, synchronous_commit on")
	require.Contains(t, out.String(), "INSERT..unnest batches of 100 (unchained)")
	require.Zero(t, scratchDatabases(t, admin), "the scratch database is dropped")
}

func TestCheckout_KeepsTheLoadedDatabaseForReuse(t *testing.T) {
	admin := testcontainers.AdminURL(t)
	var notices bytes.Buffer
	o := bench.CheckoutOptions{Memories: 100, Queries: 10, Corpus: "testdata/missing.json", Keep: true,
		Embedder: embedding.NewOffline(), OpenPool: openPool, Notices: &notices}
	rep, err := bench.Checkout(context.Background(), admin, o)
	require.NoError(t, err)
	kept := keptDatabase(t, admin, notices.String())
	require.Equal(t, 100, rep.Memories)
	require.Positive(t, rep.LoadSeconds)
	require.Positive(t, rep.CheckoutP50MS)
	require.LessOrEqual(t, rep.CheckoutP50MS, rep.CheckoutP95MS)
	require.Contains(t, rep.LaneMS, "keyword")
	var out bytes.Buffer
	rep.WriteText(&out)
	require.Contains(t, out.String(), "100 memories: load ")
	require.Contains(t, out.String(), "over 10 queries (after 0 untimed)")

	// --reuse times the queries on the kept database and loads nothing, after migrating it to
	// this binary's schema: here one kept before the latest migration (its down file run).
	kc, err := pgx.Connect(context.Background(), kept)
	require.NoError(t, err)
	defer kc.Close(context.Background())
	downs, err := fs.Glob(migrations.FS, fmt.Sprintf("%06d_*.down.sql", migrations.Latest()))
	require.NoError(t, err)
	require.Len(t, downs, 1)
	down, err := fs.ReadFile(migrations.FS, downs[0])
	require.NoError(t, err)
	_, err = kc.Exec(context.Background(), string(down))
	require.NoError(t, err)
	// The version before the latest is the highest other one (numbers may skip).
	ups, err := fs.Glob(migrations.FS, "*.up.sql")
	require.NoError(t, err)
	previous := 0
	for _, name := range ups {
		if v, err := strconv.Atoi(name[:6]); err == nil && v < int(migrations.Latest()) && v > previous {
			previous = v
		}
	}
	_, err = kc.Exec(context.Background(), "UPDATE schema_migrations SET version = $1", previous)
	require.NoError(t, err)
	o.Keep, o.Reuse, o.Notices = false, kept, nil
	again, err := bench.Checkout(context.Background(), "", o)
	require.NoError(t, err)
	var version int
	require.NoError(t, kc.QueryRow(context.Background(), `SELECT version FROM schema_migrations`).Scan(&version))
	require.Equal(t, int(migrations.Latest()), version, "the reused database was migrated before the queries were timed")
	// Warm-up checkouts run untimed first (memories' own sentences), and are recorded too.
	var before int
	require.NoError(t, kc.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE type = 'checkout.surfaced'`).Scan(&before))
	o.Warmup = 5
	warm, err := bench.Checkout(context.Background(), "", o)
	require.NoError(t, err)
	require.Equal(t, 5, warm.Warmup)
	var after int
	require.NoError(t, kc.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE type = 'checkout.surfaced'`).Scan(&after))
	require.Equal(t, before+5+o.Queries, after, "five untimed checkouts, then the timed ones")
	o.Warmup = 0

	// A database a newer binary migrated is timed as it is, with a notice.
	_, err = kc.Exec(context.Background(), "UPDATE schema_migrations SET version = version + 1")
	require.NoError(t, err)
	var newer bytes.Buffer
	o.Notices = &newer
	_, err = bench.Checkout(context.Background(), "", o)
	require.NoError(t, err)
	require.Contains(t, newer.String(), fmt.Sprintf("schema %d, newer than this binary's %d", migrations.Latest()+1, migrations.Latest()))
	_, err = kc.Exec(context.Background(), "UPDATE schema_migrations SET version = version - 1")
	require.NoError(t, err)
	o.Notices = nil
	require.Zero(t, again.LoadSeconds)
	require.Positive(t, again.CheckoutP50MS)
	require.Zero(t, again.Weaves, "no weave unless asked")

	// --weave builds the artifacts the kept database lacks (an episode per session) and asks
	// every checkout for a weave.
	o.Weave = true
	woven, err := bench.Checkout(context.Background(), "", o)
	require.NoError(t, err)
	require.Equal(t, o.Queries, woven.Weaves, "every packet carried a weave")
	o.Weave = false

	o.Memories = 10
	_, err = bench.Checkout(context.Background(), "", o)
	require.ErrorContains(t, err, "Memories must be at least 100")
	o.Memories, o.Warmup = 100, 101
	_, err = bench.Checkout(context.Background(), "", o)
	require.ErrorContains(t, err, "Warmup must be between 0 and Memories")
}

// openPool opens a pool as the service does (pgvector types registered on every connection).
func openPool(ctx context.Context, url string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	pgexec.Configure(cfg)
	return pgxpool.NewWithConfig(ctx, cfg)
}

// With Spaces, every space gets its own memories and the timed checkouts ask all of them in
// turn, each recording what it surfaced in the space it asked.
func TestCheckout_SpreadsTheQueriesOverTheSpacesItLoads(t *testing.T) {
	admin := testcontainers.AdminURL(t)
	var notices bytes.Buffer
	o := bench.CheckoutOptions{Memories: 100, Spaces: 3, Queries: 12, Warmup: 3, Corpus: "testdata/missing.json", Keep: true,
		Embedder: embedding.NewOffline(), OpenPool: openPool, Notices: &notices}
	rep, err := bench.Checkout(context.Background(), admin, o)
	require.NoError(t, err)
	kept := keptDatabase(t, admin, notices.String())
	require.Equal(t, 3, rep.Spaces)
	var out bytes.Buffer
	rep.WriteText(&out)
	require.Contains(t, out.String(), "3 spaces of 100 memories: load ")
	kc, err := pgx.Connect(context.Background(), kept)
	require.NoError(t, err)
	defer kc.Close(context.Background())
	rows, err := kc.Query(context.Background(), `SELECT space_id || ' ' || count(*) FILTER (WHERE type = 'message') || ' ' || count(*) FILTER (WHERE type = 'checkout.surfaced')
		FROM events GROUP BY space_id ORDER BY space_id`)
	require.NoError(t, err)
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	require.Equal(t, []string{"bench-0001 100 5", "bench-0002 100 5", "bench-0003 100 5"}, got,
		"100 memories each; 15 checkouts (3 untimed) spread evenly")
	var distinct int
	require.NoError(t, kc.QueryRow(context.Background(), `SELECT count(DISTINCT content) FROM events WHERE type = 'message'`).Scan(&distinct))
	require.Equal(t, 300, distinct, "no memory is loaded into two spaces")

	o.Weave = true
	_, err = bench.Checkout(context.Background(), admin, o)
	require.ErrorContains(t, err, "Weave works on one space")
}

// keptDatabase is the URL of the database a Keep run named in its notices; it is dropped when
// the test ends.
func keptDatabase(t *testing.T, admin, notices string) string {
	t.Helper()
	m := regexp.MustCompile(`--reuse '([^']+)'`).FindStringSubmatch(notices)
	require.NotNil(t, m, notices)
	kept := m[1]
	t.Cleanup(func() {
		u, err := url.Parse(kept)
		require.NoError(t, err)
		pool, err := pgxpool.New(context.Background(), admin)
		require.NoError(t, err)
		defer pool.Close()
		_, err = pool.Exec(context.Background(), "DROP DATABASE IF EXISTS "+strings.TrimPrefix(u.Path, "/")+" WITH (FORCE)")
		require.NoError(t, err)
	})
	return kept
}
