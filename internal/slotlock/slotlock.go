// Package slotlock keeps budgets that every process on one database shares. A budget of
// limit slots is limit session-level advisory locks; a process holds a slot while one of its
// lease connections holds that lock. A process that dies loses its connections and Postgres
// releases their locks with them, so a killed instance gives its slots back at once, with no
// lease to expire and nothing to clean up.
package slotlock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	zsql "github.com/zaxy/zaxy/sql"
)

// Defaults of Config.
const (
	// DefaultConns is how many lease connections a process opens.
	DefaultConns = 4
	// DefaultStatementTimeout bounds one take or release on a lease connection.
	DefaultStatementTimeout = 5 * time.Second
)

// keepalive are the server-side TCP keepalive settings of a lease connection: a host that
// vanishes without closing its sockets (power loss, a partition) has its locks released after
// about idle + interval × count = 25 seconds instead of the operating system's two hours.
var keepalive = map[string]string{"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"}

// Config configures Open.
type Config struct {
	// Conns is how many lease connections to open. Defaults to DefaultConns.
	Conns int
	// StatementTimeout bounds one take or release; a statement that passes it costs its
	// connection (and every slot the connection held). Defaults to DefaultStatementTimeout.
	StatementTimeout time.Duration
	// Logger receives a warning when a lease connection breaks. Defaults to discarding.
	Logger *slog.Logger
}

// Locks takes and gives back slots of shared budgets through a few lease connections of its
// own, outside any pool: a connection must stay with its process for as long as it holds a
// slot, and must not be one a pooler (PgBouncer in transaction mode) hands to others.
type Locks struct {
	cfg    *pgx.ConnConfig
	conns  []*leaseConn
	next   atomic.Uint32
	closed atomic.Bool
	limit  time.Duration
	logger *slog.Logger
}

// leaseConn is one lease connection and the slots its session holds.
type leaseConn struct {
	lock chan struct{} // a one-slot semaphore: whoever sends into it uses the connection
	conn *pgx.Conn     // nil until first used, and after it broke
	gen  uint64        // counts the connections this lease has had
	held map[string][]int32
}

// Hold is slots of one budget taken by Take; Release gives them back.
type Hold struct {
	locks  *Locks
	c      *leaseConn
	gen    uint64
	budget string
	slots  []int32
	once   sync.Once
}

var (
	qTake    = zsql.Query("slotlock/take")
	qRelease = zsql.Query("slotlock/release")
)

