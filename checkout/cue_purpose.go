package checkout

import (
	"regexp"
	"strings"
)

// cuePhases map a cues.phase value (normalized by cueValue) to the purpose it declares.
var cuePhases = map[string]string{
	"debug": PurposeDebugging, "debugging": PurposeDebugging, "fix": PurposeDebugging, "fixing": PurposeDebugging,
	"triage": PurposeDebugging, "incident": PurposeDebugging, "troubleshooting": PurposeDebugging,
	"review": PurposeReview, "reviewing": PurposeReview, "code review": PurposeReview,
	"refactor": PurposeRefactoring, "refactoring": PurposeRefactoring, "cleanup": PurposeRefactoring,
	"plan": PurposePlanning, "planning": PurposePlanning, "design": PurposePlanning,
	"implement": PurposeImplementation, "implementation": PurposeImplementation, "build": PurposeImplementation,
	"coding": PurposeImplementation, "develop": PurposeImplementation, "development": PurposeImplementation,
	"explore": PurposeExploration, "exploration": PurposeExploration, "research": PurposeExploration,
	"onboarding": PurposeExploration,
}

// cueDebuggers are cues.tool values that are debuggers: using one is debugging.
var cueDebuggers = map[string]bool{"gdb": true, "lldb": true, "dlv": true, "delve": true, "pdb": true, "ipdb": true, "debugger": true, "strace": true}

// cueStateKeys are the cue keys whose values report a state (the others, such as task and repo,
// name things: a task "fix the error page" is no failure).
var cueStateKeys = []string{"tool", "status", "outcome", "result", "state", "tests"}

// cueFailing matches a state cue value that reports a failure (cues.status "failing",
// cues.outcome "error", cues.tool "pytest (failed)").
var cueFailing = regexp.MustCompile(`(?i)\b(fail|fails|failed|failing|failure|error|errors|broken|crash|crashed|red)\b`)

// inferPurpose picks the purpose of a checkout that named none, from its cues first and its
// query's words then: cues.phase when it names a purpose (cuePhases: "debug" → debugging,
// "review" → review, "plan" → planning, ...); debugging when cues.tool is a debugger (gdb, dlv,
// pdb, ...) or a state cue (tool, status, outcome,
// result, state, tests) reports a failure ({"tool": "pytest", "status": "failing"});
// otherwise the query's words (InferPurpose). A tool alone that is no debugger (pytest, go test)
// says nothing: tests run while implementing as much as while debugging. docs/checkout.md lists
// the mapping.
func inferPurpose(query string, cues Cues) string {
	if p, ok := cuePhases[cueValue(cues["phase"])]; ok {
		return p
	}
	if cueDebuggers[cueValue(cues["tool"])] {
		return PurposeDebugging
	}
	for _, k := range cueStateKeys {
		if cueFailing.MatchString(strings.TrimSpace(cues[k])) {
			return PurposeDebugging
		}
	}
	return InferPurpose(query)
}
