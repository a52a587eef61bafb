package graph

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The Cypher deadline. Inside one expression AGE never checks for interrupts, so a backend
// can run on past its statement timeout, and a request whose context ends would (with pgx's
// own cancellation) close its socket and return while its backend kept computing, freeing
// the caller's budget and leaving the work behind. On a pool, a query therefore runs on a
// context the request cannot cancel, and a watchdog ends its backend when the time is up: at
// the statement timeout plus cypherKillGrace, or when the request's context ends. It
// terminates the backend from a connection of its own (the service's role may signal its own
// backends), the query's pool connection is destroyed rather than returned, and Cypher
// returns only once pg_stat_activity no longer shows the backend.

// cypherKillGrace is how long past its statement timeout a query may run before its backend
// is ended: the timeout's own cancel, when the backend sees it, ends the query first.
const cypherKillGrace = 500 * time.Millisecond

// cypherGonePoll is how often the watchdog looks for the ended backend in pg_stat_activity.
const cypherGonePoll = 20 * time.Millisecond

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
	w := startWatchdog(ctx, pool, pid, p.Timeout+cypherKillGrace)
	err = runOnConn(qctx, c.Conn(), stmt, p, res)
	killed, killErr := w.finish()
	if !killed {
		c.Release()
		return err
	}
	// The backend was ended: its connection is gone too, and so is what it computed.
	_ = c.Conn().Close(qctx)
	c.Release()
	if killErr != nil {
		return fmt.Errorf("end the backend of a Cypher query past its deadline: %w", killErr)
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("run cypher: %w", ctxErr)
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

// watchdog ends one backend when its deadline passes or its request's context ends, unless
// finish comes first.
type watchdog struct {
	mu       sync.Mutex
	finished bool
	killing  bool
	done     chan error // the kill's outcome, once it was started
	stop     chan struct{}
}

func startWatchdog(ctx context.Context, pool *pgxpool.Pool, pid uint32, after time.Duration) *watchdog {
	w := &watchdog{done: make(chan error, 1), stop: make(chan struct{})}
	go func() {
		timer := time.NewTimer(after)
		defer timer.Stop()
		select {
		case <-w.stop:
			return
		case <-ctx.Done():
		case <-timer.C:
		}
		w.mu.Lock()
		if w.finished {
			w.mu.Unlock()
			return
		}
		w.killing = true
		w.mu.Unlock()
		w.done <- terminateBackend(pool, pid)
	}()
	return w
}

// finish stops the watchdog; if it had started ending the backend, it waits until the
// backend is gone and reports so.
func (w *watchdog) finish() (killed bool, err error) {
	w.mu.Lock()
	w.finished = true
	killing := w.killing
	w.mu.Unlock()
	close(w.stop)
	if !killing {
		return false, nil
	}
	return true, <-w.done
}

// terminateBackend ends backend pid from a connection of its own (made with pool's settings,
// so a busy pool cannot hold it up) and returns once pg_stat_activity no longer shows it.
func terminateBackend(pool *pgxpool.Pool, pid uint32) error {
	ctx := context.Background()
	conn, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close(ctx)
	var signalled bool
	if err := conn.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, int32(pid)).Scan(&signalled); err != nil {
		return fmt.Errorf("terminate backend %d: %w", pid, err)
	}
	for {
		var alive bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity WHERE pid = $1)`, int32(pid)).Scan(&alive); err != nil {
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
