package bench_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/bench"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestCues_TheRightCuePicksTheNoteMeantAndNoStray(t *testing.T) {
	admin := testcontainers.AdminURL(t)
	before := scratchDatabases(t, admin)
	rep, err := bench.Cues(context.Background(), admin, bench.CuesOptions{Embedder: embedding.NewOffline(), OpenPool: openPool})
	require.NoError(t, err)
	require.Equal(t, 60, rep.Questions)
	require.Less(t, rep.Plain.Hit1, 0.5, "without cues the question is ambiguous")
	require.Greater(t, rep.Cued.Hit1, rep.Plain.Hit1+0.5, "the right cue picks the note meant")
	require.Zero(t, rep.Cued.Stray3, "a note matching only the cue never reaches the top 3")
	require.Less(t, rep.Misleading.Hit1, rep.Plain.Hit1+1e-9, "a misleading cue does not help")
	require.Equal(t, rep.Plain, rep.Unknown, "a cue no event carries changes nothing")
	require.Equal(t, before, scratchDatabases(t, admin), "the scratch database is dropped")
}
