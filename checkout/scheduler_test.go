package checkout

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeLane is a lane of a test plan: it records the results of the lanes it runs after as it
// saw them when it started.
type fakeLane struct {
	id     string
	deps   []string
	follow string
	why    string
	items  []string
	err    error

	mu   *sync.Mutex
	seen map[string][]string
}

func (f fakeLane) name() string    { return f.id }
func (f fakeLane) after() []string { return f.deps }

func (f fakeLane) run(_ context.Context, in *laneInput) laneResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, d := range f.deps {
		f.seen[f.id] = append(f.seen[f.id], in.result(d).items...)
	}
	f.seen[f.id] = append(f.seen[f.id], "ran")
	return laneResult{name: f.id, items: f.items, err: f.err}
}

type fakeGated struct{ fakeLane }

func (f fakeGated) unavailable(*laneInput) string { return f.why }

type fakeFollower struct{ fakeLane }

func (f fakeFollower) follows() string { return f.follow }

// TestRunLanes_StartsEachLaneAfterItsDependenciesAndReportsTheOffOnes runs a plan of fake lanes:
// a lane reads the results of the lanes it runs after, a lane the request disables, one weighed
// 0 and an unavailable one are off with their texts, a lane following an off lane is off, and
// one following a failed lane neither runs nor reports.
func TestRunLanes_StartsEachLaneAfterItsDependenciesAndReportsTheOffOnes(t *testing.T) {
	mu, seen := &sync.Mutex{}, map[string][]string{}
	mk := func(id string, deps ...string) fakeLane {
		return fakeLane{id: id, deps: deps, items: []string{"fact:" + id}, mu: mu, seen: seen}
	}
	failing := mk("failing")
	failing.err = errors.New("boom")
	afterOff, afterFailed := fakeFollower{mk("after-off", "zero")}, fakeFollower{mk("after-failed", "failing")}
	afterOff.follow, afterFailed.follow = "zero", "failing"
	gated := fakeGated{mk("gated")}
	gated.why = "not here"
	plan := []lane{mk("c", "a", "b"), mk("b", "a"), mk("a"), mk("zero"), mk("disabled"), gated, failing, afterOff, afterFailed}
	in := &laneInput{req: &Request{SpaceID: "s", DisableLanes: []string{"disabled"}}, results: map[string]laneResult{},
		weigh: func(lane string) float64 {
			if lane == "zero" {
				return 0
			}
			return 1
		}}
	results, offs := runLanes(context.Background(), in, plan, newEventPrefetch(context.Background(), itemFetch{}))

	var names []string
	for _, r := range results {
		names = append(names, r.name)
	}
	require.Equal(t, []string{"a", "b", "c", "failing"}, names, "the lanes that ran, in name order")
	require.Equal(t, []string{"fact:a", "ran"}, seen["b"])
	require.Equal(t, []string{"fact:a", "fact:b", "ran"}, seen["c"])
	require.Equal(t, map[string]LaneStat{
		"zero":      {Off: true},
		"disabled":  {Off: true},
		"gated":     {Off: true, Error: "not here"},
		"after-off": {Off: true, Error: "the zero lane is off"},
	}, offs)
	require.NotContains(t, seen, "after-failed")
}

// TestLanePlan_DeclaresTheLanesDependencies pins the plan: the graph lane after the exact lane,
// PPR after the exact and vector lanes, reply and remedy following the keyword lane, the keyword
// and verbatim lanes after the watermark step, and every lane of Lanes in it once.
func TestLanePlan_DeclaresTheLanesDependencies(t *testing.T) {
	after := map[string][]string{}
	for _, l := range lanePlan {
		require.NotContains(t, after, l.name())
		after[l.name()] = l.after()
	}
	require.Equal(t, map[string][]string{
		LaneExact: nil, LaneGraph: {LaneExact}, LaneVector: nil, LanePPR: {LaneExact, LaneVector},
		laneWatermark: nil, LaneKeyword: {laneWatermark}, LaneReply: {LaneKeyword}, LaneRemedy: {LaneKeyword},
		LaneVerbatim: {laneWatermark}, LaneRecent: nil, LaneTopic: nil,
	}, after)
	for _, name := range Lanes {
		require.Contains(t, after, name)
	}
	require.Equal(t, LaneKeyword, replyLane{}.follows())
	require.Equal(t, LaneKeyword, remedyLane{}.follows())
	require.Equal(t, LaneKeyword, watermarkStep{}.serves())
}
