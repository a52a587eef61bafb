package client_test

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/lifecycle"
	"github.com/zaxy/zaxy/client"
)

// jsonFields are the JSON names of t's fields, embedded structs flattened, "-" left out.
func jsonFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case f.Anonymous && name == "":
			out = append(out, jsonFields(f.Type)...)
		case name == "":
			out = append(out, f.Name)
		default:
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// TestShapes_RequestsMatchTheServer fails when a request shape the client sends (a body, or a
// query string, which encodeQuery writes from the same json tags) names other fields than the
// one the server decodes (package api).
func TestShapes_RequestsMatchTheServer(t *testing.T) {
	for _, tc := range []struct {
		name           string
		client, server any
	}{
		{"replay query", client.ReplayParams{}, api.ReplayQuery{}},
		{"facts query", client.FactsParams{}, api.FactsQuery{}},
		{"index query", client.IndexParams{}, api.IndexQuery{}},
		{"timeline query", client.TimelineParams{}, api.TimelineQuery{}},
		{"proposals query", client.ProposalsParams{}, api.ProposalsQuery{}},
		{"artifacts query", client.ArtifactsParams{}, api.ArtifactsQuery{}},
		{"cypher body", client.CypherRequest{}, api.CypherBody{}},
		{"erasure body", client.EraseRequest{}, api.ErasureBody{}},
		{"decision body", client.DecisionRequest{}, api.DecisionBody{}},
		{"prior body", client.PriorRequest{}, api.PriorBody{}},
		{"simulate body", client.SimulateRequest{}, api.SimulateBody{}},
		{"reflect body", client.ReflectRequest{}, api.ReflectBody{}},
		{"neighborhood body", client.NeighborhoodRequest{}, api.NeighborhoodBody{}},
		{"propose body", client.ProposeRequest{}, api.ProposeBody{}},
		{"revise body", client.ReviseRequest{}, api.ReviseBody{}},
		{"known unknown body", client.KnownUnknownRequest{}, api.KnownUnknownBody{}},
		{"score body", client.ScoreRequest{}, api.ScoreBody{}},
		{"checkout body", checkout.Request{}, api.CheckoutBody{}},
		{"assemble body", lifecycle.AssembleRequest{}, api.AssembleBody{}},
		{"after-turn body", client.AfterTurnRequest{}, api.AfterTurnBody{}},
		{"handoff body", lifecycle.HandoffRequest{}, api.HandoffBody{}},
		{"cleanup body", lifecycle.CleanupRequest{}, api.CleanupBody{}},
	} {
		require.Equal(t, jsonFields(reflect.TypeOf(tc.server)), jsonFields(reflect.TypeOf(tc.client)), tc.name)
	}
}
