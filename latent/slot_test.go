package latent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
)

// TestBuild_ASessionNamedLikeAnothersPrefixKeepsItsArtifacts: deriving session "a" again
// replaces its own causal links and episodes, never those of sessions "a:b" or "a#2", whose
// slots start with session a's prefixes (causal:a:..., episode:a#...) too.
func TestBuild_ASessionNamedLikeAnothersPrefixKeepsItsArtifacts(t *testing.T) {
	b := setup(t)
	const space = "latent-slot-prefix"
	link := func(s string) {
		b.AppendSeqs(t, space,
			b.Event("decision.recorded", s, "", map[string]string{"decision": "pin the toolchain in " + s}),
			b.Tool(s, "go build", "failure", "toolchain not found"),
			b.Tool(s, "go build", "success", ""))
	}
	for _, s := range []string{"a", "a:b", "a#2"} {
		link(s)
	}
	b.projectAndBuild(t, space)
	before := b.artifacts(t, space, "stale_at IS NULL AND artifact_type IN ('causal', 'episode')")
	require.Len(t, before, 6, "a causal link and an episode per session")
	slots := map[string]bool{}
	for _, a := range before {
		slots[a.Slot] = true
	}
	require.Len(t, slots, 6, "no two sessions share a slot")

	// Session a gets a new event: it is derived again, the others are not touched.
	b.AppendSeqs(t, space, b.Message("a", "The toolchain is pinned."))
	b.projectAndBuild(t, space)
	after := map[string]string{}
	for _, a := range b.artifacts(t, space, "stale_at IS NULL AND artifact_type IN ('causal', 'episode')") {
		after[a.Slot] = a.ID
	}
	require.Len(t, after, 6, "the other sessions' links and episodes are still there")
	for _, a := range before {
		if a.Slot == "episode:a#1" {
			continue // session a's episode now cites the new event
		}
		require.Equal(t, a.ID, after[a.Slot], "%s is unchanged", a.Slot)
	}
}

// TestBuild_PreferencesOfTwoHoldersNeverShareASlot: holder "ana/editor" on topic "theme" and
// holder "ana" on topic "editor/theme" are two preferences, each with its own value; one
// joined key once made them one preference, the later value superseding the other holder's.
func TestBuild_PreferencesOfTwoHoldersNeverShareASlot(t *testing.T) {
	b := setup(t)
	const space = "latent-slot-pref"
	b.AppendSeqs(t, space,
		b.Event("preference.stated", "", "", map[string]string{"holder": "ana/editor", "topic": "theme", "preference": "dark"}),
		b.Event("preference.stated", "", "", map[string]string{"holder": "ana", "topic": "editor/theme", "preference": "light"}))
	b.projectAndBuild(t, space)
	prefs := b.artifacts(t, space, "artifact_type = 'preference' AND stale_at IS NULL")
	require.Len(t, prefs, 2)
	require.NotEqual(t, prefs[0].Slot, prefs[1].Slot)
	require.Contains(t, prefs[0].Summary+prefs[1].Summary, "dark")
	require.Contains(t, prefs[0].Summary+prefs[1].Summary, "light")
}

// TestBuild_ToolNamesHoldingTheStepSeparatorAreOneStep: a tool named "lint → fix" is one step:
// its procedure is not the procedure of the two tools "lint" and "fix", and neither subsumes
// the other.
func TestBuild_ToolNamesHoldingTheStepSeparatorAreOneStep(t *testing.T) {
	b := setup(t)
	const space = "latent-slot-steps"
	for i := range 3 {
		one, two := fmt.Sprintf("one-%d", i), fmt.Sprintf("two-%d", i)
		b.AppendSeqs(t, space,
			b.Tool(one, "lint → fix", "success", ""), b.Tool(one, "test", "success", ""),
			b.Tool(two, "lint", "success", ""), b.Tool(two, "fix", "success", ""), b.Tool(two, "test", "success", ""))
	}
	b.projectAndBuild(t, space)
	var slots []string
	for _, a := range b.artifacts(t, space, "artifact_type = 'procedure' AND stale_at IS NULL") {
		slots = append(slots, a.Slot)
	}
	require.ElementsMatch(t, []string{`procedure:"lint → fix" → test`, "procedure:lint → fix → test"}, slots)
}

