package testcontainers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Local clusters: postgres.sh's named instances and streaming standbys, started for one test
// and removed when it ends. They run in the same root filesystem as the default cluster, so a
// test can use them only where that cluster is the one postgres.sh manages on this machine
// (LocalClusters). make test provides exactly that: it runs postgres.sh start as root and passes
// the default cluster's superuser URL as ZAXY_TEST_DATABASE_URL.

// clusterOptions are the server options of the clusters and standbys tests start: small, and
// without fsync (a test cluster never outlives a crash of the machine).
const clusterOptions = "-c fsync=off -c full_page_writes=off -c shared_buffers=32MB -c max_connections=100"

// testPortMin and testPortMax bound the ports test clusters take: below Linux's ephemeral range
// (32768-60999), so a port is never taken by an outgoing connection between the check that
// it is free and the server's bind.
const (
	testPortMin = 20000
	testPortMax = 32000
)

// instanceSeq numbers the instances this process starts.
var instanceSeq atomic.Int64

// pruneOnce removes, once per process, the instances left by test processes that died.
var pruneOnce sync.Once

// Cluster is a PostgreSQL cluster of a test's own (a postgres.sh instance), independent of the
// default cluster: its own data directory, port, roles and databases.
type Cluster struct {
	// Name is the instance's name (postgres.sh's ZAXY_PG_INSTANCE).
	Name string
	// Port is the port it listens on, on 127.0.0.1.
	Port int
	// AdminURL connects to its zaxy database as the superuser.
	AdminURL string
}

// Standby is a streaming standby of a Cluster (postgres.sh replica): a copy made with
// pg_basebackup that replays the primary's WAL through a replication slot and serves reads.
type Standby struct {
	// Name is the standby's instance name (postgres.sh's ZAXY_PG_REPLICA).
	Name string
	// Port is the port it listens on, on 127.0.0.1.
	Port int
	// AdminURL connects to its zaxy database as the superuser.
	AdminURL string
	// Primary is the cluster it replicates.
	Primary *Cluster
	// opts are the options it was started with.
	opts StandbyOptions
}

// StandbyOptions configure StartStandby.
type StandbyOptions struct {
	// ApplyDelay is the standby's recovery_min_apply_delay: it applies each transaction's
	// commit this long after the primary made it (the lag read-your-writes must see through).
	// Zero applies at once.
	ApplyDelay time.Duration
}

// LocalClusters reports whether this test process may start clusters and standbys: the
// cluster AdminURL names is the default cluster postgres.sh runs on this machine, and the
// process is root on Linux (postgres.sh runs them with chroot). When it returns false, the
// reason says why.
func LocalClusters(tb testing.TB) (ok bool, reason string) {
	tb.Helper()
	admin := AdminURL(tb)
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		return false, "local clusters need root on Linux (testcontainers/postgres.sh runs them with chroot)"
	}
	u, err := url.Parse(admin)
	if err != nil {
		return false, fmt.Sprintf("the test database URL does not parse: %v", err)
	}
	if h := u.Hostname(); h != "127.0.0.1" && h != "localhost" {
		return false, fmt.Sprintf("the test database (%s) is not on this machine", h)
	}
	port, err := runningPort(filepath.Join(rootFS(), "var/lib/postgresql/zaxy-data"))
	if err != nil {
		return false, fmt.Sprintf("testcontainers/postgres.sh's default cluster is not running here (%v)", err)
	}
	if strconv.Itoa(port) != u.Port() {
		return false, fmt.Sprintf("the test database (port %s) is not testcontainers/postgres.sh's default cluster (port %d)", u.Port(), port)
	}
	return true, ""
}

// requireLocalClusters skips the test unless LocalClusters.
func requireLocalClusters(tb testing.TB) {
	tb.Helper()
	if ok, reason := LocalClusters(tb); !ok {
		tb.Skipf("skipped: ZAXY_TEST_DATABASE_URL is not the local cluster testcontainers/postgres.sh manages (%s); make test, run as root, provides it", reason)
	}
}

