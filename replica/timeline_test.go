package replica

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// The check of a standby's timeline: nothing to check when either timeline is unknown or the
// standby's is current; otherwise no reads until it replays past where it stood when the check
// began, and from then on for that primary timeline.
func TestTimelineCheck_FollowsOnceItReplaysPastWhereItStood(t *testing.T) {
	var c timelineCheck
	ok, started, proved := c.follows(0, 1, 100)
	require.True(t, ok)
	ok, _, _ = c.follows(2, 0, 100)
	require.True(t, ok, "a standby timeline that cannot be read is not checked")
	ok, _, _ = c.follows(1, 1, 100)
	require.True(t, ok)

	ok, started, proved = c.follows(2, 1, 100)
	require.False(t, ok)
	require.True(t, started)
	require.False(t, proved)
	ok, started, _ = c.follows(2, 1, 100)
	require.False(t, ok, "standing still proves nothing")
	require.False(t, started)
	ok, _, proved = c.follows(2, 1, 101)
	require.True(t, ok)
	require.True(t, proved)
	ok, _, proved = c.follows(2, 1, 101)
	require.True(t, ok, "proven for the primary's timeline")
	require.False(t, proved)

	ok, started, _ = c.follows(3, 2, 200)
	require.False(t, ok, "a later failover checks again")
	require.True(t, started)
	ok, _, _ = c.follows(3, 3, 200)
	require.True(t, ok, "a restartpoint on the primary's timeline settles it")
}

// A failover leaves a standby behind on the old timeline, ahead of the promoted one: it had
// received WAL the promoted standby never did. The new primary's next writes get tokens below
// that standby's replay position, so comparing positions alone would serve a read with such a
// token from a standby that does not have the write. The health loop sees the standby's
// timeline is older than the primary's and that it does not move, and reads go to the primary.
func TestMeasure_AStandbyLeftOnTheOldTimelineServesNoReadsOfTheNewPrimary(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := testcontainers.StartCluster(t, "tlprimary")
	db := primary.NewDatabase(t)
	next := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	ahead := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	old := eventloom.NewStore(db.AppPool(t), nil, nil)
	const space = "timeline"
	appendN := func(store *eventloom.Store, n int, text string) {
		for b := 0; b < n; b += 100 {
			batch := make([]eventloom.NewEvent, min(100, n-b))
			for i := range batch {
				batch[i] = eventloom.NewEvent{Type: "note", Content: fmt.Sprintf("%s %d %s", text, b+i, strings.Repeat("x", 400))}
			}
			_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: batch})
			require.NoError(t, err)
		}
	}
	appendN(old, 10, "both standbys have")
	next.CatchUp(t)
	ahead.CatchUp(t)

	// WAL only one standby receives: the one that will be promoted is stopped, then comes back
	// cut off from the primary (its slot dropped), and is promoted when the primary fails.
	next.Stop(t)
	appendN(old, 2000, "only the standby left ahead has")
	ahead.CatchUp(t)
	var dropped int
	conn, err := pgx.Connect(ctx, primary.AdminURL)
	require.NoError(t, err)
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(pg_drop_replication_slot(slot_name)) FROM pg_replication_slots WHERE NOT active`).Scan(&dropped))
	conn.Close(ctx)
	require.Equal(t, 1, dropped)
	next.Start(t)
	primary.Stop(t)
	next.Promote(t)

	newPrimary := next.Database(db).AppPool(t)
	aheadPool := ahead.Database(db).AppPool(t)
	var logs bytes.Buffer
	st := &Standby{Name: "ahead", Pool: aheadPool}
	set := NewSet(newPrimary, []*Standby{st}, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	set.Measure(ctx)

	_, err = eventloom.NewStore(newPrimary, nil, nil).Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{{Type: "note", Content: "written on the new primary"}}})
	require.NoError(t, err)
	tok, err := set.Token(ctx)
	require.NoError(t, err)
	set.Measure(ctx)
	set.Measure(ctx)
	require.True(t, st.Up(), "the standby answers as a standby")
	require.Less(t, tok.LSN, st.Replay(), "the new primary's token is below the old-timeline standby's position")
	var onAhead int
	require.NoError(t, aheadPool.QueryRow(ctx, `SELECT count(*) FROM events WHERE space_id = $1 AND content = 'written on the new primary'`, space).Scan(&onAhead))
	require.Zero(t, onAhead, "the standby left ahead does not have the write")

	c := set.Pick(ctx, tok)
	require.Nil(t, c.Standby, "a read with the new primary's token is served by the primary")
	require.Same(t, newPrimary, c.Pool)
	require.Nil(t, set.Pick(ctx, Token{}).Standby, "nor is a read without a token served by it")
	require.Contains(t, logs.String(), "standby on an older timeline than the primary")
}
