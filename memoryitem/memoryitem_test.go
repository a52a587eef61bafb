package memoryitem_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/memoryitem"
)

func TestIDs_NameEventsAndFactVersions(t *testing.T) {
	t.Parallel()
	require.Equal(t, "ev:42", memoryitem.EventID(42))
	require.Equal(t, "fact:f-1", memoryitem.FactID("f-1"))
}

func TestIsBookkeeping_KnowsZaxysOwnEventTypes(t *testing.T) {
	t.Parallel()
	for typ, want := range map[string]bool{
		"checkout.surfaced": true, "zaxy.note": true, "erasure.recorded": true,
		"message": false, "fact.asserted": false, "checkout": false,
	} {
		require.Equal(t, want, memoryitem.IsBookkeeping(typ), typ)
	}
}

func TestParseEventID_ReadsOnlyWhatEventIDWrites(t *testing.T) {
	seq, ok := memoryitem.ParseEventID(memoryitem.EventID(42))
	require.True(t, ok)
	require.Equal(t, int64(42), seq)
	for _, id := range []string{"", "42", "ev:", "ev:0", "ev:-1", "ev:+3", "ev:03", "ev:3x", "ev: 3", "fact:3", "ev:99999999999999999999"} {
		_, ok := memoryitem.ParseEventID(id)
		require.False(t, ok, id)
	}
}
