package bench_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/testcontainers"
)

// TestForgetting_AttenuatesWithoutLosingAnything runs a small forgetting lane long enough for
// disuse to attenuate memory: explicit recall of the attenuated items is the same with
// salience as without (forgetting is ranking, never erasure), default ranking leaves them
// out, and the agent's feedback keeps misleading notes out of its packets more than plain
// ranking does, without losing the answers.
func TestForgetting_AttenuatesWithoutLosingAnything(t *testing.T) {
	admin := testcontainers.AdminURL(t)
	rep, err := bench.Forgetting(context.Background(), admin, bench.ForgettingOptions{Services: 8, Weeks: 20, QueriesPerDay: 2,
		OpenPool: openPool})
	require.NoError(t, err)
	require.Equal(t, 20*5*2, rep.Questions)
	require.Positive(t, rep.Attenuated)
	require.Positive(t, rep.AttenuatedProbed)
	require.Equal(t, rep.ExplicitRecallPlain, rep.ExplicitRecallSalience)
	require.Zero(t, rep.DefaultRecallAttenuated)
	require.Less(t, rep.Salience.MisleadingPerPacket, rep.Plain.MisleadingPerPacket)
	require.GreaterOrEqual(t, rep.Salience.EvidenceInPacket, rep.Plain.EvidenceInPacket-0.02)
}