// StartCluster starts a new, empty cluster for this test (postgres.sh start with
// ZAXY_PG_INSTANCE), with the roles make db creates, and removes it (data included) when the
// test ends. name, 1-12 of a-z, 0-9 and '-', tells the test's clusters apart. The test is
// skipped unless LocalClusters. Its NewDatabase gives migrated databases on it.
func StartCluster(tb testing.TB, name string) *Cluster {
	tb.Helper()
	requireLocalClusters(tb)
	instance := instanceName(tb, name)
	pruneOnce.Do(func() { pruneStale(tb) })
	out, port := runWithPort(tb, instance+" start", func(port int) []string {
		return []string{"ZAXY_PG_INSTANCE=" + instance, "ZAXY_PG_PORT=" + strconv.Itoa(port)}
	}, "start")
	tb.Cleanup(func() {
		if _, err := runClusterScript([]string{"ZAXY_PG_INSTANCE=" + instance}, "remove"); err != nil {
			tb.Errorf("remove cluster %s: %v", instance, err)
		}
	})
	admin := out["ZAXY_ADMIN_DATABASE_URL"]
	if admin == "" {
		tb.Fatalf("postgres.sh start (%s) printed no ZAXY_ADMIN_DATABASE_URL", instance)
	}
	return &Cluster{Name: instance, Port: port, AdminURL: admin}
}

// NewDatabase creates a migrated database on the cluster for this test, as the package's
// NewDatabase does on the default cluster, and drops it when the test ends.
func (c *Cluster) NewDatabase(tb testing.TB) *Database {
	tb.Helper()
	return newDatabase(tb, c.AdminURL)
}

// CurrentLSN returns the primary's current WAL write position (pg_current_wal_lsn): it has
// passed the commit of every transaction that has returned (synchronous_commit is on), and a
// standby whose replay position reaches it has applied them all. (The insert position,
// pg_current_wal_insert_lsn, is no target to wait for: when the last record ends at a page
// boundary it points past the next page's header, which replay reaches only with the next
// record.)
func (c *Cluster) CurrentLSN(tb testing.TB) string {
	tb.Helper()
	var lsn string
	queryOnce(tb, c.AdminURL, `SELECT pg_current_wal_lsn()::text`, &lsn)
	return lsn
}

// Stop stops the cluster (a fast shutdown: sessions are ended, nothing committed is lost) in
// the middle of a test, as a primary that fails would: connections to it fail from then on. Its
// data stays until the test ends, when it is removed with its databases (their own cleanup
// then only logs that it cannot reach them).
func (c *Cluster) Stop(tb testing.TB) {
	tb.Helper()
	if _, err := runClusterScript([]string{"ZAXY_PG_INSTANCE=" + c.Name}, "stop"); err != nil {
		tb.Fatalf("stop cluster %s: %v", c.Name, err)
	}
}

// StartStandby starts a streaming standby of primary for this test (postgres.sh replica
// start: pg_basebackup -R with a replication slot, hot_standby on) and removes it, slot
// included, when the test ends. The standby has every database of the primary, under the
// same names and roles; Database gives a database's URLs on it.
func StartStandby(tb testing.TB, primary *Cluster, opts StandbyOptions) *Standby {
	tb.Helper()
	requireLocalClusters(tb)
	instance := instanceName(tb, "standby")
	s := &Standby{Name: instance, Primary: primary, opts: opts}
	out, port := runWithPort(tb, instance+" replica start", func(port int) []string {
		return append(s.env(), "ZAXY_REPLICA_PORT="+strconv.Itoa(port), "ZAXY_REPLICA_APPLY_DELAY="+pgDuration(opts.ApplyDelay))
	}, "replica", "start")
	tb.Cleanup(func() {
		if _, err := runClusterScript(s.env(), "replica", "remove"); err != nil {
			tb.Errorf("remove standby %s: %v", instance, err)
		}
	})
	s.Port = port
	s.AdminURL = out["ZAXY_REPLICA_ADMIN_URL"]
	if s.AdminURL == "" {
		tb.Fatalf("postgres.sh replica start (%s) printed no ZAXY_REPLICA_ADMIN_URL", instance)
	}
	return s
}

func (s *Standby) env() []string {
	return []string{"ZAXY_PG_INSTANCE=" + s.Primary.Name, "ZAXY_PG_REPLICA=" + s.Name}
}

// Database returns the URLs of the primary's database d on the standby: the same names and
// roles, read-only.
func (s *Standby) Database(d *Database) *Database {
	return &Database{
		Name:     d.Name,
		AdminURL: withPort(d.AdminURL, s.Port),
		AppURL:   withPort(d.AppURL, s.Port),
	}
}

// Stop stops the standby (a fast shutdown) in the middle of a test: connections to it fail
// until Start (a pool's connections stay broken: Reset the pool after Start). Its slot keeps
// the primary's WAL for it.
func (s *Standby) Stop(tb testing.TB) {
	tb.Helper()
	if _, err := runClusterScript(s.env(), "replica", "stop"); err != nil {
		tb.Fatalf("stop standby %s: %v", s.Name, err)
	}
}

