package placement_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/placement"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/spacelog"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/validation"
)

// site is one "cluster" of a test: a database of its own, as the owner, and the application's
// store on it.
type site struct {
	placement.Site
	store *eventloom.Store
}

func newSite(t *testing.T, name string) site {
	t.Helper()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	admin := db.AdminPool(t)
	proj, err := projection.New(ctx, admin, projection.Config{})
	require.NoError(t, err)
	builder, err := latent.NewBuilder(ctx, admin, eventloom.NewStore(admin, nil, nil), latent.Config{})
	require.NoError(t, err)
	client, err := jobs.NewInsertOnlyClient(admin, nil)
	require.NoError(t, err)
	app := db.AppPool(t)
	return site{Site: placement.Site{Name: name, DB: admin, Projector: proj, Latent: builder, Outbox: jobs.NewOutbox(client)},
		store: eventloom.NewStore(app, nil, nil)}
}

func mover(home, b site) *placement.Mover {
	clusters := []placement.Cluster{{Name: home.Name, URL: "home", Weight: 1}, {Name: b.Name, URL: "b", Weight: 1}}
	return &placement.Mover{Directory: placement.NewDirectory(home.DB, clusters),
		Sites: map[string]placement.Site{home.Name: home.Site, b.Name: b.Site}}
}

func appendN(t *testing.T, s site, space string, from, n int) {
	t.Helper()
	events := make([]eventloom.NewEvent, 0, n)
	for i := from; i < from+n; i++ {
		events = append(events, eventloom.NewEvent{Type: "message", Actor: "user",
			Content: fmt.Sprintf("Maya Lin moved service %d to region %d", i%7, i%3), Data: []byte(`{"role":"user"}`)})
	}
	_, err := s.store.Append(context.Background(), &eventloom.AppendParams{SpaceID: space, Events: events})
	require.NoError(t, err)
}

func count(t *testing.T, pool *pgxpool.Pool, q string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, pool.QueryRow(context.Background(), q, args...).Scan(&n))
	return n
}

// A space that lived on home since before ZAXY_CLUSTERS is placed where its log is and moved:
// the target holds the same chain and projections, the directory names it, the source refuses
// appends until Finish drops everything of the space there (its other spaces untouched), and a
// second move, a move to where it is and a move of an unknown space are refused with reasons.
func TestMover_MovesPinsAndFinishes(t *testing.T) {
	ctx := context.Background()
	home, b := newSite(t, "home"), newSite(t, "b")
	m := mover(home, b)
	appendN(t, home, "s", 0, 300)
	appendN(t, home, "other", 0, 10)

	res, err := m.Move(ctx, "s", "b")
	require.NoError(t, err)
	require.Equal(t, int64(300), res.Events)
	require.False(t, res.Resumed)
	p, ok, err := m.Directory.Lookup(ctx, "s")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, placement.Placement{SpaceID: "s", Cluster: "b", Pinned: true, MovedFrom: "home", PlacedAt: p.PlacedAt, MovedAt: p.MovedAt}, p)
	sum, err := b.Projector.Checksum(ctx, "s")
	require.NoError(t, err)
	require.Equal(t, res.Checksum, sum.Digest)
	_, err = home.store.Append(ctx, &eventloom.AppendParams{SpaceID: "s", Events: []eventloom.NewEvent{{Type: "note", Content: "late"}}})
	require.ErrorIs(t, err, eventloom.ErrSpaceMoving)
	appendN(t, b, "s", 300, 5) // appends go on where it lives

	_, err = m.Move(ctx, "s", "home")
	require.ErrorIs(t, err, validation.ErrInvalid)
	require.ErrorContains(t, err, "--finish")
	_, err = m.Move(ctx, "s", "b")
	require.ErrorContains(t, err, "moved to \"b\" already")
	_, err = m.Move(ctx, "nowhere", "b")
	require.ErrorContains(t, err, "no events on any cluster")
	_, err = m.Move(ctx, "s", "mars")
	require.ErrorContains(t, err, `no cluster "mars"`)

	key := count(t, home.DB, "SELECT space_key FROM spaces WHERE space_id = 's'")
	require.Equal(t, 300, count(t, home.DB, "SELECT count(*) FROM memory_items WHERE space_key = $1", key))
	require.Positive(t, count(t, home.DB, "SELECT count(*) FROM entities WHERE space_key = $1", key))
	fin, err := m.Finish(ctx, "s")
	require.NoError(t, err)
	require.Equal(t, int64(300), fin.Events)
	for _, table := range []string{"events", "spaces", "projection_watermarks", "space_freezes"} {
		require.Zero(t, count(t, home.DB, "SELECT count(*) FROM "+table+" WHERE space_id = 's'"), table)
	}
	for _, table := range []string{"memory_items", "term_stats", "entities", "facts", "mentions", "gate_keys"} { // keyed by spaces.space_key
		require.Zero(t, count(t, home.DB, "SELECT count(*) FROM "+table+" WHERE space_key = $1", key), table)
	}
	require.Equal(t, 10, count(t, home.DB, "SELECT count(*) FROM events WHERE space_id = 'other'"))
	require.Equal(t, 305, count(t, b.DB, "SELECT count(*) FROM events WHERE space_id = 's'"))
	_, err = m.Finish(ctx, "s")
	require.ErrorContains(t, err, "no copy left by a move")
	// Its log now gone from home, the space can move back there.
	res, err = m.Move(ctx, "s", "home")
	require.NoError(t, err)
	require.Equal(t, int64(305), res.Events)
}

