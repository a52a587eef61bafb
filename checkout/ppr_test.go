package checkout_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
)

// entityID is the id of the entity with the given key in a space.
func entityID(t *testing.T, f *fixture, space, key string) string {
	t.Helper()
	var id string
	require.NoError(t, f.pool.QueryRow(context.Background(),
		`SELECT entity_id FROM entities WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND key = $2`, space, key).Scan(&id))
	return id
}

// withPPR is the fixture's service with the PPR lane on at weight 0.5 (it is off by default).
func withPPR(f *fixture) *checkout.Service {
	return checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), PPRWeight: 0.5})
}

// seedPPRSpace: the query names Ana Ruiz; one note links her to Atlas, another links Atlas to a
// move that shares no word with the query.
func seedPPRSpace(t *testing.T, f *fixture, space string) {
	f.append(t, space,
		msg("s1", "user", "Yesterday Ana Ruiz joined the Atlas team."),
		msg("s2", "user", "Last week the Atlas launch moved to the Kestrel datacenter in June."),
		msg("s3", "user", "We ordered pizza for the offsite."),
		msg("s4", "user", "The weather was rainy all week."),
	)
	f.index(t, space)
}

func TestQuery_PPRReachesAnItemTwoHopsAwayThatNoOtherLaneFinds(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "ppr"
	seedPPRSpace(t, f, space)
	// The vector lane would rank every item of so small a space; the topic and recent lanes
	// rank by session, not by the query. Without them, only the PPR lane can reach ev:2.
	others := []string{checkout.LaneVector, checkout.LaneTopic, checkout.LaneRecent}
	query := "What is Ana Ruiz working on?"
	svc := withPPR(f)
	without, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, DisableLanes: append(slices.Clone(others), checkout.LanePPR)})
	require.NoError(t, err)
	require.Equal(t, 1, placeOf(without, "ev:1"), "the exact lane finds the note naming her")
	require.Zero(t, placeOf(without, "ev:2"), "no other lane finds the note two hops away")

	with, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, DisableLanes: others})
	require.NoError(t, err)
	require.Empty(t, with.Lanes[checkout.LanePPR].Error)
	require.False(t, with.Lanes[checkout.LanePPR].Off)
	at := placeOf(with, "ev:2")
	require.NotZero(t, at, "the walk reaches Ana Ruiz → ev:1 → Atlas → ev:2")
	require.Equal(t, []string{checkout.LanePPR}, mapKeys(with.Items[at-1].Components))
	require.Zero(t, placeOf(with, "ev:3"), "the walk does not reach unrelated notes")

	// The ablation switch turns it off and says so.
	require.True(t, without.Lanes[checkout.LanePPR].Off)

	// By default the lane is weighted 0: it does not run, and the ranking is the one without it.
	def, err := f.svc.Query(ctx, &checkout.Request{SpaceID: space, Query: query, DisableLanes: others})
	require.NoError(t, err)
	require.True(t, def.Lanes[checkout.LanePPR].Off)
	require.Zero(t, placeOf(def, "ev:2"))
	require.Equal(t, len(without.Items), len(def.Items))
}

func mapKeys(m map[string]checkout.Component) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestPPR_RespectsItsNodeBudget(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	space := "budget"
	// Atlas is mentioned by 40 notes, each naming a team of its own, each team by 3 more notes.
	var evs []eventloom.NewEvent
	for i := range 40 {
		evs = append(evs, msg("s1", "user", fmt.Sprintf("Yesterday the Atlas project gained Team%s as owner.", teamName(i))))
		for j := range 3 {
			evs = append(evs, msg("s2", "user", fmt.Sprintf("On day %d Team%s shipped a fix.", j+1, teamName(i))))
		}
	}
	f.append(t, space, evs...)
	f.index(t, space)
	atlas := entityID(t, f, space, "atlas")

	for _, budget := range []int{1, 10, 50, 200} {
		nodes, items, err := f.svc.PPRNeighbourhood(ctx, space, []string{atlas}, budget)
		require.NoError(t, err)
		require.LessOrEqual(t, len(nodes), budget, "budget %d", budget)
		require.Contains(t, nodes, atlas, "the seed is always in")
		if budget == 200 {
			require.Greater(t, len(nodes), 50, "a larger budget loads more")
			require.NotEmpty(t, items)
		}
	}
	// Unbounded by the budget, the fan-out per entity still caps the walk.
	nodes, _, err := f.svc.PPRNeighbourhood(ctx, space, []string{atlas}, 100000)
	require.NoError(t, err)
	require.Equal(t, 1+20+20+20*3, len(nodes), "Atlas, 20 (the fan-out) of its 40 notes, their teams and the teams' other notes")
}

// teamName is a distinct capitalized word for i (TeamA, TeamB, ..., TeamAB, ...).
func teamName(i int) string {
	s := ""
	for i >= 0 {
		s = string(rune('A'+i%26)) + s
		i = i/26 - 1
	}
	return s
}

func TestPPR_NeverCrossesSpaces(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	seedPPRSpace(t, f, "mine")
	// Another space, with the same names at the same seqs and many more notes about them.
	var evs []eventloom.NewEvent
	evs = append(evs, msg("s1", "user", "Yesterday Ana Ruiz joined the Atlas team."))
	for i := range 30 {
		evs = append(evs, msg("s1", "user", fmt.Sprintf("Note %d: Ana Ruiz and Kestrel planned the Atlas rollout with Orion.", i)))
	}
	f.append(t, "theirs", evs...)
	f.index(t, "theirs")

	var mine []string
	rows, err := f.pool.Query(ctx, `SELECT item_id FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = 'mine')`)
	require.NoError(t, err)
	for rows.Next() {
		var id string
		require.NoError(t, rows.Scan(&id))
		mine = append(mine, id)
	}
	require.NoError(t, rows.Err())

	res, err := withPPR(f).Query(ctx, &checkout.Request{SpaceID: "mine", Query: "What is Ana Ruiz working on?",
		DisableLanes: []string{checkout.LaneVector, checkout.LaneTopic, checkout.LaneRecent}})
	require.NoError(t, err)
	require.Positive(t, res.Lanes[checkout.LanePPR].Count)
	for _, it := range res.Items {
		require.Contains(t, mine, it.ItemID)
		require.NotContains(t, it.Text, "rollout", "no text of the other space")
	}
	nodes, _, err := f.svc.PPRNeighbourhood(ctx, "mine", []string{entityID(t, f, "mine", "ana ruiz")}, 1000)
	require.NoError(t, err)
	for _, n := range nodes {
		if strings.HasPrefix(n, "ev:") || strings.HasPrefix(n, "fact:") {
			require.Contains(t, mine, n)
			continue
		}
		var space string
		require.NoError(t, f.pool.QueryRow(ctx, `SELECT s.space_id FROM entities e JOIN spaces s USING (space_key) WHERE e.entity_id = $1`, n).Scan(&space))
		require.Equal(t, "mine", space, n)
	}
}
