package latent_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuild_ADecisionsSubjectLinksItToTheToolFailingInLaterSessions: a decision about
// "the migrate step" in a planning session is linked to the first failure of migrate in each
// of the next three sessions (not its own session's, which the per-session link covers; not
// a tool its subject does not name, nor one it names only inside a longer word); a decision
// with no subject links across no session; a newer decision about the same subject supersedes
// it, staling its links, and links what fails after it; a rebuild equals the incremental build.
func TestBuild_ADecisionsSubjectLinksItToTheToolFailingInLaterSessions(t *testing.T) {
	b := setup(t)
	const space = "latent-subject-causal"
	dec := b.AppendSeqs(t, space,
		b.Tool("plan", "migrate", "failure", "early failure before the decision"),
		b.Event("decision.recorded", "plan", "", map[string]string{"decision": "run migrations with a 5s lock timeout", "subject": "The migrate step"}),
		b.Event("decision.recorded", "plan", "", map[string]string{"decision": "ship on Fridays"}))[1]
	var firsts []int64
	for i, s := range []string{"run1", "run2", "run3", "run4"} {
		seqs := b.AppendSeqs(t, space,
			b.Message(s, "Starting the run."),
			b.Tool(s, "premigrate", "failure", "not named"),
			b.Tool(s, "migrate", "failure", fmt.Sprintf("lock timeout after %ds", 5+i)),
			b.Tool(s, "migrate", "failure", "again"),
			b.Tool(s, "deploy", "failure", "not named either"))
		firsts = append(firsts, seqs[2])
	}
	b.AppendSeqs(t, space, b.Tool("plan", "migrate", "failure", "in the decision's own session"))
	b.projectAndBuild(t, space)

	links := b.artifacts(t, space, "artifact_type = 'causal' AND slot LIKE 'causal-subject:%' AND stale_at IS NULL")
	require.Len(t, links, 3, "the first failure in each of the first three later sessions")
	var slots []string
	for _, l := range links {
		slots = append(slots, l.Slot)
		require.Len(t, l.Seqs, 2, "both ends are cited")
		require.Equal(t, dec, l.Seqs[0])
		require.Contains(t, firsts[:3], l.Seqs[1])
		require.Contains(t, l.Summary, `about "The migrate step" in session "plan"`)
		require.Contains(t, l.Summary, "by migrate failing with")
	}
	require.ElementsMatch(t, []string{fmt.Sprintf("causal-subject:%d:%d", dec, firsts[0]), fmt.Sprintf("causal-subject:%d:%d", dec, firsts[1]),
		fmt.Sprintf("causal-subject:%d:%d", dec, firsts[2])}, slots)

	// A newer decision about the same subject supersedes the first: its links go stale, and the
	// newer one links the failures after it.
	newer := b.AppendSeqs(t, space, b.Event("decision.recorded", "plan2", "", map[string]string{"decision": "run migrations off-peak", "subject": "the migrate step"}))[0]
	late := b.AppendSeqs(t, space, b.Tool("run5", "migrate", "failure", "still locked"))[0]
	b.projectAndBuild(t, space)
	require.Len(t, b.artifacts(t, space, "slot LIKE 'causal-subject:%' AND stale_at IS NOT NULL"), 3)
	current := b.artifacts(t, space, "slot LIKE 'causal-subject:%' AND stale_at IS NULL")
	require.Len(t, current, 1)
	require.Equal(t, fmt.Sprintf("causal-subject:%d:%d", newer, late), current[0].Slot)

	// The last build proposed the newer link for review; project that proposal too, then
	// compare with a rebuild.
	b.projectAndBuild(t, space)
	b.requireRebuildEqualsIncremental(t, space)
}
