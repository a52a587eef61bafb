package placement

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/validation"
)

const homeURL = "postgres://zaxy@127.0.0.1:54329/zaxy"

func TestParseClusters_PutsHomeFirstAndReadsWeights(t *testing.T) {
	cs, err := ParseClusters("b=postgres://x@h2/zaxy, c=postgres://x@h3/zaxy", "c=2,home=0.5", homeURL)
	require.NoError(t, err)
	require.Equal(t, []Cluster{{Name: "home", URL: homeURL, Weight: 0.5}, {Name: "b", URL: "postgres://x@h2/zaxy", Weight: 1},
		{Name: "c", URL: "postgres://x@h3/zaxy", Weight: 2}}, cs)
	require.Equal(t, "home", Home(cs, homeURL).Name)

	named, err := ParseClusters("main="+homeURL+",b=postgres://x@h2/zaxy", "", homeURL)
	require.NoError(t, err)
	require.Equal(t, "main", Home(named, homeURL).Name, "the home cluster listed under another name keeps it")
}

func TestParseClusters_RefusesWhatWouldMisplaceSpaces(t *testing.T) {
	for _, tc := range []struct{ clusters, weights, want string }{
		{"b", "", "name=postgres-url"},
		{"B=postgres://h", "", "cluster name"},
		{"b=postgres://h,b=postgres://i", "", "named twice"},
		{"b=postgres://h,c=postgres://h", "", "same URL"},
		{"home=postgres://elsewhere", "", "home cluster's"},
		{"b=postgres://h", "z=1", "for a cluster"},
		{"b=postgres://h", "b=-1", "from 0"},
		{"b=postgres://h", "b=NaN", "from 0"},
		{"b=postgres://h", "b=0,home=0", "weight 0"},
	} {
		_, err := ParseClusters(tc.clusters, tc.weights, homeURL)
		require.ErrorIs(t, err, validation.ErrInvalid, "%+v", tc)
		require.ErrorContains(t, err, tc.want, "%+v", tc)
	}
}

// The rule is stable, follows the weights, and a new cluster takes spaces only for itself:
// no space moves between the clusters that were there.
func TestRule_FollowsWeightsAndMovesNothingBetweenOldClusters(t *testing.T) {
	old := []Cluster{{Name: "home", Weight: 1}, {Name: "b", Weight: 1}, {Name: "c", Weight: 2}}
	grown := append(append([]Cluster(nil), old...), Cluster{Name: "d", Weight: 1})
	count := map[string]int{}
	const n = 20000
	for i := range n {
		space := fmt.Sprintf("space-%d", i)
		before := Rule(space, old)
		require.Equal(t, before, Rule(space, old))
		count[before]++
		if after := Rule(space, grown); after != before {
			require.Equal(t, "d", after, "space %s moved from %s to %s", space, before, after)
		}
	}
	// Expected shares 1/4, 1/4, 1/2: within 3 points each.
	require.InDelta(t, 0.25, float64(count["home"])/n, 0.03)
	require.InDelta(t, 0.25, float64(count["b"])/n, 0.03)
	require.InDelta(t, 0.5, float64(count["c"])/n, 0.03)
	require.Equal(t, "b", Rule("x", []Cluster{{Name: "home", Weight: 0}, {Name: "b", Weight: 1}}), "weight 0 takes no new space")
	require.Equal(t, "", Rule("x", nil))
}

// FuzzParseClusters: whatever the variables hold, ParseClusters returns clusters with valid,
// distinct names and URLs, the home cluster among them, and finite non-negative weights, or a
// validation error; it never panics.
func FuzzParseClusters(f *testing.F) {
	f.Add("b=postgres://h,c=postgres://i", "c=2")
	f.Add("home=postgres://elsewhere", "")
	f.Add("b==,=,", "b=1e309")
	f.Fuzz(func(t *testing.T, clusters, weights string) {
		cs, err := ParseClusters(clusters, weights, homeURL)
		if err != nil {
			require.ErrorIs(t, err, validation.ErrInvalid)
			return
		}
		names, urls := map[string]bool{}, map[string]bool{}
		for _, c := range cs {
			require.NoError(t, ValidateName("name", c.Name))
			require.False(t, names[c.Name] || urls[c.URL], "%+v", cs)
			names[c.Name], urls[c.URL] = true, true
			require.True(t, c.Weight >= 0 && c.Weight <= 1e6, "%+v", c)
		}
		require.True(t, urls[homeURL])
		require.NotEmpty(t, Rule("s", cs))
	})
}
