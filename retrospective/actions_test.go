package retrospective_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/retrospective"
)

// record is a memory_action.surfaced event of action, asked about tools, that returned arts
// (each written as JSON).
func record(action, tools, arts string) [2]string {
	return [2]string{"memory_action.surfaced", `{"action":"` + action + `","tools":` + tools + `,"artifacts":[` + arts + `]}`}
}

const (
	migrateFailure = `{"artifact_id":"f1","artifact_type":"failure","tools":["migrate"],"confidence":0.8,"seqs":[90,91]}`
	deployProc     = `{"artifact_id":"p1","artifact_type":"procedure","tools":["build","migrate","deploy"],"confidence":0.9,"seqs":[80,81,82]}`
	lintProc       = `{"artifact_id":"p2","artifact_type":"procedure","tools":["build","lint"],"confidence":0.9,"seqs":[70,71]}`
)

func call(tool, outcome string) [2]string {
	return [2]string{"tool_call.completed", `{"tool":"` + tool + `","outcome":"` + outcome + `","error":"lock timeout"}`}
}

// verdicts are the memory-action verdicts of att by record seq.
func verdicts(att *retrospective.Attribution) map[int64]retrospective.ActionJudgement {
	out := map[int64]retrospective.ActionJudgement{}
	for _, j := range att.Actions {
		if j.Type == "memory_action.surfaced" {
			out[j.Seq] = j
		}
	}
	return out
}

func TestAttribute_AFailurePriorThatWarnedIsCreditedAndTheCauseIsTheTool(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"failure"}`,
		record("retrieve_failure_prior", `["migrate"]`, migrateFailure),
		record("retrieve_procedure_prior", `["lint"]`, lintProc),
		call("migrate", "failure"))
	att := retrospective.Attribute(tr)
	require.Equal(t, retrospective.CauseToolFailure, att.Cause, att.Reason)
	require.Contains(t, att.Reason, "warned that migrate fails")
	require.Empty(t, att.Proposals, "the failure pattern is already in memory: no failure prior is proposed again")
	v := verdicts(att)
	require.Equal(t, "credited", v[1].Verdict)
	require.InDelta(t, 0.6, v[1].Confidence, 1e-9)
	require.Equal(t, []string{"f1"}, v[1].ArtifactIDs)
	require.Equal(t, []int64{1, 3, 4}, v[1].Cites, "the record, the failed call, the outcome")
	require.Equal(t, "not_implicated", v[2].Verdict, "a procedure that does not run the failed tool")
	require.Zero(t, v[2].Confidence)
	require.Subset(t, att.Trace, []int64{1, 3, 4})
}

func TestAttribute_AProcedureRunningTheFailedToolIsBlamed(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x"}`,
		record("retrieve_procedure_prior", `["deploy"]`, deployProc),
		call("build", "success"), call("migrate", "failure"))
	att := retrospective.Attribute(tr)
	require.Equal(t, "partial", att.Status)
	require.Equal(t, retrospective.CauseRetrieval, att.Cause, att.Reason)
	require.Contains(t, att.Reason, "returned a procedure running migrate (p1)")
	v := verdicts(att)
	require.Equal(t, "blamed", v[1].Verdict)
	require.InDelta(t, 0.45, v[1].Confidence, 1e-9, "a partial outcome scales it by 0.75")
	require.Equal(t, []string{"p1"}, v[1].ArtifactIDs)
}

func TestAttribute_AnActionAskedAboutTheFailedToolThatFoundNothingIsBlamedAsMissingEvidence(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"failure"}`,
		record("simulate_forward", `["build","migrate"]`, lintProc),
		call("migrate", "failure"))
	att := retrospective.Attribute(tr)
	require.Equal(t, retrospective.CauseMissingEvidence, att.Cause, att.Reason)
	kinds := []string{}
	for _, p := range att.Proposals {
		kinds = append(kinds, p.Kind)
		if p.Kind == "known_unknown" {
			require.Equal(t, []int64{1, 2, 3}, p.Evidence, "the record that asked, the failure, the outcome")
		}
	}
	require.Equal(t, []string{"failure_prior", "known_unknown"}, kinds)
	v := verdicts(att)
	require.Equal(t, "blamed", v[1].Verdict)
	require.InDelta(t, 0.6, v[1].Confidence, 1e-9)
	require.Contains(t, v[1].Reason, "asked about migrate")
}

func TestAttribute_AnActionAfterTheFailureOrAboutOtherToolsIsNotImplicated(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"failure"}`,
		record("retrieve_procedure_prior", `["lint"]`, lintProc),
		call("migrate", "failure"),
		record("retrieve_failure_prior", `["migrate"]`, migrateFailure))
	att := retrospective.Attribute(tr)
	require.Equal(t, retrospective.CauseMissingEvidence, att.Cause, "asked before the failure, memory had nothing on migrate")
	v := verdicts(att)
	require.Equal(t, "not_implicated", v[1].Verdict)
	require.Equal(t, "not_implicated", v[3].Verdict, "a warning after the failure warned of nothing")
}