// Open returns Locks on the database at connString (the pool parameters a URL may carry are
// ignored) and opens its lease connections, named application_name zaxy-budget unless the URL
// names one.
func Open(ctx context.Context, connString string, cfg Config) (*Locks, error) {
	pc, err := pgxpool.ParseConfig(connString)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	cc := pc.ConnConfig
	if _, set := cc.RuntimeParams["application_name"]; !set {
		cc.RuntimeParams["application_name"] = "zaxy-budget"
	}
	for k, v := range keepalive {
		if _, set := cc.RuntimeParams[k]; !set {
			cc.RuntimeParams[k] = v
		}
	}
	if cfg.Conns <= 0 {
		cfg.Conns = DefaultConns
	}
	if cfg.StatementTimeout <= 0 {
		cfg.StatementTimeout = DefaultStatementTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	l := &Locks{cfg: cc, limit: cfg.StatementTimeout, logger: cfg.Logger}
	for range cfg.Conns {
		c := &leaseConn{lock: make(chan struct{}, 1), held: map[string][]int32{}}
		l.conns = append(l.conns, c)
		if err := l.connect(ctx, c); err != nil {
			l.Close()
			return nil, err
		}
	}
	return l, nil
}

// connect opens c's connection; c is held.
func (l *Locks) connect(ctx context.Context, c *leaseConn) error {
	conn, err := pgx.ConnectConfig(ctx, l.cfg)
	if err != nil {
		return fmt.Errorf("open budget lease connection: %w", err)
	}
	c.conn, c.held = conn, map[string][]int32{}
	c.gen++
	return nil
}

// pick takes the first idle lease connection, starting from the next in turn, or waits for
// that one (or ctx's end) when none is idle; done gives it back.
func (l *Locks) pick(ctx context.Context) (*leaseConn, error) {
	start := int(l.next.Add(1))
	for i := range l.conns {
		c := l.conns[(start+i)%len(l.conns)]
		select {
		case c.lock <- struct{}{}:
			return c, l.ready(ctx, c)
		default:
		}
	}
	c := l.conns[start%len(l.conns)]
	return c, l.use(ctx, c)
}

// use waits for c (or ctx's end) and makes sure it has a connection; done gives it back.
func (l *Locks) use(ctx context.Context, c *leaseConn) error {
	select {
	case c.lock <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	return l.ready(ctx, c)
}

// ready makes sure c, which the caller holds, has a connection; on an error c is given back.
func (l *Locks) ready(ctx context.Context, c *leaseConn) error {
	if l.closed.Load() {
		<-c.lock
		return ErrClosed
	}
	if c.conn == nil || c.conn.IsClosed() {
		if err := l.connect(ctx, c); err != nil {
			<-c.lock
			return err
		}
	}
	return nil
}

func (c *leaseConn) done() { <-c.lock }

// broke forgets c's connection after err, and with it every slot it held (its session is
// gone, or will be once closed, which releases the locks); c is held.
func (l *Locks) broke(c *leaseConn, err error) {
	l.logger.Warn("budget lease connection lost; its slots are released", "error", err, "slots", len(c.held))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = c.conn.Close(ctx)
	c.conn, c.held = nil, map[string][]int32{}
}

// Take takes n slots of budget, whose slots are 0 to limit-1, all or none: nil when fewer
// than n are free in every process together. n is at least 1 and at most limit. ctx bounds
// the wait for a lease connection; the statement itself runs to completion (bounded by
// Config.StatementTimeout), since a statement cut short would cost its connection.
func (l *Locks) Take(ctx context.Context, budget string, limit, n int) (*Hold, error) {
	n = min(max(n, 1), max(limit, 1))
	c, err := l.pick(ctx)
	if err != nil {
		return nil, fmt.Errorf("take budget slot: %w", err)
	}
	defer c.done()
	sctx, cancel := context.WithTimeout(context.Background(), l.limit)
	defer cancel()
	var slots []int32
	if err := c.conn.QueryRow(sctx, qTake, budget, limit, n, c.held[budget]).Scan(&slots); err != nil {
		l.broke(c, err)
		return nil, fmt.Errorf("take budget slot: %w", err)
	}
	if len(slots) < n {
		return nil, nil
	}
	c.held[budget] = append(c.held[budget], slots...)
	return &Hold{locks: l, c: c, gen: c.gen, budget: budget, slots: slots}, nil
}

// Release gives the slots back. A hold whose lease connection broke since has nothing left
// to give back. Calling it again does nothing.
func (h *Hold) Release() {
	if h == nil {
		return
	}
	h.once.Do(h.release)
}

func (h *Hold) release() {
	l, c := h.locks, h.c
	if err := l.use(context.Background(), c); err != nil {
		return // the connection broke: its slots went with it
	}
	defer c.done()
	if c.gen != h.gen {
		return
	}
	sctx, cancel := context.WithTimeout(context.Background(), l.limit)
	defer cancel()
	var n int64
	if err := c.conn.QueryRow(sctx, qRelease, h.budget, h.slots).Scan(&n); err != nil {
		l.broke(c, err)
		return
	}
	held := c.held[h.budget]
	for _, s := range h.slots {
		if i := slices.Index(held, s); i >= 0 {
			held = slices.Delete(held, i, i+1)
		}
	}
	if len(held) == 0 {
		delete(c.held, h.budget)
	} else {
		c.held[h.budget] = held
	}
}

// Slots are the slot numbers the hold took.
func (h *Hold) Slots() []int32 { return slices.Clone(h.slots) }

// ErrClosed is Take's error after Close.
var ErrClosed = errors.New("slotlock: closed")

// Close closes the lease connections, which releases every slot they hold.
func (l *Locks) Close() {
	l.closed.Store(true)
	for _, c := range l.conns {
		c.lock <- struct{}{}
		if c.conn != nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_ = c.conn.Close(ctx)
			cancel()
		}
		c.conn = nil
		<-c.lock
	}
}
