package api

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/auth"
)

// TestReplicaRoutes_AreDeclaredReads fails when an entry of replicaRoutes names no route of
// spaceRoutes (a misspelt entry would leave its route on the primary without a word) or names a
// route a read token cannot call (a write must never run on a standby).
func TestReplicaRoutes_AreDeclaredReads(t *testing.T) {
	declared := map[string]*spaceRoute{}
	for i := range spaceRoutes {
		rt := &spaceRoutes[i]
		declared[rt.method+" "+rt.pattern] = rt
	}
	for k := range replicaRoutes {
		rt, ok := declared[k]
		require.True(t, ok, "%s is not a route", k)
		require.Equal(t, auth.ScopeRead, rt.scope, "%s is not a read", k)
	}
}