// A move whose target holds a copy older than an erasure recorded on the source since (an
// earlier attempt's copy, then the erasure, then the move run again) copies the whole log
// again: the erased text is nowhere on the target. Abandoning a move drops its copy and lets
// appends resume on the source.
func TestMover_CopiesWholeAfterAnErasureAndAbandons(t *testing.T) {
	ctx := context.Background()
	home, b := newSite(t, "home"), newSite(t, "b")
	m := mover(home, b)
	appendN(t, home, "e", 0, 20)
	_, err := home.store.Append(ctx, &eventloom.AppendParams{SpaceID: "e", Events: []eventloom.NewEvent{{Type: "message", Actor: "user",
		Content: "my card is 4111 1111 1111 1111", Data: []byte(`{"role":"user"}`)}}})
	require.NoError(t, err)

	// An earlier attempt: the directory names b and b holds a copy up to seq 21.
	_, err = home.DB.Exec(ctx, `INSERT INTO space_placements (space_id, cluster, moving_to) VALUES ('e', 'home', 'b')`)
	require.NoError(t, err)
	var file bytes.Buffer
	_, err = spacelog.Export(ctx, home.DB, &file, "e")
	require.NoError(t, err)
	_, err = spacelog.Import(ctx, b.DB, &file, spacelog.ImportParams{Space: "e"})
	require.NoError(t, err)
	require.Equal(t, 1, count(t, b.DB, "SELECT count(*) FROM events WHERE space_id = 'e' AND content LIKE '%4111%'"))
	// Then the erasure, and more appends.
	_, err = home.DB.Exec(ctx, `SELECT zaxy_erase('e', 21, 'a card number', 'ops')`)
	require.NoError(t, err)
	appendN(t, home, "e", 21, 5)

	res, err := m.Move(ctx, "e", "b")
	require.NoError(t, err)
	require.True(t, res.Resumed)
	require.Equal(t, int64(27), res.Events)
	require.Zero(t, count(t, b.DB, "SELECT count(*) FROM events WHERE space_id = 'e' AND content LIKE '%4111%'"))
	require.Zero(t, count(t, b.DB, "SELECT count(*) FROM memory_items i JOIN events x ON x.space_id = 'e' AND x.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = 'e') AND coalesce(i.text, x.content) LIKE '%4111%'"))
	require.Equal(t, 1, count(t, b.DB, "SELECT count(*) FROM events WHERE space_id = 'e' AND seq = 21 AND erased_by_seq IS NOT NULL"))

	// Abandon: a move begun and copied, given up: the copy goes, appends resume on home.
	appendN(t, home, "a", 0, 30)
	_, err = home.DB.Exec(ctx, `INSERT INTO space_placements (space_id, cluster, moving_to) VALUES ('a', 'home', 'b')`)
	require.NoError(t, err)
	file.Reset()
	_, err = spacelog.Export(ctx, home.DB, &file, "a")
	require.NoError(t, err)
	_, err = spacelog.Import(ctx, b.DB, &file, spacelog.ImportParams{Space: "a"})
	require.NoError(t, err)
	_, err = home.DB.Exec(ctx, `SELECT zaxy_space_freeze('a', 'b')`)
	require.NoError(t, err)
	require.NoError(t, m.Abandon(ctx, "a"))
	require.Zero(t, count(t, b.DB, "SELECT count(*) FROM events WHERE space_id = 'a'"))
	appendN(t, home, "a", 30, 1)
	p, _, err := m.Directory.Lookup(ctx, "a")
	require.NoError(t, err)
	require.Equal(t, "home", p.Cluster)
	require.Empty(t, p.MovingTo)
	require.ErrorContains(t, m.Abandon(ctx, "a"), "not being moved")
}

// Adopt pins the spaces a cluster holds and the directory does not know to that cluster, and
// leaves placed ones alone.
func TestDirectory_AdoptPinsUnplacedSpacesWhereTheirLogIs(t *testing.T) {
	ctx := context.Background()
	home, b := newSite(t, "home"), newSite(t, "b")
	m := mover(home, b)
	appendN(t, b, "old-on-b", 0, 3)
	appendN(t, b, "placed", 0, 3)
	_, err := m.Directory.Place(ctx, "placed", "home", true)
	require.NoError(t, err)
	n, err := m.Directory.Adopt(ctx, "b", b.DB)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	for space, want := range map[string]string{"old-on-b": "b", "placed": "home"} {
		p, ok, err := m.Directory.Lookup(ctx, space)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, want, p.Cluster, space)
	}
	n, err = m.Directory.Adopt(ctx, "b", b.DB)
	require.NoError(t, err)
	require.Zero(t, n)
}
