package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/validation"
)

// The Cypher deadline and memory cap. Inside one expression AGE never checks for interrupts,
// so a backend can run on past its statement timeout, and a request whose context ends would
// (with pgx's own cancellation) close its socket and return while its backend kept computing,
// freeing the caller's budget and leaving the work behind. And between interrupts AGE grows a
// backend without a limit of its own: collect() keeps every row (~400 MB/s over a cartesian
// product) and agtype's comparisons leak ~700 bytes per sorted row (ORDER BY, DISTINCT inside
// an aggregate), neither bounded by work_mem. On a pool, a query therefore runs on a context
// the request cannot cancel, under a watchdog that ends its backend when the time is up (the
// statement timeout plus cypherKillGrace), when the request's context ends, or once the
// backend's private memory passes the cap: from cypherMemFirstCheck on, it reads that memory
// every cypherMemPoll (zaxy_backend_memory, migration 000052; where it cannot be read, time
// is the only bound). It works from a connection of its own (the service's role may signal
// and measure its own backends), the query's pool connection is destroyed rather than
// returned, and Cypher returns only once pg_stat_activity no longer shows the backend.

// cypherKillGrace is how long past its statement timeout a query may run before its backend
// is ended: the timeout's own cancel, when the backend sees it, ends the query first.
const cypherKillGrace = 500 * time.Millisecond

// cypherGonePoll is how often the watchdog looks for the ended backend in pg_stat_activity.
const cypherGonePoll = 20 * time.Millisecond

// cypherMemFirstCheck is when the watchdog first reads a running query's memory (most
// queries are done before it, and never cost the watchdog a connection).
const cypherMemFirstCheck = 100 * time.Millisecond

// cypherMemPoll is how often the watchdog reads the memory after that: at the fastest growth
// measured (~400 MB/s) a backend passes the cap by at most ~20 MB before it is seen.
const cypherMemPoll = 50 * time.Millisecond

// Why the watchdog ended a backend.
const (
	killDeadline = iota + 1 // the statement timeout plus cypherKillGrace passed
	killContext             // the request's context ended
	killMemory              // the backend's private memory passed the cap
)

// runOnPool runs the runner on a connection of pool in a read-only transaction that is
// rolled back, under the watchdog.
func runOnPool(ctx context.Context, pool *pgxpool.Pool, stmt string, p CypherParams, res *CypherResult) error {
	c, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire connection: %w", err)
	}
	pid := c.Conn().PgConn().PID()
	// The query's context: never cancelled by the request (the watchdog ends the backend).
	qctx := context.WithoutCancel(ctx)
	w := startWatchdog(ctx, pool, pid, p.Timeout+cypherKillGrace, cmp.Or(p.MaxMemory, DefaultCypherMaxMemory))
	err = runOnConn(qctx, c.Conn(), stmt, p, res)
	killed, killErr := w.finish()
	if killed == 0 {
		c.Release()
		return err
	}
	// The backend was ended: its connection is gone too, and so is what it computed.
	_ = c.Conn().Close(qctx)
	c.Release()
	if killErr != nil {
		return fmt.Errorf("end the backend of a Cypher query past its deadline or memory cap: %w", killErr)
	}
	switch killed {
	case killMemory:
		return &validation.Error{Field: "query", Message: fmt.Sprintf(
			"used more than %d MiB of database memory, so it was stopped (collect(), ORDER BY and DISTINCT hold every row they see: narrow the MATCH, or aggregate fewer rows)",
			cmp.Or(p.MaxMemory, DefaultCypherMaxMemory)>>20)}
	case killContext:
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("run cypher: %w", ctxErr)
		}
	}
	return fmt.Errorf("%w (%s; its backend was ended)", ErrQueryTimeout, p.Timeout)
}

