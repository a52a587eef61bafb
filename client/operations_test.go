package client_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/client"
)

// operations maps every operationId of api/openapi.json to the Client method that calls it.
// TestOperations_EveryOperationHasAMethod keeps it, the document and the Client in step.
var operations = map[string]string{
	"health":                  "Health",
	"ready":                   "Ready",
	"getOpenAPI":              "OpenAPI",
	"getMetrics":              "Metrics",
	"appendEvents":            "AppendEvents",
	"replayEvents":            "ReplayEvents",
	"verifyChain":             "Verify",
	"eraseEvent":              "Erase",
	"ingestDocuments":         "IngestDocuments",
	"ingestTranscript":        "IngestTranscript",
	"listFacts":               "Facts",
	"getEntity":               "Entity",
	"getProjection":           "Projection",
	"cypher":                  "Cypher",
	"getIndex":                "Index",
	"getTimeline":             "Timeline",
	"getItem":                 "Item",
	"checkout":                "Checkout",
	"getRecordedCheckout":     "RecordedCheckout",
	"getItemSalience":         "ItemSalience",
	"query":                   "Query",
	"assembleContext":         "AssembleContext",
	"afterTurn":               "AfterTurn",
	"handoff":                 "Handoff",
	"feelingOfKnowing":        "FeelingOfKnowing",
	"listSpaces":              "Spaces",
	"getSalience":             "Salience",
	"cleanupSubagent":         "CleanupSubagent",
	"resumeSession":           "ResumeSession",
	"listProposals":           "ListProposals",
	"listArtifacts":           "Artifacts",
	"getProposal":             "GetProposal",
	"acceptProposal":          "AcceptProposal",
	"rejectProposal":          "RejectProposal",
	"deferProposal":           "DeferProposal",
	"simulateForward":         "SimulateForward",
	"reflectBackward":         "ReflectBackward",
	"retrieveProcedurePrior":  "ProcedurePrior",
	"retrieveFailurePrior":    "FailurePrior",
	"queryCausalNeighborhood": "CausalNeighborhood",
	"proposeMemoryUpdate":     "ProposeMemoryUpdate",
	"reviseConfidence":        "ReviseConfidence",
	"recordKnownUnknown":      "RecordKnownUnknown",
	"scoreMemoryAction":       "ScoreMemoryAction",
	"listPolicies":            "Policies",
	"fitPolicy":               "FitPolicy",
	"promotePolicy":           "PromotePolicy",
	"rollbackPolicy":          "RollbackPolicy",
	"weaveMemory":             "WeaveMemory",
	"prospective":             "Prospective",
}

// walkers are the Client's methods that walk the pages of an operation another method calls
// once, by method name: the operation they call.
var walkers = map[string]string{"Events": "replayEvents"}

// operation is one operation of the OpenAPI document.
type operation struct {
	id, method string
	// path is the document's template, e.g. /v1/spaces/{space}/items/{id}.
	path string
	// match matches a concrete escaped path of it.
	match *regexp.Regexp
}

// documentOperations reads api/openapi.json.
func documentOperations(t *testing.T) []operation {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "api", "openapi.json"))
	require.NoError(t, err)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	placeholder := regexp.MustCompile(`\\\{[^}]+\\\}`)
	var ops []operation
	for path, methods := range doc.Paths {
		for method, raw := range methods {
			if method == "parameters" {
				continue
			}
			var op struct {
				OperationID string `json:"operationId"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			require.NotEmpty(t, op.OperationID, "%s %s", method, path)
			re := "^" + placeholder.ReplaceAllString(regexp.QuoteMeta(path), "[^/]+") + "$"
			ops = append(ops, operation{id: op.OperationID, method: strings.ToUpper(method), path: path, match: regexp.MustCompile(re)})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].id < ops[j].id })
	return ops
}

// TestOperations_EveryOperationHasAMethod fails when the OpenAPI document has an operation
// without a Client method, names one this table does not know, or the Client has an exported
// method that calls no operation.
func TestOperations_EveryOperationHasAMethod(t *testing.T) {
	var documented []string
	for _, op := range documentOperations(t) {
		documented = append(documented, op.id)
		_, ok := operations[op.id]
		require.True(t, ok, "operation %s (%s %s) has no client method: add one to package client and to the operations table", op.id, op.method, op.path)
	}
	for id := range operations {
		require.True(t, slices.Contains(documented, id), "the operations table names %s, which api/openapi.json does not describe", id)
	}
	typ := reflect.TypeFor[*client.Client]()
	var methods []string
	for m := range typ.Methods() {
		methods = append(methods, m.Name)
	}
	mapped := map[string]bool{}
	for id, name := range operations {
		require.Contains(t, methods, name, "operation %s: *client.Client has no method %s", id, name)
		require.False(t, mapped[name], "method %s is mapped twice", name)
		mapped[name] = true
	}
	for _, name := range methods {
		if _, ok := walkers[name]; ok {
			continue
		}
		require.True(t, mapped[name], "*client.Client.%s calls no OpenAPI operation: map it in the operations table", name)
	}
	for name, id := range walkers {
		require.Contains(t, methods, name)
		require.Contains(t, documented, id, "walker %s", name)
	}
}