// TestBuild_ALongSessionIsCutIntoEpisodes: a session of 100 events is three episodes (48, 48
// and 4 events); appending to it changes only the last one, and a rebuild from the log gives
// the same artifacts.
func TestBuild_ALongSessionIsCutIntoEpisodes(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-long-session"
	var evs []eventloom.NewEvent
	for i := range 100 {
		evs = append(evs, b.Message("long", fmt.Sprintf("Step %d of the migration: table %d is copied.", i, i)))
	}
	seqs := b.AppendSeqs(t, space, evs...)
	b.projectAndBuild(t, space)
	eps := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	require.Len(t, eps, 3)
	require.Equal(t, []string{"episode:long#1", "episode:long#2", "episode:long#3"}, []string{eps[0].Slot, eps[1].Slot, eps[2].Slot})
	require.Equal(t, seqs[:48], eps[0].Seqs)
	require.Equal(t, seqs[48:96], eps[1].Seqs)
	require.Equal(t, seqs[96:], eps[2].Seqs)
	var segment int
	require.NoError(t, b.db.QueryRow(ctx, `SELECT (payload->>'segment')::int FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`,
		space, eps[1].ID).Scan(&segment))
	require.Equal(t, 2, segment)

	b.AppendSeqs(t, space, b.Message("long", "The migration is done."))
	b.projectAndBuild(t, space)
	grown := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	require.Len(t, grown, 3)
	require.Equal(t, eps[0], grown[0], "a full episode stays as it was")
	require.Equal(t, eps[1], grown[1])
	require.Len(t, grown[2].Seqs, 5)

	b.requireRebuildEqualsIncremental(t, space)
}

// TestBuild_ALongSessionsCutKeepsAQuestionWithItsAnswer: when the 48th event of an episode asks
// something, the cut moves past the event after it (its answer), so the two are in one
// episode; a run of questions is cut after 56 events all the same. A rebuild from the log
// gives the same artifacts.
func TestBuild_ALongSessionsCutKeepsAQuestionWithItsAnswer(t *testing.T) {
	b := setup(t)
	const space = "latent-cut-question"
	var evs []eventloom.NewEvent
	for i := range 130 {
		text := fmt.Sprintf("Step %d of the migration: table %d is copied.", i, i)
		switch {
		case i == 47:
			text = "Which table do we copy after this one?"
		case i >= 96 && i < 110:
			text = fmt.Sprintf("Is table %d next?", i)
		}
		evs = append(evs, b.Message("long", text))
	}
	seqs := b.AppendSeqs(t, space, evs...)
	b.projectAndBuild(t, space)
	eps := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	require.Len(t, eps, 3)
	require.Equal(t, seqs[:49], eps[0].Seqs, "the question at the 48th event and its answer are one episode")
	require.Equal(t, seqs[49:105], eps[1].Seqs, "a run of questions is cut after 56 events")
	require.Equal(t, seqs[105:], eps[2].Seqs)
	b.requireRebuildEqualsIncremental(t, space)
}

// TestBuild_AnEndedTaskEndsItsEpisode: a session's episodes are its task segments: the events
// up to a task.updated that ends a task (done or cancelled) are one episode with that outcome,
// the next task's another, and the finished one stays as it was while the session goes on.
func TestBuild_AnEndedTaskEndsItsEpisode(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const space = "latent-task-episodes"
	first := b.AppendSeqs(t, space,
		b.Message("work", "Fix the CSV export of the billing report."),
		b.Tool("work", "go test", "success", ""),
		b.Event("task.updated", "work", "", map[string]string{"task_id": "export", "status": "done"}))
	second := b.AppendSeqs(t, space,
		b.Message("work", "Now migrate the import job to the new queue."),
		b.Tool("work", "migrate", "failure", "lock timeout"))
	b.projectAndBuild(t, space)
	outcome := func(id string) string {
		var o string
		require.NoError(t, b.db.QueryRow(ctx, `SELECT payload->>'outcome' FROM latent_artifacts WHERE space_id = $1 AND artifact_id = $2`, space, id).Scan(&o))
		return o
	}
	eps := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	require.Len(t, eps, 2)
	require.Equal(t, "episode:work#1", eps[0].Slot)
	require.Equal(t, first, eps[0].Seqs)
	require.Equal(t, "done", outcome(eps[0].ID))
	require.Equal(t, "episode:work#2", eps[1].Slot)
	require.Equal(t, second, eps[1].Seqs)
	require.Equal(t, "failure", outcome(eps[1].ID))

	b.AppendSeqs(t, space, b.Tool("work", "migrate", "success", ""))
	b.projectAndBuild(t, space)
	grown := b.artifacts(t, space, "artifact_type = 'episode' AND stale_at IS NULL")
	require.Len(t, grown, 2)
	require.Equal(t, eps[0].ID, grown[0].ID, "the ended task's episode is unchanged")
	require.Equal(t, "success", outcome(grown[1].ID))
}
