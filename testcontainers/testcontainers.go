// Package testcontainers is the one place that knows how to provide a PostgreSQL 17 with
// pgvector and Apache AGE: an existing database URL from the environment wins; otherwise
// postgres.sh (beside this file) builds and starts a local cluster. Its Go helpers give a test
// either a transaction on the test binary's shared migrated database, rolled back when the
// test ends (TestTx), or a freshly migrated database of its own (NewDatabase), both copied
// from a migrated template, so tests never see each other's rows; where the test database is
// the local cluster postgres.sh manages, a test can also start clusters and streaming standbys
// of its own (StartCluster, StartStandby; cluster.go). It must never be imported by non-test
// code paths that serve traffic.
package testcontainers

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/migrations"
)

// TestAppRole is the login role tests use as the application: a member of zaxy_app.
const TestAppRole = "zaxy_test_app"

var (
	provisionOnce sync.Once
	adminURL      string
	provisionErr  error

	templateMu sync.Mutex
	// templateNames holds the templates built, by cluster (its admin URL) and name.
	templateNames = map[string]bool{}

	dbCounter atomic.Int64
)

// ScriptPath is the absolute path of postgres.sh.
func ScriptPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "postgres.sh")
}

// AdminURL returns a superuser URL for the test cluster, provisioning it when needed:
// ZAXY_TEST_DATABASE_URL, then ZAXY_ADMIN_DATABASE_URL, then postgres.sh start.
func AdminURL(tb testing.TB) string {
	tb.Helper()
	provisionOnce.Do(func() {
		for _, name := range []string{"ZAXY_TEST_DATABASE_URL", "ZAXY_ADMIN_DATABASE_URL"} {
			if v := os.Getenv(name); v != "" {
				adminURL = v
				return
			}
		}
		adminURL, provisionErr = runScript()
	})
	if provisionErr != nil {
		tb.Fatalf("provision test database: %v", provisionErr)
	}
	return adminURL
}

func runScript() (string, error) {
	cmd := exec.Command("bash", ScriptPath(), "start")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s: %w: %s", ScriptPath(), err, strings.TrimSpace(stderr.String()))
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "ZAXY_ADMIN_DATABASE_URL="); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s printed no ZAXY_ADMIN_DATABASE_URL line", ScriptPath())
}

// Database is one isolated, migrated database for one test.
type Database struct {
	// Name is the database name.
	Name string
	// AdminURL connects as the cluster superuser (the schema owner).
	AdminURL string
	// AppURL connects as TestAppRole, which has only the application's privileges.
	AppURL string
}

// NewDatabase creates a database for this test from the migrated template and drops it when
// the test ends.
func NewDatabase(tb testing.TB) *Database {
	tb.Helper()
	return newDatabase(tb, AdminURL(tb))
}

// newDatabase creates a database for this test from the migrated template of the cluster
// admin connects to, and drops it when the test ends.
func newDatabase(tb testing.TB, admin string) *Database {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	tmpl, err := ensureTemplate(ctx, admin)
	if err != nil {
		tb.Fatalf("prepare template database: %v", err)
	}
	name := fmt.Sprintf("zaxy_t_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, dbCounter.Add(1))
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		tb.Fatalf("connect to test cluster: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tmpl)); err != nil {
		tb.Fatalf("create test database: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			tb.Logf("drop test database %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			tb.Logf("drop test database %s: %v", name, err)
		}
	})
	return &Database{
		Name:     name,
		AdminURL: withDatabase(admin, name, nil),
		AppURL:   withDatabase(admin, name, url.UserPassword(TestAppRole, TestAppRole)),
	}
}

// AdminPool opens a pool as the superuser, closed when the test ends.
func (d *Database) AdminPool(tb testing.TB) *pgxpool.Pool { return openPool(tb, d.AdminURL) }

// AppPool opens a pool as the application role, closed when the test ends.
func (d *Database) AppPool(tb testing.TB) *pgxpool.Pool { return openPool(tb, d.AppURL) }

func openPool(tb testing.TB, dsn string) *pgxpool.Pool {
	tb.Helper()
	pool, err := newPool(context.Background(), dsn)
	if err != nil {
		tb.Fatalf("%v", err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

// newPool opens a pool configured as the service's are (pgexec.Configure).
func newPool(ctx context.Context, dsn string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	cfg.MaxConns = 20
	pgexec.Configure(cfg)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open pool: %w", err)
	}
	return pool, nil
}

func withDatabase(base, name string, user *url.Userinfo) string {
	u, err := url.Parse(base)
	if err != nil {
		panic(err)
	}
	u.Path = "/" + name
	if user != nil {
		u.User = user
	}
	return u.String()
}

// schemaDigest names the template after the migrations' contents, so a changed migration
// gets a new template instead of a stale one.
func schemaDigest() string {
	h := sha256.New()
	_ = fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(migrations.FS, path)
		h.Write([]byte(path))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ensureTemplate builds the migrated template once per schema digest and cluster, across
// processes (test packages run in parallel) under an advisory lock.
func ensureTemplate(ctx context.Context, admin string) (string, error) {
	name := "zaxy_tmpl_" + schemaDigest()
	key := admin + " " + name
	templateMu.Lock()
	defer templateMu.Unlock()
	if templateNames[key] {
		return name, nil
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to test cluster: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(1517840762)`); err != nil {
		return "", err
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock(1517840762)`) //nolint:errcheck

	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if err := buildTemplate(ctx, conn, admin, name); err != nil {
			return "", err
		}
	}
	templateNames[key] = true
	return name, nil
}

func buildTemplate(ctx context.Context, conn *pgx.Conn, admin, name string) error {
	building := name + "_build"
	setup := []string{
		fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", building),
		`DO $$ BEGIN
		   IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN CREATE ROLE zaxy_app NOLOGIN; END IF;
		   IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '` + TestAppRole + `') THEN
		     CREATE ROLE ` + TestAppRole + ` LOGIN PASSWORD '` + TestAppRole + `' IN ROLE zaxy_app;
		   END IF;
		 END $$`,
		fmt.Sprintf("CREATE DATABASE %s", building),
	}
	for _, q := range setup {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", strings.SplitN(q, " ", 3)[0], err)
		}
	}
	if _, err := migrations.Up(ctx, withDatabase(admin, building, nil), time.Minute); err != nil {
		return err
	}
	for _, q := range []string{
		fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", building, name),
		fmt.Sprintf("ALTER DATABASE %s IS_TEMPLATE true", name),
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("finish template: %w", err)
		}
	}
	return nil
}
