package bench

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPriors_TopPriorIsTheFamilysOwnForMostTasksAndFailures(t *testing.T) {
	t.Parallel()
	rep, err := Priors(PriorsOptions{})
	require.NoError(t, err)
	require.Equal(t, 60, rep.ProcedureQueries)
	require.Equal(t, 120, rep.FailureQueries)
	require.GreaterOrEqual(t, rep.ProcedureTop1, 0.8)
	require.GreaterOrEqual(t, rep.FailureTop1, 0.8)
	require.LessOrEqual(t, rep.ProcedureComplete, rep.ProcedureTop1)
	again, err := Priors(PriorsOptions{})
	require.NoError(t, err)
	require.Equal(t, rep, again, "the lane is a function of its seed")
}

func TestPriors_WithoutEnoughSessionsNothingIsMined(t *testing.T) {
	t.Parallel()
	_, err := Priors(PriorsOptions{Sessions: 2})
	require.Error(t, err, "fewer sessions than the miners need is refused")
}

func TestMaskDigits_MasksAsTheFailureProducerDoes(t *testing.T) {
	t.Parallel()
	require.Equal(t, "lock held by pid #", maskDigits("Lock held by  pid 4242"))
}
