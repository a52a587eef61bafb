package replica

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrAurora is why an Aurora replica serves no reads: it shares the writer's storage volume and
// reports its lag through aurora_replica_status(), not as a WAL replay position on the scale of
// the writer's pg_current_wal_lsn(), so a token cannot be checked against it.
var ErrAurora = errors.New("read replay position: the server is Aurora (aurora_version() exists), whose replicas report no WAL replay position a consistency token can be checked against; remove it from ZAXY_REPLICA_URLS")

// Defaults of Config.
const (
	// DefaultWait is how long a read with a token waits for a standby to reach it before it
	// reads the primary.
	DefaultWait = 200 * time.Millisecond
	// DefaultMaxLag is how far behind the primary a standby may be before reads without a
	// token skip it.
	DefaultMaxLag = 30 * time.Second
	// DefaultHealthInterval is how often the health loop measures each standby.
	DefaultHealthInterval = time.Second
	// pollInterval is how often a read waiting for a token asks the standby its position.
	pollInterval = 10 * time.Millisecond
)

// Config tunes a Set.
type Config struct {
	// Wait bounds how long a read with a token waits for a standby (DefaultWait when zero).
	Wait time.Duration
	// MaxLag is the lag past which a standby is skipped (DefaultMaxLag when zero).
	MaxLag time.Duration
	// HealthInterval is the health loop's period (DefaultHealthInterval when zero).
	HealthInterval time.Duration
	// Logger logs a standby going down or coming back; nil discards.
	Logger *slog.Logger
	// Cluster names the primary's cluster in the tokens the set gives (ZAXY_CLUSTERS); a read
	// with a token of another cluster is served by the primary.
	Cluster string
}

