package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/retrospective"
)

func TestAttribution_MacroF1MeetsTheTargetAndUnknownStaysUnknown(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		rep, err := Attribution(AttributionOptions{Traces: 120, Seed: seed})
		require.NoError(t, err)
		require.GreaterOrEqual(t, rep.MacroF1, 0.8, "seed %d: %+v", seed, rep.Confusion)
		require.Equal(t, 20, rep.Classes[retrospective.CauseUnknown].Support)
		require.Equal(t, 1.0, rep.Classes[retrospective.CauseUnknown].Precision, "only traces that do not say are unknown")

		clean, err := Attribution(AttributionOptions{Traces: 120, Seed: seed, Confounded: -1})
		require.NoError(t, err)
		require.InDelta(t, 1.0, clean.MacroF1, 1e-9, "seed %d: %+v", seed, clean.Confusion)
		require.Zero(t, clean.FalseBlame, "no item the script did not make misleading is blamed")
		require.Positive(t, clean.ActionTraces, "some traces consult memory through a memory action")
		require.Equal(t, clean.ActionTraces, clean.ActionVerdicts, "seed %d: each gets the verdict the script meant", seed)
	}
}

func TestAttribution_IsDeterministicPerSeed(t *testing.T) {
	t.Parallel()
	a, err := Attribution(AttributionOptions{Seed: 7})
	require.NoError(t, err)
	b, err := Attribution(AttributionOptions{Seed: 7})
	require.NoError(t, err)
	require.Equal(t, a, b)
	_, err = Attribution(AttributionOptions{Traces: 99})
	require.Error(t, err)
}
