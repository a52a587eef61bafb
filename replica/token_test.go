package replica

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseToken_ReadsWhatStringWritesAndNothingElse(t *testing.T) {
	for _, l := range []LSN{1, 0x16B3F20, 0x16_B374D848, 1<<64 - 1} {
		tok, err := ParseToken(Token{LSN: l}.String())
		require.NoError(t, err)
		require.Equal(t, l, tok.LSN)
	}
	tok, err := ParseToken("lsn:0/16b3f20")
	require.NoError(t, err)
	require.Equal(t, LSN(0x16B3F20), tok.LSN)
	for _, bad := range []string{"", "lsn:", "0/16B3F20", "LSN:0/1", "lsn:0/0", "lsn:0/16B3F20x", "lsn: 0/1",
		"lsn:123456789/0", "lsn:0/123456789", "lsn:0-1", "lsn:g/1", "lsn:0/1/2"} {
		_, err := ParseToken(bad)
		require.Error(t, err, bad)
	}
}

func TestPick_WithoutStandbysIsThePrimaryAndCountsNothing(t *testing.T) {
	s := NewSet(nil, nil, Config{})
	require.False(t, s.Enabled())
	c := s.Pick(t.Context(), Token{LSN: 42})
	require.Nil(t, c.Standby)
	require.Equal(t, FromPrimary, c.From())
	require.Equal(t, Stats{}, s.Stats())
}

// TestPick_SkipsStandbysThatAreDownOrLagging: a covered token goes to an up standby within
// the lag limit, never to one that is down or lagging; without a token the same.
func TestPick_SkipsStandbysThatAreDownOrLagging(t *testing.T) {
	down, lagging, good := &Standby{Name: "down"}, &Standby{Name: "lagging"}, &Standby{Name: "good"}
	for _, st := range []*Standby{down, lagging, good} {
		st.observe(100)
		st.up.Store(true)
	}
	down.up.Store(false)
	lagging.lagNanos.Store(int64(DefaultMaxLag) + 1)
	s := NewSet(nil, []*Standby{down, lagging, good}, Config{})
	for range 10 {
		require.Same(t, good, s.Pick(t.Context(), Token{LSN: 100}).Standby)
		require.Same(t, good, s.Pick(t.Context(), Token{}).Standby)
	}
	require.Equal(t, Stats{Replica: 20}, s.Stats())
	s.Failed(good)
	require.Nil(t, s.Pick(t.Context(), Token{}).Standby, "no healthy standby: the primary")
	require.Nil(t, s.Pick(t.Context(), Token{LSN: 100}).Standby)
	require.Equal(t, Stats{Replica: 20, Primary: 2, Fallbacks: 1}, s.Stats(), "no healthy standby to wait for")
}

// A token names its cluster when the service spans several: it reads back, and a read on
// another cluster (its space moved since the write) goes to the primary however far that
// cluster's standbys have replayed, since their positions say nothing of the token's WAL.
func TestToken_OfAnotherClusterReadsThePrimary(t *testing.T) {
	tok, err := ParseToken(Token{Cluster: "eu-2", LSN: 0x16B3F20}.String())
	require.NoError(t, err)
	require.Equal(t, Token{Cluster: "eu-2", LSN: 0x16B3F20}, tok)
	require.Equal(t, "lsn:eu-2:0/16B3F20", tok.String())
	for _, bad := range []string{"lsn:EU:0/1", "lsn::0/1", "lsn:a:b:0/1", "lsn:9a:0/1", "lsn:a:"} {
		_, err := ParseToken(bad)
		require.Error(t, err, bad)
	}
	st := &Standby{Name: "far ahead"}
	st.observe(1 << 40)
	st.up.Store(true)
	s := NewSet(nil, []*Standby{st}, Config{Cluster: "b"})
	require.Same(t, st, s.Pick(t.Context(), Token{Cluster: "b", LSN: 100}).Standby)
	require.Nil(t, s.Pick(t.Context(), Token{Cluster: "home", LSN: 100}).Standby)
	require.Nil(t, s.Pick(t.Context(), Token{LSN: 100}).Standby, "a token of before ZAXY_CLUSTERS")
	require.Equal(t, Stats{Replica: 1, Primary: 2, Fallbacks: 2}, s.Stats())
}
