package checkout_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden packets: checkout/testdata/builtin_policy_packets.json and checkout/testdata/golden/")

// goldenAsOf is the fixed time the golden packets are asked at.
var goldenAsOf = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// seedPolicySpace is seedSpace with every event's occurred_at fixed, so the packets are the
// same bytes in every run (the citations' hashes, which depend on recorded_at, are masked).
func seedPolicySpace(t *testing.T, f *fixture, space string) {
	t.Helper()
	at := func(e eventloom.NewEvent, day int) eventloom.NewEvent {
		ts := time.Date(2025, 3, day, 12, 0, 0, 0, time.UTC)
		e.OccurredAt = &ts
		return e
	}
	f.append(t, space,
		fact("deploy pipeline", "runs on", "Jenkins", "2024-01-01T00:00:00Z"),
		fact("deploy pipeline", "runs on", "GitHub Actions", "2024-05-01T00:00:00Z"),
		fact("Dana", "owns", "deploy pipeline", "2024-01-01T00:00:00Z"),
		fact("Dana", "prefers", "small pull requests", "2024-01-01T00:00:00Z"),
		at(msg("s1", "user", "The staging deploy failed again with a timeout while pushing the image to the registry."), 1),
		at(msg("s1", "assistant", "The registry timeout comes from the 30s client limit in cmd/deploy/push.go; raising it to 120s fixed the last failure."), 1),
		at(eventloom.NewEvent{Type: "tool_call.completed", SessionID: "s1", Content: "ran the deploy",
			Data: json.RawMessage(`{"tool":"make deploy","outcome":"failure","error":"context deadline exceeded pushing image"}`)}, 2),
		at(msg("s2", "user", "Let's plan the billing service migration for next quarter."), 3),
		at(msg("s2", "user", "The billing migration needs a schema freeze first; Dana decided the deploy pipeline stays frozen during it."), 4),
		at(eventloom.NewEvent{Type: "decision.recorded", SessionID: "s2", Content: "Freeze the billing schema two weeks before the migration.",
			Data: json.RawMessage(`{"decision":"freeze the billing schema two weeks before the migration"}`)}, 5),
		at(msg("s3", "user", "Which deploy failures did we see and how were they fixed?"), 6),
	)
}

// goldenQueries are the requests whose packets the golden file holds, one per purpose family.
var goldenQueries = []checkout.Request{
	{Query: "Why did the deploy to the registry time out?"},
	{Query: "Why did the deploy to the registry time out?", Purpose: checkout.PurposeDebugging},
	{Query: "plan the billing migration", Purpose: checkout.PurposePlanning},
	{Query: "what does Dana prefer and own", Purpose: checkout.PurposeImplementation},
	{Query: "deploy pipeline history", Purpose: checkout.PurposeExploration, SessionID: "s3"},
	{Query: "billing schema decision", Purpose: checkout.PurposeReview, MaxTokens: 300},
}

var hashes = regexp.MustCompile(`[0-9a-f]{64}|#[0-9a-f]{8}`)

// packetBytes is a packet's content as bytes: everything but the timings (which vary by run),
// the policy diagnostics and the citations' hashes (which depend on when the events were
// recorded).
func packetBytes(t *testing.T, p *checkout.Packet) []byte {
	t.Helper()
	c := *p
	c.Diagnostics = checkout.Diagnostics{}
	raw, err := json.Marshal(c)
	require.NoError(t, err)
	return hashes.ReplaceAll(raw, []byte("#"))
}

// goldenPackets checks out every golden query in space with no_record and the fixed as_of,
// ranked with the policy version.
func goldenPackets(t *testing.T, f *fixture, space, version string) []json.RawMessage {
	t.Helper()
	svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf(version)})
	var out []json.RawMessage
	for _, q := range goldenQueries {
		r := q
		r.SpaceID, r.NoRecord, r.AsOf = space, true, &goldenAsOf
		p, err := svc.Checkout(context.Background(), &r)
		require.NoError(t, err)
		require.Equal(t, version, p.Diagnostics.PolicyVersion)
		out = append(out, packetBytes(t, p))
	}
	return out
}

// TestCheckout_BuiltinPolicyPacketsAreTodays: the packets builtin-1 gives over a small fixed
// space are the bytes in testdata/builtin_policy_packets.json (regenerate with -update only for
// a deliberate change to the fixture). builtin-2 differs only in the named-speaker prior, so on
// this space, where no question names a speaker, its packets are the same bytes; builtin-3
// differs only in what follows a failed tool call and in the tools' state facts. The packets of
// every built-in version over a richer fixture are TestCheckout_BuiltinPolicyVersionsGiveTheirGoldenPackets'.
func TestCheckout_BuiltinPolicyPacketsAreTodays(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	seedPolicySpace(t, f, "golden")
	f.index(t, "golden")
	got, err := json.MarshalIndent(goldenPackets(t, f, "golden", checkout.FirstBuiltinPolicyVersion), "", " ")
	require.NoError(t, err)
	const file = "testdata/builtin_policy_packets.json"
	if *updateGolden {
		require.NoError(t, os.WriteFile(file, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got)+"\n")
	two, err := json.MarshalIndent(goldenPackets(t, f, "golden", "builtin-2"), "", " ")
	require.NoError(t, err)
	require.Equal(t, string(got), string(two))

	// builtin-3 differs in tool calls only: this space's one failed call has nothing after it
	// (so the remedy lane finds nothing), and its tool's state leaves the stable tier.
	three := goldenPackets(t, f, "golden", checkout.BuiltinPolicyVersion)
	for i, raw := range goldenPackets(t, f, "golden", "builtin-2") {
		var p2, p3 struct {
			Tiers []struct{ Items []struct{ Text string } }
		}
		require.NoError(t, json.Unmarshal(raw, &p2))
		require.NoError(t, json.Unmarshal(three[i], &p3))
		var want, stable3 []string
		for _, it := range p2.Tiers[0].Items {
			if !strings.HasPrefix(it.Text, "make deploy last_") {
				want = append(want, it.Text)
			}
		}
		for _, it := range p3.Tiers[0].Items {
			stable3 = append(stable3, it.Text)
		}
		require.Equal(t, want, stable3, "query %d", i)
		if i == 0 {
			require.Less(t, len(want), len(p2.Tiers[0].Items), "builtin-2's stable tier held the tool's state")
		}
	}
}
