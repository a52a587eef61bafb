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

// sessionParams are the settings of a lease connection. Its server-side TCP keepalives: a host that
// vanishes without closing its sockets (power loss, a partition) has its locks released after
// about idle + interval × count = 25 seconds instead of the operating system's two hours.
//
// plan_cache_mode force_generic_plan plans each statement once per connection: planning
// take.sql anew (Postgres's custom plans) costs more than running it. idle_session_timeout 0:
// a lease connection idles while a long request holds its slots, and must not be ended for it
// whatever the server's or the role's setting.
var sessionParams = map[string]string{"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3",
	"plan_cache_mode": "force_generic_plan", "idle_session_timeout": "0"}

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
	gen  atomic.Uint64 // counts the connections this lease has had; changed only while held
	held map[string][]int32

	// pending are the slots holders gave back that are still locked: the next statement on
	// the connection unlocks them first (a take carries them in the same round trip), and
	// flushing says a goroutine is on its way to do it when no take comes first.
	pendMu   sync.Mutex
	pending  []pendingSlot
	flushing bool
}

// pendingSlot is a slot given back but not yet unlocked, of connection generation gen.
type pendingSlot struct {
	gen    uint64
	budget string
	slot   int32
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

// The hand-written statements (sql/slotlock/handwritten), each queued through the typed
// wrapper below.
var (
	qTake    = zsql.Query("slotlock/take")
	qRelease = zsql.Query("slotlock/release")
)

// takeArgs are take.sql's parameters: take N free slots of Budget, whose slots are 0 to
// Limit-1, skipping Held (the slots this session already holds).
type takeArgs struct {
	Budget string
	Limit  int
	N      int
	Held   []int32
}

// queueTake queues take.sql on b; its one row is the slots taken (none when fewer than N
// were free).
func queueTake(b *pgx.Batch, a takeArgs) {
	b.Queue(qTake, a.Budget, a.Limit, a.N, a.Held)
}

// releaseArgs are release.sql's parameters: give back slot Slots[i] of budget Budgets[i].
type releaseArgs struct {
	Budgets []string
	Slots   []int32
}

// queueRelease queues release.sql on b; its one row is how many of the slots were held.
func queueRelease(b *pgx.Batch, a releaseArgs) {
	b.Queue(qRelease, a.Budgets, a.Slots)
}

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
	for k, v := range sessionParams {
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
	c.gen.Add(1)
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
	c.gen.Add(1)
}

// Ask is one budget's slots asked of TakeAll: N slots (at least 1, at most Limit) of Budget,
// whose slots are 0 to Limit-1.
type Ask struct {
	Budget   string
	Limit, N int
}

// Take takes n slots of budget, whose slots are 0 to limit-1, all or none: nil when fewer
// than n are free in every process together.
func (l *Locks) Take(ctx context.Context, budget string, limit, n int) (*Hold, error) {
	h, err := l.TakeAll(ctx, Ask{Budget: budget, Limit: limit, N: n})
	if err != nil {
		return nil, err
	}
	return h[0], nil
}

// TakeAll takes the slots of each ask, each all or none, in one round trip: holds[i] is nil
// when ask i could not be met. The asks name different budgets. ctx bounds the wait for a
// lease connection; the statements themselves run to completion (bounded by
// Config.StatementTimeout), since a statement cut short would cost its connection. The round
// trip also unlocks the slots given back on its connection since the last one.
func (l *Locks) TakeAll(ctx context.Context, asks ...Ask) ([]*Hold, error) {
	c, err := l.pick(ctx)
	if err != nil {
		return nil, fmt.Errorf("take budget slot: %w", err)
	}
	defer c.done()
	got := make([][]int32, len(asks))
	err = l.run(c, func(b *pgx.Batch, skip map[string][]int32) func(pgx.BatchResults) error {
		for _, a := range asks {
			queueTake(b, takeArgs{Budget: a.Budget, Limit: a.Limit, N: min(max(a.N, 1), max(a.Limit, 1)), Held: skip[a.Budget]})
		}
		return func(br pgx.BatchResults) error {
			for i := range asks {
				if err := br.QueryRow().Scan(&got[i]); err != nil {
					return err
				}
			}
			return nil
		}
	})
	if err != nil {
		return nil, fmt.Errorf("take budget slot: %w", err)
	}
	holds := make([]*Hold, len(asks))
	for i, a := range asks {
		if len(got[i]) == 0 {
			continue
		}
		c.held[a.Budget] = append(c.held[a.Budget], got[i]...)
		holds[i] = &Hold{locks: l, c: c, gen: c.gen.Load(), budget: a.Budget, slots: got[i]}
	}
	return holds, nil
}

// run sends, in one round trip on c (which the caller holds), the unlock of c's pending
// slots and then the statement queue adds, if any; queue sees the held slots without the
// ones being unlocked. It forgets c's connection when the batch fails.
func (l *Locks) run(c *leaseConn, queue func(*pgx.Batch, map[string][]int32) func(pgx.BatchResults) error) error {
	c.pendMu.Lock()
	pending := c.pending
	c.pending, c.flushing = nil, false
	c.pendMu.Unlock()
	gen := c.gen.Load()
	var budgets []string
	var slots []int32
	for _, p := range pending {
		if p.gen != gen {
			continue // its session is gone, and the lock with it
		}
		budgets, slots = append(budgets, p.budget), append(slots, p.slot)
		held := c.held[p.budget]
		if i := slices.Index(held, p.slot); i >= 0 {
			held = slices.Delete(held, i, i+1)
		}
		if len(held) == 0 {
			delete(c.held, p.budget)
		} else {
			c.held[p.budget] = held
		}
	}
	b := &pgx.Batch{}
	if len(budgets) > 0 {
		queueRelease(b, releaseArgs{Budgets: budgets, Slots: slots})
	}
	var read func(pgx.BatchResults) error
	if queue != nil {
		read = queue(b, c.held)
	}
	if b.Len() == 0 {
		return nil
	}
	sctx, cancel := context.WithTimeout(context.Background(), l.limit)
	defer cancel()
	br := c.conn.SendBatch(sctx, b)
	var err error
	if len(budgets) > 0 {
		var n int64
		err = br.QueryRow().Scan(&n)
	}
	if err == nil && read != nil {
		err = read(br)
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		l.broke(c, err)
	}
	return err
}

// Release gives the slots back without waiting: they are unlocked by the next statement on
// their lease connection, at once by a goroutine when none is under way. A hold whose lease
// connection broke since has nothing left to give back. Calling it again does nothing.
func (h *Hold) Release() {
	if h == nil {
		return
	}
	h.once.Do(h.release)
}

func (h *Hold) release() {
	c := h.c
	c.pendMu.Lock()
	for _, s := range h.slots {
		c.pending = append(c.pending, pendingSlot{gen: h.gen, budget: h.budget, slot: s})
	}
	start := !c.flushing
	c.flushing = true
	c.pendMu.Unlock()
	if start {
		go h.locks.flush(c)
	}
}

// flush unlocks c's pending slots, waiting for c.
func (l *Locks) flush(c *leaseConn) {
	if err := l.use(context.Background(), c); err != nil {
		return // closed, or the connection is gone: so are its locks
	}
	defer c.done()
	_ = l.run(c, nil)
}

// Flush unlocks every slot given back so far, waiting for the lease connections: what
// Release leaves to the next statement happens now.
func (l *Locks) Flush() {
	for _, c := range l.conns {
		l.flush(c)
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