func (c Config) withDefaults() Config {
	if c.Wait == 0 {
		c.Wait = DefaultWait
	}
	if c.MaxLag == 0 {
		c.MaxLag = DefaultMaxLag
	}
	if c.HealthInterval == 0 {
		c.HealthInterval = DefaultHealthInterval
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Standby is one standby of a Set.
type Standby struct {
	// Name tells it apart in logs and doctor's report (its host:port).
	Name string
	// Pool connects to it.
	Pool *pgxpool.Pool
	// replay is the last replay position measured (by the health loop or a waiting read).
	replay atomic.Uint64
	// up is whether its last measurement succeeded and it is in recovery.
	up atomic.Bool
	// lagNanos is its last measured lag behind the primary.
	lagNanos atomic.Int64
	// unproven is whether its last restartpoint is on an older timeline than the primary's and it
	// has not yet been seen following the primary's (timeline.go): it serves no reads meanwhile.
	unproven atomic.Bool
	// timeline is the health loop's check of its timeline.
	timeline timelineCheck
}

// Replay is the standby's last measured replay position.
func (s *Standby) Replay() LSN { return LSN(s.replay.Load()) }

// Up reports whether the standby answered its last measurement as a standby.
func (s *Standby) Up() bool { return s.up.Load() }

// Lag is the standby's last measured lag: how long ago the oldest write it has not yet
// replayed was seen on the primary (0 when it has replayed everything the primary had).
func (s *Standby) Lag() time.Duration { return time.Duration(s.lagNanos.Load()) }

// observe raises the measured replay position to l (positions only move forward).
func (s *Standby) observe(l LSN) {
	for {
		old := s.replay.Load()
		if uint64(l) <= old || s.replay.CompareAndSwap(old, uint64(l)) {
			return
		}
	}
}

// Stats count how reads were routed.
type Stats struct {
	// Primary and Replica count the reads each served.
	Primary, Replica uint64
	// Waits counts the reads with a token that waited for a healthy standby to reach it (a read
	// with no healthy standby goes to the primary at once).
	Waits uint64
	// Fallbacks counts the reads with a token that no standby reached in time, so the primary
	// served them.
	Fallbacks uint64
}

// Set is a primary and its standbys. Its methods are safe for concurrent use.
type Set struct {
	primary  *pgxpool.Pool
	standbys []*Standby
	cfg      Config
	// next turns the standbys reads start their search at.
	next atomic.Uint64
	// primaryN, replicaN, waits and fallbacks are Stats.
	primaryN, replicaN, waits, fallbacks atomic.Uint64
	// primaryTLI is the primary's timeline as last measured (0: unknown).
	primaryTLI atomic.Uint32
	// samples are the primary's recent WAL positions, oldest first, for measuring lag.
	mu      sync.Mutex
	samples []sample
}

// sample is the primary's WAL position at a time.
type sample struct {
	at  time.Time
	lsn LSN
}

// NewSet returns a Set of primary and standbys (none: every read goes to the primary). Run
// its health loop with Run; until the first measurement every standby counts as down.
func NewSet(primary *pgxpool.Pool, standbys []*Standby, cfg Config) *Set {
	return &Set{primary: primary, standbys: standbys, cfg: cfg.withDefaults()}
}

// Primary is the primary's pool.
func (s *Set) Primary() *pgxpool.Pool { return s.primary }

// Standbys are the set's standbys.
func (s *Set) Standbys() []*Standby { return s.standbys }

// Enabled reports whether the set has standbys.
func (s *Set) Enabled() bool { return s != nil && len(s.standbys) > 0 }

// Stats are the counts of reads routed so far.
func (s *Set) Stats() Stats {
	return Stats{Primary: s.primaryN.Load(), Replica: s.replicaN.Load(), Waits: s.waits.Load(), Fallbacks: s.fallbacks.Load()}
}

// Token reads the primary's current WAL position (pg_current_wal_lsn) as the token of the
// writes that have committed. It is not the insert position: when the last record ends at a
// page boundary, that points past the next page's header, which a standby reaches only with
// the next record.
func (s *Set) Token(ctx context.Context) (Token, error) {
	var text string
	if err := s.primary.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&text); err != nil {
		return Token{}, fmt.Errorf("read wal position: %w", err)
	}
	l, err := ParseLSN(text)
	if err != nil {
		return Token{}, err
	}
	return Token{Cluster: s.cfg.Cluster, LSN: l}, nil
}

// Choice is where a read runs.
type Choice struct {
	// Pool is the pool to read from.
	Pool *pgxpool.Pool
	// Standby is the standby Pool connects to; nil for the primary.
	Standby *Standby
}

// From is the Choice's ReadFromHeader value.
func (c Choice) From() string {
	if c.Standby != nil {
		return FromReplica
	}
	return FromPrimary
}

// Pick chooses where a read runs. Without standbys it is the primary at once. With a token, it
// is a healthy standby whose measured replay position has reached it; when none has, it waits
// (at most Config.Wait, polling the most advanced healthy standby's position) for one to reach
// it, and otherwise answers the primary. Without a token it is any healthy standby (in turn),
// or the primary when none is. A standby is healthy when its last measurement succeeded and its
// lag is at most Config.MaxLag.
func (s *Set) Pick(ctx context.Context, t Token) Choice {
	if len(s.standbys) == 0 {
		return Choice{Pool: s.primary}
	}
	if !t.IsZero() && t.Cluster != s.cfg.Cluster {
		s.fallbacks.Add(1)
		return s.count(Choice{Pool: s.primary})
	}
	if c, ok := s.pickCovering(t); ok {
		return s.count(c)
	}
	if t.IsZero() {
		return s.count(Choice{Pool: s.primary})
	}
	if c, ok := s.wait(ctx, t); ok {
		return s.count(c)
	}
	s.fallbacks.Add(1)
	return s.count(Choice{Pool: s.primary})
}

func (s *Set) count(c Choice) Choice {
	if c.Standby != nil {
		s.replicaN.Add(1)
	} else {
		s.primaryN.Add(1)
	}
	return c
}

// healthy reports whether reads may use st.
func (s *Set) healthy(st *Standby) bool {
	return st.Up() && st.Lag() <= s.cfg.MaxLag && !st.unproven.Load()
}

// pickCovering returns a healthy standby whose measured position has reached t, taking them in
// turn so reads spread over the standbys.
func (s *Set) pickCovering(t Token) (Choice, bool) {
	n := uint64(len(s.standbys))
	start := s.next.Add(1)
	for i := range n {
		st := s.standbys[(start+i)%n]
		if s.healthy(st) && st.Replay() >= t.LSN {
			return Choice{Pool: st.Pool, Standby: st}, true
		}
	}
	return Choice{}, false
}

// wait polls the most advanced healthy standby's replay position until it reaches t, for at
// most Config.Wait.
func (s *Set) wait(ctx context.Context, t Token) (Choice, bool) {
	var best *Standby
	for _, st := range s.standbys {
		if s.healthy(st) && (best == nil || st.Replay() > best.Replay()) {
			best = st
		}
	}
	if best == nil {
		return Choice{}, false
	}
	s.waits.Add(1)
	// The deadline is checked between polls rather than set on the poll's context: a poll cut
	// off mid-query would cost the pool its connection.
	deadline := time.Now().Add(s.cfg.Wait)
	for {
		l, err := replayLSN(ctx, best.Pool)
		if err != nil {
			return Choice{}, false
		}
		best.observe(l)
		if l >= t.LSN {
			return Choice{Pool: best.Pool, Standby: best}, true
		}
		left := time.Until(deadline)
		if left <= 0 {
			return Choice{}, false
		}
		timer := time.NewTimer(min(pollInterval, left))
		select {
		case <-ctx.Done():
			timer.Stop()
			return Choice{}, false
		case <-timer.C:
		}
	}
}

// replayLSN asks a standby its replay position. Every answer but a WAL replay position of a
// streaming standby is an error, so reads never run on a server whose position cannot be
// compared with the primary's tokens: a server not in recovery (never was, or was promoted: its
// replay position then stays where recovery ended), one in recovery that reports no replay
// position (pg_last_wal_replay_lsn() NULL), one where that function fails, and Aurora
// (ErrAurora).
func replayLSN(ctx context.Context, pool *pgxpool.Pool) (LSN, error) {
	var text *string
	var recovering, aurora bool
	if err := pool.QueryRow(ctx, `SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text, to_regproc('aurora_version') IS NOT NULL`).
		Scan(&recovering, &text, &aurora); err != nil {
		return 0, fmt.Errorf("read replay position: %w", err)
	}
	switch {
	case aurora:
		return 0, ErrAurora
	case !recovering:
		return 0, errors.New("read replay position: the server is not a standby (not in recovery)")
	case text == nil:
		return 0, errors.New("read replay position: the server is in recovery but reports no replay position (pg_last_wal_replay_lsn() is NULL), so no token can be checked on it")
	}
	return ParseLSN(*text)
}

// Run measures the standbys every Config.HealthInterval until ctx ends. Without standbys it
// returns at once.
func (s *Set) Run(ctx context.Context) {
	if len(s.standbys) == 0 {
		return
	}
	tick := time.NewTicker(s.cfg.HealthInterval)
	defer tick.Stop()
	for {
		s.Measure(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Measure takes one measurement: the primary's position and timeline, then each standby's
// replay position, lag and timeline. A standby that does not answer within the health interval
// is marked down; one on an older timeline serves no reads until it is seen following the
// primary's (timeline.go).
func (s *Set) Measure(ctx context.Context) {
	now := time.Now()
	if t, err := s.Token(ctx); err == nil {
		s.mu.Lock()
		if len(s.samples) == 0 || s.samples[len(s.samples)-1].lsn != t.LSN {
			s.samples = append(s.samples, sample{at: now, lsn: t.LSN})
		}
		s.mu.Unlock()
	}
	if tli, err := primaryTimeline(ctx, s.primary); err == nil {
		s.primaryTLI.Store(tli)
	}
	var wg sync.WaitGroup
	for _, st := range s.standbys {
		wg.Go(func() { s.measure(ctx, st) })
	}
	wg.Wait()
	s.trim()
}

func (s *Set) measure(ctx context.Context, st *Standby) {
	ctx, cancel := context.WithTimeout(ctx, max(s.cfg.HealthInterval, time.Second))
	defer cancel()
	l, err := replayLSN(ctx, st.Pool)
	if err != nil {
		if st.up.Swap(false) {
			s.cfg.Logger.Warn("standby down: reads go elsewhere", "standby", st.Name, "error", err)
		}
		return
	}
	st.observe(l)
	st.lagNanos.Store(int64(s.lagOf(l, time.Now())))
	primaryTLI := s.primaryTLI.Load()
	standbyTLI, _ := standbyTimeline(ctx, st.Pool) // 0, nothing to check, when it cannot be read
	ok, started, proved := st.timeline.follows(primaryTLI, standbyTLI, l)
	st.unproven.Store(!ok)
	if started {
		s.cfg.Logger.Warn("standby on an older timeline than the primary: no reads from it until it replays past its position",
			"standby", st.Name, "replay_lsn", l.String(), "standby_timeline", standbyTLI, "primary_timeline", primaryTLI)
	}
	if proved {
		s.cfg.Logger.Info("standby follows the primary's timeline", "standby", st.Name, "replay_lsn", l.String(), "primary_timeline", primaryTLI)
	}
	if !st.up.Swap(true) {
		s.cfg.Logger.Info("standby up", "standby", st.Name, "replay_lsn", l.String())
	}
}

// lagOf is how long ago the oldest primary position past l was sampled (0 when l has reached
// every sample).
func (s *Set) lagOf(l LSN, now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sm := range s.samples {
		if sm.lsn > l {
			return now.Sub(sm.at)
		}
	}
	return 0
}

// trim drops the samples every standby has passed, keeping the latest (and at most 10,000).
func (s *Set) trim() {
	low := LSN(^uint64(0))
	for _, st := range s.standbys {
		low = min(low, st.Replay())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := 0
	for i < len(s.samples)-1 && s.samples[i].lsn <= low {
		i++
	}
	if n := len(s.samples) - i; n > 10000 {
		i = len(s.samples) - 10000
	}
	s.samples = s.samples[i:]
}

// Failed marks st down after a read failed on it for want of a connection: reads skip it
// until the health loop reaches it again.
func (s *Set) Failed(st *Standby) {
	if st.up.Swap(false) {
		s.cfg.Logger.Warn("standby down: reads go elsewhere", "standby", st.Name)
	}
}

// Fallback is the Choice of the primary for a read that failed on a standby: it counts as a
// fallback and as a read from the primary rather than the standby.
func (s *Set) Fallback() Choice {
	s.fallbacks.Add(1)
	s.replicaN.Add(^uint64(0))
	return s.count(Choice{Pool: s.primary})
}