// runOnConn loads AGE on conn and runs the runner in a read-only transaction it rolls back.
func runOnConn(ctx context.Context, conn *pgx.Conn, stmt string, p CypherParams, res *CypherResult) error {
	tx, done, err := beginCypher(ctx, conn)
	if err != nil {
		return err
	}
	defer done()
	return runInTx(ctx, tx, stmt, p, res)
}

// watchdog ends one backend when its deadline passes, its request's context ends or its
// memory passes the cap, unless finish comes first.
type watchdog struct {
	mu       sync.Mutex
	finished bool
	killed   int        // why it started ending the backend (0: it did not)
	done     chan error // the kill's outcome, once it was started
	stop     chan struct{}
}

func startWatchdog(ctx context.Context, pool *pgxpool.Pool, pid uint32, after time.Duration, maxMemory int64) *watchdog {
	w := &watchdog{done: make(chan error, 1), stop: make(chan struct{})}
	go w.watch(ctx, pool, pid, after, maxMemory)
	return w
}

// watch waits for the first of: finish, the request's context, the deadline and the memory
// cap; in the last three cases it ends the backend.
func (w *watchdog) watch(ctx context.Context, pool *pgxpool.Pool, pid uint32, after time.Duration, maxMemory int64) {
	var conn *pgx.Conn // the watchdog's own connection, made at the first memory check
	defer func() {
		if conn != nil {
			_ = conn.Close(context.Background())
		}
	}()
	deadline := time.NewTimer(after)
	defer deadline.Stop()
	memTimer := time.NewTimer(cypherMemFirstCheck)
	defer memTimer.Stop()
	mem := memTimer.C
	why := 0
	for why == 0 {
		select {
		case <-w.stop:
			return
		case <-ctx.Done():
			why = killContext
		case <-deadline.C:
			why = killDeadline
		case <-mem:
			if conn == nil {
				c, err := connectLike(pool)
				if err != nil {
					mem = nil // no memory watch for this query; the deadline still holds
					continue
				}
				conn = c
			}
			used, err := queries.BackendMemory(context.Background(), conn, int32(pid))
			switch {
			case err != nil || used < 0:
				mem = nil // not readable here (see migration 000052): time is the only bound
			case used > maxMemory:
				why = killMemory
			default:
				memTimer.Reset(cypherMemPoll)
			}
		}
	}
	w.mu.Lock()
	if w.finished {
		w.mu.Unlock()
		return
	}
	w.killed = why
	w.mu.Unlock()
	if conn == nil {
		c, err := connectLike(pool)
		if err != nil {
			w.done <- err
			return
		}
		conn = c
	}
	w.done <- terminateBackend(conn, pid)
}

// finish stops the watchdog; if it had started ending the backend, it waits until the
// backend is gone and reports why it ended it.
func (w *watchdog) finish() (killed int, err error) {
	w.mu.Lock()
	w.finished = true
	killed = w.killed
	w.mu.Unlock()
	close(w.stop)
	if killed == 0 {
		return 0, nil
	}
	return killed, <-w.done
}

// connectLike opens a connection with pool's settings, outside the pool, so a busy pool
// cannot hold the watchdog up.
func connectLike(pool *pgxpool.Pool) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(context.Background(), pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	return conn, nil
}

// terminateBackend ends backend pid from conn and returns once pg_stat_activity no longer
// shows it.
func terminateBackend(conn *pgx.Conn, pid uint32) error {
	ctx := context.Background()
	signalled, err := queries.BackendTerminate(ctx, conn, int32(pid))
	if err != nil {
		return fmt.Errorf("terminate backend %d: %w", pid, err)
	}
	for {
		alive, err := queries.BackendAlive(ctx, conn, int32(pid))
		if err != nil {
			return fmt.Errorf("look for backend %d: %w", pid, err)
		}
		if !alive {
			return nil
		}
		if !signalled {
			return errors.New("backend " + fmt.Sprint(pid) + " could not be signalled")
		}
		time.Sleep(cypherGonePoll)
	}
}
