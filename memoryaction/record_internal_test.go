package memoryaction

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/vocab"
)

// TestCapRecord_AnAnswerLargerThanARecordStillMakesAValidRecord: an answer with more artifacts
// or seqs than the log accepts in one record is cut to what it accepts, best first, and says so.
func TestCapRecord_AnAnswerLargerThanARecordStillMakesAValidRecord(t *testing.T) {
	t.Parallel()
	seqs := func(n int) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(i + 1)
		}
		return out
	}
	d := vocab.MemoryActionSurfaced{Action: ActionSimulateForward, CitedSeqs: seqs(7000)}
	for i := range 250 {
		d.Artifacts = append(d.Artifacts, vocab.SurfacedArtifact{ArtifactID: fmt.Sprintf("a%d", i), Type: "failure", Seqs: seqs(1 + i*30)})
	}
	raw, err := json.Marshal(d)
	require.NoError(t, err)
	require.Error(t, vocab.Validate(vocab.TypeMemoryActionSurfaced, "", raw), "as answered, too large for the log")

	capRecord(&d)
	raw, err = json.Marshal(d)
	require.NoError(t, err)
	require.NoError(t, vocab.Validate(vocab.TypeMemoryActionSurfaced, "", raw))
	require.True(t, d.Truncated)
	require.Len(t, d.Artifacts, maxRecordArtifacts)
	require.Equal(t, "a0", d.Artifacts[0].ArtifactID, "best first")
	require.Len(t, d.CitedSeqs, maxRecordSeqs)
	require.Len(t, d.Artifacts[199].Seqs, maxRecordSeqs)

	small := vocab.MemoryActionSurfaced{Action: ActionFailurePrior, Artifacts: []vocab.SurfacedArtifact{{ArtifactID: "f", Type: "failure", Seqs: []int64{1}}}}
	capRecord(&small)
	require.False(t, small.Truncated)
}
