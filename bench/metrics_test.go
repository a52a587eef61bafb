package bench

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestScoreLevel_HandComputed(t *testing.T) {
	// 1/log2(r+1) for ranks 1..4: 1, 0.63093, 0.5, 0.43068.
	l2, l3, l4 := 1/math.Log2(3), 1/math.Log2(4), 1/math.Log2(5)
	for name, tc := range map[string]struct {
		ranked, evidence []string
		want             levelScore
	}{
		"evidence first":    {[]string{"a", "b", "c"}, []string{"a"}, levelScore{1, 1, 1, 1, 1}},
		"evidence second":   {[]string{"b", "a", "c"}, []string{"a"}, levelScore{1, 1, 1, l2, 1}},
		"two of two at 1,3": {[]string{"a", "x", "b"}, []string{"a", "b"}, levelScore{1, 1, 1, (1 + l3) / (1 + l2), 1}},
		"one of two at 2":   {[]string{"x", "a", "y"}, []string{"a", "b"}, levelScore{1, 1, 0, l2 / (1 + l2), 0.5}},
		"evidence at 6": {[]string{"1", "2", "3", "4", "5", "a", "7", "8", "9", "10", "11"}, []string{"a"},
			levelScore{0, 1, 1, 1 / math.Log2(7), 1}},
		"evidence at 11":    {[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "a"}, []string{"a"}, levelScore{}},
		"nothing retrieved": {nil, []string{"a"}, levelScore{}},
		"no evidence":       {[]string{"a"}, nil, levelScore{}},
		// Repeats collapse to the first occurrence (a session at the rank of its best turn),
		// and events without a benchmark id take no rank.
		"repeats and blanks": {[]string{"s1", "s1", "", "s2", "s1", "s3"}, []string{"s3", "s2"},
			levelScore{1, 1, 1, (l2 + l3) / (1 + l2), 1}},
		"all@10 needs every one": {[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}, []string{"a", "k"},
			levelScore{1, 1, 0, 1 / (1 + l2), 0.5}},
		"one of three": {[]string{"a", "x"}, []string{"a", "b", "c"},
			levelScore{1, 1, 0, 1 / (1 + l2 + l3), 1.0 / 3}},
		"four relevant": {[]string{"x", "a", "b", "c", "d"}, []string{"a", "b", "c", "d"},
			levelScore{1, 1, 1, (l2 + l3 + l4 + 1/math.Log2(6)) / (1 + l2 + l3 + l4), 1}},
	} {
		t.Run(name, func(t *testing.T) {
			got := scoreLevel(tc.ranked, tc.evidence)
			require.Equal(t, tc.want.anyAt5, got.anyAt5, "recall_any@5")
			require.Equal(t, tc.want.anyAt10, got.anyAt10, "recall_any@10")
			require.Equal(t, tc.want.allAt10, got.allAt10, "recall_all@10")
			require.InDelta(t, tc.want.ndcgAt10, got.ndcgAt10, 1e-12, "ndcg@10")
			require.Equal(t, tc.want.recallAt10, got.recallAt10, "recall@10")
		})
	}
	require.InDelta(t, 0.63093, l2, 1e-5)
}

func TestPercentile_NearestRank(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var out []time.Duration
		for _, x := range v {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	require.Equal(t, 0.0, percentile(nil, 50))
	require.Equal(t, 7.0, percentile(ms(7), 95))
	d := ms(10, 1, 9, 2, 8, 3, 7, 4, 6, 5) // 1..10
	require.Equal(t, 5.0, percentile(d, 50))
	require.Equal(t, 10.0, percentile(d, 95))
	require.Equal(t, 9.0, percentile(d, 90))
}

func TestSummarize_GroupsAndExclusions(t *testing.T) {
	ms := time.Millisecond
	rs := []questionResult{
		{typ: "a", hasSession: true, hasTurn: true, fusedSess: levelScore{1, 1, 1, 1, 1}, fusedTurn: levelScore{1, 1, 0, 0.5, 0.5},
			kwSess: levelScore{0, 1, 1, 0.5, 1}, packetHit: true, tokens: 100, latency: 10 * ms, kwLatency: 2 * ms},
		{typ: "a", hasSession: true, hasTurn: true, fusedSess: levelScore{0, 1, 0, 0.25, 0.5}, tokens: 300, latency: 30 * ms, kwLatency: 4 * ms},
		// Abstention: counted, timed and its tokens averaged, but not scored.
		{typ: "b", abstain: true, hasSession: true, fusedSess: levelScore{1, 1, 1, 1, 1}, tokens: 200, latency: 20 * ms, kwLatency: 3 * ms},
		// No turn evidence: scored at session level only, and not in packet_evidence.
		{typ: "b", hasSession: true, fusedSess: levelScore{1, 1, 1, 1, 1}, tokens: 0, latency: 40 * ms, kwLatency: 1 * ms},
	}
	all, by := summarize(rs)
	require.Equal(t, "all", all.Name)
	require.Equal(t, 4, all.Questions)
	require.Equal(t, 1, all.Abstention)
	require.Equal(t, LevelScores{Questions: 3, RecallAny5: 2.0 / 3, RecallAny10: 1, RecallAll10: 2.0 / 3, NDCG10: 2.25 / 3, Recall10: 2.5 / 3}, all.Fused.Session)
	require.Equal(t, LevelScores{Questions: 2, RecallAny5: 0.5, RecallAny10: 0.5, RecallAll10: 0, NDCG10: 0.25, Recall10: 0.25}, all.Fused.Turn)
	require.Equal(t, LevelScores{Questions: 3, RecallAny5: 0, RecallAny10: 1.0 / 3, RecallAll10: 1.0 / 3, NDCG10: 0.5 / 3, Recall10: 1.0 / 3}, all.KeywordOnly.Session)
	require.Equal(t, 0.5, all.PacketEvidence)
	require.Equal(t, 150.0, all.PacketTokensMean)
	require.Equal(t, 300, all.PacketTokensMax)
	require.Equal(t, 20.0, all.LatencyP50Ms)
	require.Equal(t, 40.0, all.LatencyP95Ms)
	require.Equal(t, 2.0, all.KeywordLatencyP50Ms)
	require.Len(t, by, 2)
	require.Equal(t, "a", by[0].Name)
	require.Equal(t, "b", by[1].Name)
	require.Equal(t, 1, by[1].Fused.Session.Questions)
	require.Equal(t, 0, by[1].Fused.Turn.Questions)
	require.Equal(t, 0.0, by[1].PacketEvidence)
}
