package bench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSoftSpotCases_AreFixedAndLabelled: the generated sets are the same on every call, every
// question has evidence turns that exist in its case, and the splits share no case.
func TestSoftSpotCases_AreFixedAndLabelled(t *testing.T) {
	a, err := SoftSpotCases("all", "all")
	require.NoError(t, err)
	b, err := SoftSpotCases("all", "all")
	require.NoError(t, err)
	require.Equal(t, a, b)
	n := 0
	for _, sp := range SoftSpotSplits {
		n += softSpotCases[sp]
	}
	require.Len(t, a, 3*n)
	ids := map[string]bool{}
	for _, c := range a {
		require.False(t, ids[c.ID], c.ID)
		ids[c.ID] = true
		turns := map[string]bool{}
		for _, tr := range c.Turns {
			turns[tr.TurnID] = true
		}
		require.NotEmpty(t, c.Questions, c.ID)
		for _, q := range c.Questions {
			require.NotEmpty(t, q.EvidenceTurns, q.ID)
			for _, e := range q.EvidenceTurns {
				require.True(t, turns[e], "%s: evidence %s", q.ID, e)
			}
		}
	}
	_, err = SoftSpotCases("recipes", "dev")
	require.ErrorContains(t, err, "set must be one of")
}
