package doctor_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestDoctor_ReportsEachStandbysLag: a standby that has replayed everything is ok and says so;
// one applying each commit an hour late, after a write, is reported behind the primary in bytes
// and warned once its lag passes the limit; a stopped one fails as unreachable.
func TestDoctor_ReportsEachStandbysLag(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := testcontainers.StartCluster(t, "doctorstb")
	db := primary.NewDatabase(t)
	pool := db.AppPool(t)
	caught := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{})
	delayed := testcontainers.StartStandby(t, primary, testcontainers.StandbyOptions{ApplyDelay: time.Hour})
	standbys := []doctor.Standby{{Name: "caught", Pool: caught.Database(db).AppPool(t)}, {Name: "delayed", Pool: delayed.Database(db).AppPool(t)}}

	// A transaction both replay, so the delayed one has a replay time, then one it holds back.
	_, err := eventloom.NewStore(pool, nil, nil).Append(ctx, &eventloom.AppendParams{SpaceID: "lag", Events: []eventloom.NewEvent{{Type: "note", Content: "one"}}})
	require.NoError(t, err)
	delayed.SetApplyDelay(t, 0)
	standbys[1].Pool.Reset()
	delayed.CatchUp(t)
	delayed.SetApplyDelay(t, time.Hour)
	standbys[1].Pool.Reset()
	_, err = eventloom.NewStore(pool, nil, nil).Append(ctx, &eventloom.AppendParams{SpaceID: "lag", Events: []eventloom.NewEvent{{Type: "note", Content: "two"}}})
	require.NoError(t, err)
	lsn := primary.CurrentLSN(t)
	caught.WaitReplay(t, lsn)
	delayed.WaitReceive(t, lsn)

	r := doctor.Run(ctx, pool, doctor.Options{Standbys: standbys, MaxStandbyLag: time.Millisecond})
	c := check(t, r, "standby caught")
	require.Equal(t, doctor.StatusOK, c.Status, c.Message)
	require.Contains(t, c.Message, "caught up")
	c = check(t, r, "standby delayed")
	require.Equal(t, doctor.StatusWarn, c.Status, c.Message)
	require.Contains(t, c.Message, "bytes and")

	caught.Stop(t)
	r = doctor.Run(ctx, pool, doctor.Options{Standbys: standbys})
	c = check(t, r, "standby caught")
	require.Equal(t, doctor.StatusFail, c.Status, c.Message)
	require.Contains(t, c.Message, "cannot reach")
	require.False(t, r.OK)
}
