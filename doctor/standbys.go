package doctor

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Standby is a streaming standby of the database for the standby check (zaxy serve's
// ZAXY_REPLICA_URLS).
type Standby struct {
	// Name tells it apart in the report (its host:port).
	Name string
	// Pool connects to it.
	Pool *pgxpool.Pool
}

// DefaultMaxStandbyLag is the lag past which the standby check warns when Options.MaxStandbyLag
// is zero.
const DefaultMaxStandbyLag = 30 * time.Second

// standbys checks each standby: reachable, in recovery, and how far its replay is behind the
// primary's WAL, in bytes and in time (now less the commit time of the last transaction it
// replayed, when it has not replayed everything the primary has written). Unreachable or not a
// standby fails; lagging past max warns (zaxy serve skips it for reads then).
func (r *Report) standbys(ctx context.Context, primary *pgxpool.Pool, standbys []Standby, maxLag time.Duration) {
	if maxLag <= 0 {
		maxLag = DefaultMaxStandbyLag
	}
	for _, st := range standbys {
		r.add(standbyCheck(ctx, primary, st, maxLag))
	}
}

func standbyCheck(ctx context.Context, primary *pgxpool.Pool, st Standby, maxLag time.Duration) Check {
	name := "standby " + st.Name
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var recovering, aurora bool
	var replay *string
	var replayedAt *time.Time
	err := st.Pool.QueryRow(ctx, `SELECT pg_is_in_recovery(), to_regproc('aurora_version') IS NOT NULL`).Scan(&recovering, &aurora)
	if err != nil {
		return Check{Name: name, Status: StatusFail, Message: "cannot reach it: " + err.Error(),
			Remedy: "start the standby or remove it from ZAXY_REPLICA_URLS; zaxy serve reads from the primary meanwhile"}
	}
	if aurora {
		return Check{Name: name, Status: StatusFail, Message: "is Aurora (aurora_version() exists): its replicas report no WAL replay position a consistency token can be checked against, so zaxy serve reads nothing from it",
			Remedy: "remove it from ZAXY_REPLICA_URLS (docs/scaling.md, Managed Postgres)"}
	}
	if !recovering {
		return Check{Name: name, Status: StatusFail, Message: "is not a standby (not in recovery): it may have been promoted",
			Remedy: "point ZAXY_DATABASE_URL at the promoted server and ZAXY_REPLICA_URLS at its standbys"}
	}
	err = st.Pool.QueryRow(ctx, `SELECT pg_last_wal_replay_lsn()::text, pg_last_xact_replay_timestamp()`).Scan(&replay, &replayedAt)
	if err != nil || replay == nil {
		why := "pg_last_wal_replay_lsn() is NULL"
		if err != nil {
			why = err.Error()
		}
		return Check{Name: name, Status: StatusFail, Message: "is in recovery but reports no replay position (" + why + "), so zaxy serve reads nothing from it",
			Remedy: "use a streaming standby that reports pg_last_wal_replay_lsn(), or remove it from ZAXY_REPLICA_URLS (docs/scaling.md, Managed Postgres)"}
	}
	var behind int64
	if err := primary.QueryRow(ctx, `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint`, *replay).Scan(&behind); err != nil {
		return Check{Name: name, Status: StatusFail, Message: "read the primary's WAL position: " + err.Error()}
	}
	if behind <= 0 {
		return Check{Name: name, Status: StatusOK, Message: fmt.Sprintf("replayed to %s: caught up with the primary", *replay)}
	}
	if replayedAt == nil {
		return Check{Name: name, Status: StatusOK, Message: fmt.Sprintf("replayed to %s: %d bytes behind the primary (no transaction replayed since it started)", *replay, behind)}
	}
	lag := time.Since(*replayedAt).Round(time.Millisecond)
	c := Check{Name: name, Status: StatusOK, Message: fmt.Sprintf("replayed to %s: %d bytes and %s behind the primary", *replay, behind, lag)}
	if lag > maxLag {
		c.Status = StatusWarn
		c.Remedy = fmt.Sprintf("its lag passes %s: zaxy serve reads from it only once it catches up (check its apply delay, network and load)", maxLag)
	}
	return c
}
