package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/eventloom"
)

// tailEvents is how many of each space's last events the chain check recomputes without
// --full.
const tailEvents = 1000

// chains verifies every space's hash chain: wholly with full, else its last tailEvents
// events (their hashes, their links and the chain head).
func (r *Report) chains(ctx context.Context, pool *pgxpool.Pool, full bool) {
	rows, err := queries.SpacesHeads(ctx, pool)
	if err != nil {
		r.add(Check{Name: "chains", Status: StatusFail, Message: err.Error()})
		return
	}
	type space struct {
		id   string
		head int64
	}
	spaces := make([]space, len(rows))
	for i, row := range rows {
		spaces[i] = space{id: row.SpaceID, head: row.HeadSeq}
	}
	store := eventloom.NewStore(pool, nil, nil)
	var broken []string
	for _, s := range spaces {
		var ok bool
		var why string
		if full {
			res, err := store.Verify(ctx, s.id)
			if err != nil {
				r.add(Check{Name: "chains", Status: StatusFail, Message: err.Error()})
				return
			}
			ok, why = res.OK, fmt.Sprintf("seq %d: %s", res.BrokenSeq, res.Reason)
		} else {
			ok, why, err = verifyTail(ctx, store, s.id, s.head)
			if err != nil {
				r.add(Check{Name: "chains", Status: StatusFail, Message: err.Error()})
				return
			}
		}
		if !ok {
			broken = append(broken, s.id+" ("+why+")")
		}
	}
	scope := fmt.Sprintf("the last %d events of each", tailEvents)
	if full {
		scope = "every event of each"
	}
	if len(broken) > 0 {
		r.add(Check{Name: "chains", Status: StatusFail,
			Message: fmt.Sprintf("%d of %d spaces have a broken chain: %s", len(broken), len(spaces), strings.Join(broken, "; ")),
			Remedy:  "find out who changed the log (it is append-only for the service); zaxy verify --space S names the seq; restore the space from backup"})
		return
	}
	r.add(Check{Name: "chains", Status: StatusOK, Message: fmt.Sprintf("%d spaces verified (%s)", len(spaces), scope)})
}

// verifyTail recomputes the hashes and links of a space's last tailEvents events and checks
// that the last one is the chain head.
func verifyTail(ctx context.Context, store *eventloom.Store, space string, head int64) (bool, string, error) {
	after := max(head-tailEvents-1, 0)
	var prev *eventloom.Event
	ok, why := true, ""
	err := store.ReplayAll(ctx, eventloom.ReplayParams{SpaceID: space, AfterSeq: after, Limit: 1000}, func(e *eventloom.Event) error {
		if !ok {
			return nil
		}
		switch {
		case prev != nil && e.Seq != prev.Seq+1:
			ok, why = false, fmt.Sprintf("seq %d: seq %d is missing", e.Seq, prev.Seq+1)
		case prev != nil && string(e.PrevHash) != string(prev.Hash):
			ok, why = false, fmt.Sprintf("seq %d: prev_hash does not match the previous event", e.Seq)
		case string(eventloom.ComputeHash(e.PrevHash, e)) != string(e.Hash):
			ok, why = false, fmt.Sprintf("seq %d: hash does not match the recomputed hash", e.Seq)
		}
		ev := *e
		prev = &ev
		return nil
	})
	if err != nil {
		return false, "", err
	}
	if ok && (prev == nil || prev.Seq != head) {
		last := int64(0)
		if prev != nil {
			last = prev.Seq
		}
		ok, why = false, fmt.Sprintf("the chain head is seq %d but the log ends at seq %d", head, last)
	}
	return ok, why, nil
}

// jobs reports River jobs that were discarded, are retrying, or look stuck.
func (r *Report) jobs(ctx context.Context, pool *pgxpool.Pool) {
	rows, err := queries.Jobs(ctx, pool)
	if err != nil {
		r.add(Check{Name: "jobs", Status: StatusFail, Message: err.Error()})
		return
	}
	problems := 0
	for _, row := range rows {
		problems++
		state := row.State
		msg := fmt.Sprintf("%d %s job(s) %s", row.Jobs, row.Kind, map[string]string{"discarded": "discarded after their retries", "retryable": "failing and retrying", "running": "running for over 15 minutes"}[state])
		if row.LastError != "" {
			msg += "; last error: " + row.LastError
		}
		c := Check{Name: "jobs", Status: StatusWarn, Message: msg}
		switch state {
		case "discarded":
			c.Status = StatusFail
			c.Remedy = "fix the cause, then retry them (river_job ids in the river_job table) or let the periodic sweep re-enqueue the work"
		case "running":
			c.Remedy = "check the workers' logs; River rescues stuck jobs after 15 minutes"
		default:
			c.Remedy = "check the error; embedding jobs fail while the provider is down and retry on their own"
		}
		r.add(c)
	}
	if problems == 0 {
		r.add(Check{Name: "jobs", Status: StatusOK, Message: "no failed, retrying or stuck jobs"})
	}
}
