package replica

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
)

// After a failover the promoted primary writes a new timeline that branches from the old one
// where its recovery ended. A standby that had replayed more of the old primary's WAL than that
// point cannot follow the new timeline (an HA tool rewinds or copies it again), yet it stays in
// recovery at a position the new timeline reaches with other WAL: comparing positions alone, it
// would seem to cover tokens of writes it does not have. So a standby whose last restartpoint is
// on an older timeline than the primary's serves reads only once it has been seen to replay
// past where it stood when that was first noticed: a standby that follows the new primary does
// so with the primary's next write; one cut off from it never does.

// timelineCheck is what the health loop knows of a standby's timeline.
type timelineCheck struct {
	mu sync.Mutex
	// proven is the primary timeline the standby was shown to follow (0: none).
	proven uint32
	// checking is the primary timeline it is being checked against, and from its replay
	// position from.
	checking uint32
	from     LSN
}

// follows reports whether a standby at replay position l whose last restartpoint is on
// timeline standbyTLI may serve reads of a primary on primaryTLI (0: unknown, in which case
// there is nothing to check). started reports a check that began with this call, proved one
// that ended.
func (c *timelineCheck) follows(primaryTLI, standbyTLI uint32, l LSN) (ok, started, proved bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case primaryTLI == 0 || standbyTLI == 0:
		return true, false, false
	case standbyTLI >= primaryTLI:
		c.proven = primaryTLI
		return true, false, false
	case c.proven == primaryTLI:
		return true, false, false
	case c.checking != primaryTLI:
		c.checking, c.from = primaryTLI, l
		return false, true, false
	case l > c.from:
		c.proven = primaryTLI
		return true, false, true
	}
	return false, false, false
}

// primaryTimeline reads the timeline the primary writes (from the name of its current WAL
// file).
func primaryTimeline(ctx context.Context, pool *pgxpool.Pool) (uint32, error) {
	var name string
	if err := pool.QueryRow(ctx, `SELECT pg_walfile_name(pg_current_wal_lsn())`).Scan(&name); err != nil {
		return 0, fmt.Errorf("read the primary's timeline: %w", err)
	}
	if len(name) < 8 {
		return 0, fmt.Errorf("read the primary's timeline: WAL file name %q", name)
	}
	tli, err := strconv.ParseUint(name[:8], 16, 32)
	if err != nil {
		return 0, fmt.Errorf("read the primary's timeline: WAL file name %q: %w", name, err)
	}
	return uint32(tli), nil
}

// standbyTimeline reads the timeline of a standby's last restartpoint
// (pg_control_checkpoint()).
func standbyTimeline(ctx context.Context, pool *pgxpool.Pool) (uint32, error) {
	var tli int64
	if err := pool.QueryRow(ctx, `SELECT timeline_id FROM pg_control_checkpoint()`).Scan(&tli); err != nil {
		return 0, fmt.Errorf("read the standby's timeline: %w", err)
	}
	return uint32(tli), nil
}