func TestAttribute_ASuccessCreditsAProcedureTheSessionRanAndWhatItCites(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"success","evidence":[90]}`,
		record("retrieve_procedure_prior", `["build"]`, lintProc),
		record("retrieve_failure_prior", `["migrate"]`, migrateFailure),
		record("retrieve_procedure_prior", `["deploy"]`, deployProc),
		call("build", "success"), call("lint", "failure"), call("lint", "success"), call("migrate", "success"))
	att := retrospective.Attribute(tr)
	v := verdicts(att)
	require.Equal(t, "credited", v[1].Verdict, "build then lint ran, lint succeeding in the end")
	require.Equal(t, []int64{1, 4, 6, 8}, v[1].Cites)
	require.Equal(t, "credited", v[2].Verdict, "the outcome cites an event the failure pattern cites")
	require.InDelta(t, 0.8, v[2].Confidence, 1e-9)
	require.Equal(t, "not_implicated", v[3].Verdict, "deploy never ran")
}

func TestAttribute_AFailureCitingARecordBlamesItsArtifacts(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"failure","evidence":[1]}`,
		record("query_causal_neighborhood", `[]`, migrateFailure+","+lintProc),
		call("deploy", "failure"))
	att := retrospective.Attribute(tr)
	v := verdicts(att)
	require.Equal(t, "blamed", v[1].Verdict)
	require.Equal(t, []string{"f1", "p2"}, v[1].ArtifactIDs)
	require.InDelta(t, 0.8, v[1].Confidence, 1e-9)
}

func TestAttribute_AWeavesEvidenceLinesAreSurfacedItems(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"failure","evidence":[55]}`,
		[2]string{"checkout.surfaced", `{"items":[{"item_id":"ev:40","seqs":[40]}],"weave":{"weave_id":"w1","artifact_ids":["e1"],"evidence_seqs":[55,40],"source_seqs":[40,55,56]}}`},
		call("deploy", "failure"))
	att := retrospective.Attribute(tr)
	require.Equal(t, retrospective.CauseRetrieval, att.Cause)
	require.Len(t, att.Items, 1)
	require.Equal(t, "ev:55", att.Items[0].ItemID, "the weave showed event 55 and the failure cites it")
	require.Equal(t, int64(1), att.Items[0].Checkout)
	require.Equal(t, []string{"ev:40", "ev:55"}, retrospective.SurfacedIDs(tr.Session), "each once")
}

func TestAttribute_AProspectivePassIsJudgedByThePriorsItsCheckoutRecorded(t *testing.T) {
	t.Parallel()
	tr := trace(`{"session_id":"s","summary":"x","status":"failure"}`,
		[2]string{"checkout.surfaced", `{"items":[],"weave":{"weave_id":"w","artifact_ids":[],"evidence_seqs":[],"source_seqs":[]},"priors":[` + deployProc + `]}`},
		call("build", "success"), call("migrate", "failure"))
	att := retrospective.Attribute(tr)
	require.Equal(t, retrospective.CauseRetrieval, att.Cause, att.Reason)
	var got []retrospective.ActionJudgement
	for _, j := range att.Actions {
		if j.Action == retrospective.ActionProspective {
			got = append(got, j)
		}
	}
	require.Len(t, got, 1)
	require.Equal(t, "checkout.surfaced", got[0].Type)
	require.Equal(t, int64(1), got[0].Seq)
	require.Equal(t, "blamed", got[0].Verdict, "its procedure prior runs migrate, which failed")
	require.Equal(t, []string{"p1"}, got[0].ArtifactIDs)
}