// Start starts a stopped standby again, on its port and with its apply delay; it catches up
// from where it stopped.
func (s *Standby) Start(tb testing.TB) {
	tb.Helper()
	env := append(s.env(), "ZAXY_REPLICA_PORT="+strconv.Itoa(s.Port), "ZAXY_REPLICA_APPLY_DELAY="+pgDuration(s.opts.ApplyDelay))
	if _, err := runClusterScript(env, "replica", "start"); err != nil {
		tb.Fatalf("start standby %s: %v", s.Name, err)
	}
}

// SetApplyDelay restarts the standby with recovery_min_apply_delay d, for the rest of the
// test (or the next SetApplyDelay). A restart, not a reload: after pg_reload_conf() the
// standby's startup process takes the new value only when it next looks, so a commit made just
// after could still be applied with the old delay; a restarted standby has it from the start.
func (s *Standby) SetApplyDelay(tb testing.TB, d time.Duration) {
	tb.Helper()
	s.Stop(tb)
	s.opts.ApplyDelay = d
	s.Start(tb)
}

// Promote promotes the standby to a primary (SELECT pg_promote(), which waits up to 60 s for
// the promotion to finish), as an HA tool (Patroni, pg_auto_failover) does when its primary
// fails: the standby ends recovery, starts a new timeline and accepts writes. It returns the
// position its new timeline starts from (pg_current_wal_lsn once promoted). The server stays on
// its port; the test's cleanup removes it as it would a standby.
func (s *Standby) Promote(tb testing.TB) string {
	tb.Helper()
	var promoted bool
	queryOnce(tb, s.AdminURL, `SELECT pg_promote(true, 60)`, &promoted)
	if !promoted {
		tb.Fatalf("promote standby %s: pg_promote did not finish within 60 s", s.Name)
	}
	var lsn string
	queryOnce(tb, s.AdminURL, `SELECT pg_current_wal_lsn()::text`, &lsn)
	return lsn
}

// ReplayLSN returns the standby's replay position (pg_last_wal_replay_lsn).
func (s *Standby) ReplayLSN(tb testing.TB) string {
	tb.Helper()
	var lsn string
	queryOnce(tb, s.AdminURL, `SELECT pg_last_wal_replay_lsn()::text`, &lsn)
	return lsn
}

// WaitReplay waits until the standby has replayed the primary's WAL up to lsn, polling
// pg_last_wal_replay_lsn. It fails the test when the position stops moving for two minutes
// (plus the apply delay) before reaching lsn, so a slow machine only makes it wait longer.
func (s *Standby) WaitReplay(tb testing.TB, lsn string) {
	tb.Helper()
	s.waitLSN(tb, "pg_last_wal_replay_lsn()", "replaying", lsn, 2*time.Minute+s.opts.ApplyDelay)
}

// WaitReceive waits until the standby has received (and flushed) the primary's WAL up to lsn,
// polling pg_last_wal_receive_lsn, whatever its apply delay: with a delay, what it received is
// not yet visible. It fails the test when the position stops moving for two minutes.
func (s *Standby) WaitReceive(tb testing.TB, lsn string) {
	tb.Helper()
	s.waitLSN(tb, "pg_last_wal_receive_lsn()", "receiving", lsn, 2*time.Minute)
}

// waitLSN polls the standby's position pos (an SQL expression) until it reaches lsn, failing
// the test once it has not moved for stall.
func (s *Standby) waitLSN(tb testing.TB, pos, doing, lsn string, stall time.Duration) {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, s.AdminURL)
	if err != nil {
		tb.Fatalf("connect to standby %s: %v", s.Name, err)
	}
	defer conn.Close(ctx)
	q := fmt.Sprintf(`SELECT coalesce(%[1]s >= $1::pg_lsn, false), coalesce(%[1]s::text, '')`, pos)
	last, moved := "", time.Now()
	for {
		var reached bool
		var at string
		if err := conn.QueryRow(ctx, q, lsn).Scan(&reached, &at); err != nil {
			tb.Fatalf("read %s on standby %s: %v", pos, s.Name, err)
		}
		if reached {
			return
		}
		if at != last {
			last, moved = at, time.Now()
		} else if time.Since(moved) > stall {
			tb.Fatalf("standby %s stopped %s at %s for %s, short of %s", s.Name, doing, at, stall, lsn)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// CatchUp waits until the standby has replayed everything the primary had committed when it
// was called (WaitReplay of the primary's CurrentLSN).
func (s *Standby) CatchUp(tb testing.TB) {
	tb.Helper()
	s.WaitReplay(tb, s.Primary.CurrentLSN(tb))
}

// instanceName is a name no other process uses: "t<pid>-<n>-<name>".
func instanceName(tb testing.TB, name string) string {
	tb.Helper()
	if !regexp.MustCompile(`^[a-z0-9-]{1,12}$`).MatchString(name) {
		tb.Fatalf("cluster name %q must be 1-12 of a-z, 0-9 and '-'", name)
	}
	return fmt.Sprintf("t%d-%d-%s", os.Getpid(), instanceSeq.Add(1), name)
}

// runWithPort runs postgres.sh with a free port from the test range, trying other ports while
// the one it picked turns out to be taken (another process may take it between the check and
// the start). It returns the script's KEY=value lines and the port.
func runWithPort(tb testing.TB, what string, env func(port int) []string, args ...string) (map[string]string, int) {
	tb.Helper()
	var lastErr error
	for range 8 {
		port := freePort()
		out, err := runClusterScript(env(port), args...)
		if err == nil {
			return out, port
		}
		lastErr = err
		if !strings.Contains(err.Error(), "in use") {
			break
		}
	}
	tb.Fatalf("%s: %v", what, lastErr)
	return nil, 0
}

// freePort picks a port in the test range that nothing listens on.
func freePort() int {
	for {
		port := testPortMin + rand.IntN(testPortMax-testPortMin)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			l.Close()
			return port
		}
	}
}

// runClusterScript runs postgres.sh with args and env on top of this process's environment,
// without the variables that would point it elsewhere (an external ZAXY_DATABASE_URL, another
// instance), and returns the KEY=value lines it printed.
func runClusterScript(env []string, args ...string) (map[string]string, error) {
	cmd := exec.Command("bash", append([]string{ScriptPath()}, args...)...)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "ZAXY_DATABASE_URL", name == "ZAXY_ADMIN_DATABASE_URL",
			strings.HasPrefix(name, "ZAXY_PG_") && name != "ZAXY_PG_CACHE",
			strings.HasPrefix(name, "ZAXY_REPLICA_"):
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Env = append(cmd.Env, "ZAXY_PG_OPTIONS="+clusterOptions,
		"ZAXY_PG_INITDB_OPTIONS=--no-sync", "ZAXY_PG_BASEBACKUP_OPTIONS=--no-sync")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("postgres.sh %s: %w: %s", strings.Join(args, " "), err, lastLines(stderr.String(), 8))
	}
	vals := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && strings.HasPrefix(k, "ZAXY_") {
			vals[k] = v
		}
	}
	return vals, nil
}

// pruneStale removes the instances of test processes that are gone (killed before their
// cleanup ran): their servers would otherwise run on, holding ports and memory.
func pruneStale(tb testing.TB) {
	tb.Helper()
	dirs, _ := filepath.Glob(filepath.Join(rootFS(), "var/lib/postgresql/zaxy-t*-data"))
	re := regexp.MustCompile(`/zaxy-(t([0-9]+)-[0-9]+-[a-z0-9-]+)-data$`)
	for _, dir := range dirs {
		m := re.FindStringSubmatch(dir)
		if m == nil {
			continue
		}
		pid, _ := strconv.Atoi(m[2])
		if pid == os.Getpid() || !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			continue
		}
		if _, err := runClusterScript([]string{"ZAXY_PG_INSTANCE=" + m[1]}, "remove"); err != nil {
			tb.Logf("remove the stale test cluster %s: %v", m[1], err)
		}
	}
}

// rootFS is postgres.sh's root filesystem.
func rootFS() string {
	cache := os.Getenv("ZAXY_PG_CACHE")
	if cache == "" {
		cache = "/var/cache/zaxy/pg17-trixie"
	}
	return filepath.Join(cache, "rootfs")
}

// runningPort reads the port of the cluster whose data directory is dir from its
// postmaster.pid, checking that its postmaster is alive.
func runningPort(dir string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 {
		return 0, fmt.Errorf("short postmaster.pid in %s", dir)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil {
		return 0, fmt.Errorf("read postmaster.pid in %s: %w", dir, err)
	}
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return 0, fmt.Errorf("postmaster %d of %s is gone", pid, dir)
	}
	return strconv.Atoi(strings.TrimSpace(lines[3]))
}

// pgDuration writes d as a Postgres time setting in milliseconds.
func pgDuration(d time.Duration) string {
	return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}

func withPort(dsn string, port int) string {
	u, err := url.Parse(dsn)
	if err != nil {
		panic(err)
	}
	u.Host = net.JoinHostPort(u.Hostname(), strconv.Itoa(port))
	return u.String()
}

func queryOnce(tb testing.TB, dsn, q string, dest ...any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatalf("connect: %v", err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, q).Scan(dest...); err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
