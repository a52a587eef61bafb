package checkout_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/vocab"
)

func TestBuiltinPolicies_AreVersionedAndAgreeWithTheVocabulary(t *testing.T) {
	require.Equal(t, slices.Sorted(slices.Values(vocab.BuiltinPolicyVersions)), checkout.DefinedBuiltinPolicyVersions(),
		"checkout defines a policy for each of vocab's built-in versions and for no other")
	require.Equal(t, vocab.DefaultBuiltinPolicyVersion, checkout.BuiltinPolicyVersion)
	require.Equal(t, checkout.BuiltinPolicyVersion, checkout.BuiltinPolicy().Version)
	for _, v := range vocab.BuiltinPolicyVersions {
		p := checkout.BuiltinPolicyOf(v)
		require.NotNil(t, p, v)
		require.Equal(t, v, p.Version)
		p.LaneWeights[checkout.PurposeGeneral][checkout.LaneKeyword] = 99
		require.NotEqual(t, 99.0, checkout.BuiltinPolicyOf(v).Weight(checkout.PurposeGeneral, checkout.LaneKeyword), "a copy, not the shared policy")
	}
	require.Nil(t, checkout.BuiltinPolicyOf("builtin-11"))
	require.Nil(t, checkout.BuiltinPolicyOf("fit-0123456789ab"))

	// builtin-2 is builtin-1 with a weaker named-speaker prior and nothing else.
	one, two := checkout.BuiltinPolicyOf(checkout.FirstBuiltinPolicyVersion), checkout.BuiltinPolicyOf("builtin-2")
	require.Equal(t, 3.0, one.NamedSpeakerBoost)
	require.Less(t, two.NamedSpeakerBoost, one.NamedSpeakerBoost)
	require.Greater(t, two.NamedSpeakerBoost, 1.0, "the named speaker's turns still come first among equals")
	three := checkout.BuiltinPolicyOf("builtin-3")
	two.Version, two.NamedSpeakerBoost = one.Version, one.NamedSpeakerBoost
	requireSameContent(t, one, two)

	// builtin-3 is builtin-2 with the remedy lane and the tools' state out of the stable tier.
	require.Equal(t, 1.0, three.Weight(checkout.PurposeDebugging, checkout.LaneRemedy))
	require.Zero(t, two.Weight(checkout.PurposeDebugging, checkout.LaneRemedy), "the lane does not run under builtin-2")
	require.True(t, three.StableOmitsToolState)
	require.False(t, two.StableOmitsToolState)
	two = checkout.BuiltinPolicyOf("builtin-2")
	delete(three.LaneWeights[checkout.PurposeGeneral], checkout.LaneRemedy)
	three.Version, three.StableOmitsToolState = two.Version, false
	requireSameContent(t, two, three)
	// A policy without the field (every one fitted before builtin-3) keeps its bytes and so
	// its version.
	raw, err := two.Content()
	require.NoError(t, err)
	require.NotContains(t, string(raw), "stable_omits_tool_state")

	// builtin-4 is builtin-3 with the keyword lane weighed by score, builtin-5 is builtin-4
	// with repeated statements ranked as one, builtin-6 is builtin-5 with the reply lane
	// following statements at 0.3, builtin-7 is builtin-6 with the weave showing the reply
	// lane's best 3 answers first.
	requireOneSwitchApart(t, "builtin-3", "builtin-4", "keyword_by_score", true, func(p *checkout.Policy) *bool { return &p.KeywordByScore })
	requireOneSwitchApart(t, "builtin-4", "builtin-5", "collapse_repeated_facts", true, func(p *checkout.Policy) *bool { return &p.CollapseRepeatedFacts })
	requireOneSwitchApart(t, "builtin-5", "builtin-6", "reply_after_statements", 0.3, func(p *checkout.Policy) *float64 { return &p.ReplyAfterStatements })
	requireOneSwitchApart(t, "builtin-6", "builtin-7", "weave_reply_answers", 3, func(p *checkout.Policy) *int { return &p.WeaveReplyAnswers })

	// builtin-8 is builtin-7 with the taste prior at 1.25.
	requireOneSwitchApart(t, "builtin-7", "builtin-8", "taste_boost", 1.25, func(p *checkout.Policy) *float64 { return &p.TasteBoost })
	require.Zero(t, checkout.BuiltinPolicyOf("builtin-8").ResolutionBoost, "builtin-8 has no resolution prior")

	// builtin-9 is builtin-8 with the resolution prior at 2 inside the best candidate's
	// session, and pasted messages at 0.5, for a question about a fix or a decision; no
	// older version's content names the fields.
	eight, nine := checkout.BuiltinPolicyOf("builtin-8"), checkout.BuiltinPolicyOf("builtin-9")
	require.Equal(t, [3]float64{2, 1, 0.5}, [3]float64{nine.ResolutionBoost, float64(nine.ResolutionSessions), nine.ResolutionPasted})
	nine.Version, nine.ResolutionBoost, nine.ResolutionSessions, nine.ResolutionPasted = eight.Version, 0, 0, 0
	requireSameContent(t, eight, nine)
	raw, err = eight.Content()
	require.NoError(t, err)
	for _, field := range []string{"resolution_boost", "resolution_sessions", "resolution_pasted"} {
		require.NotContains(t, string(raw), field)
	}

	// builtin-10 is builtin-9 with the activity prior at 1.25.
	requireOneSwitchApart(t, "builtin-9", "builtin-10", "activity_boost", 1.25, func(p *checkout.Policy) *float64 { return &p.ActivityBoost })
}

// requireOneSwitchApart checks that built-in policy newer is older with one switch set to want,
// and that older's content does not name the switch (so policies fitted before it keep their
// versions).
func requireOneSwitchApart[T comparable](t *testing.T, older, newer, field string, want T, switchOf func(*checkout.Policy) *T) {
	t.Helper()
	var zero T
	o, n := checkout.BuiltinPolicyOf(older), checkout.BuiltinPolicyOf(newer)
	require.Equal(t, want, *switchOf(n), newer)
	require.Equal(t, zero, *switchOf(o), older)
	n.Version, *switchOf(n) = o.Version, zero
	requireSameContent(t, o, n)
	raw, err := o.Content()
	require.NoError(t, err)
	require.NotContains(t, string(raw), field)
}

// TestKeywordByScore_ACommonWordsHitsNoLongerOutrankTheAnswer: in a small coding space every
// event shares the project's name with the question. Under ranks alone (builtin-3) short turns
// that say only "payments" outrank the answer, which shares the question's rarer words too (the
// keyword lane ranks it first, the vector lane below the short turns). Under builtin-4 the
// keyword lane's contributions follow their BM25 score, and the answer is among the first two.
func TestKeywordByScore_ACommonWordsHitsNoLongerOutrankTheAnswer(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "byscore"
	f.append(t, space,
		said("s1", "user", "The payments CI job keeps failing; can you look into it?", 0),
		said("s1", "assistant", "I'll run the payments test suite first.", 1),
		call("s1", "payments_test", "", 2),
		said("s1", "user", "Also bump the payments retry limit to 5 in the config.", 3),
		said("s1", "assistant", "Done: the payments retry limit is 5.", 4),
		said("s2", "user", "Deploy the payments fix to staging.", 10),
		said("s2", "assistant", "Deployed payments v1.8.3 to staging.", 11),
		said("s2", "user", "Payments again.", 12),
		said("s2", "assistant", "Payments, yes.", 12),
		said("s2", "user", "The payments one.", 12),
		said("s2", "assistant", "Priya is on call for payments until Friday, and Marco takes over from her next week.", 13),
	)
	f.index(t, space)
	rank := func(version string) []string {
		svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: checkout.BuiltinPolicyOf(version)})
		res, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: "Who is on call for payments?"})
		require.NoError(t, err)
		var out []string
		for _, it := range res.Items {
			out = append(out, it.Text)
		}
		return out
	}
	answer := "Priya is on call for payments until Friday, and Marco takes over from her next week."
	three, four := rank("builtin-3"), rank("builtin-4")
	require.Greater(t, slices.Index(three, answer), 1, "under builtin-3: %q", three)
	require.Less(t, slices.Index(four, answer), 2, "under builtin-4: %q", four)
}

func requireSameContent(t *testing.T, a, b *checkout.Policy) {
	t.Helper()
	x, err := a.Content()
	require.NoError(t, err)
	y, err := b.Content()
	require.NoError(t, err)
	require.JSONEq(t, string(x), string(y))
}

// TestNamedSpeakerPrior_Builtin2KeepsAnotherSpeakersAnswerInSight: a question that names the
// wrong person ("what did Caroline do after the road trip", when Melanie did it). Under
// builtin-1 the named speaker's turns that share no word with it (found by the vector lane
// alone) outrank the turn that answers it (found by the keyword lane too); under builtin-2 the
// answer comes first, and the named speaker's turns still outrank another speaker's alike.
func TestNamedSpeakerPrior_Builtin2KeepsAnotherSpeakersAnswerInSight(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	const space = "speakers"
	f.append(t, space,
		turn("s1", "Caroline", "user", "The adoption paperwork is finally done."),
		turn("s1", "Melanie", "assistant", "After the road trip we went camping by the lake to relax with the kids."),
		turn("s1", "Caroline", "user", "Painting sunsets is my favourite hobby."),
		turn("s2", "Caroline", "user", "We drove home late after the parade."),
		turn("s2", "Melanie", "assistant", "We drove home early after the concert."),
	)
	f.index(t, space)
	rank := func(p *checkout.Policy) []string {
		svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: p})
		res, err := svc.Query(ctx, &checkout.Request{SpaceID: space, Query: "What did Caroline do after the road trip to relax?"})
		require.NoError(t, err)
		require.Equal(t, p.Version, res.PolicyVersion)
		var out []string
		for _, it := range res.Items {
			out = append(out, it.Text)
		}
		return out
	}
	answer := "After the road trip we went camping by the lake to relax with the kids."
	one := rank(checkout.BuiltinPolicyOf(checkout.FirstBuiltinPolicyVersion))
	two := rank(checkout.BuiltinPolicyOf("builtin-2"))
	require.Greater(t, slices.Index(one, answer), 0, "builtin-1 ranks the named speaker's turns first: %q", one)
	require.Equal(t, 0, slices.Index(two, answer), "builtin-2 ranks the answering turn first: %q", two)
	// Of two turns alike, the named speaker's still comes first.
	require.Less(t, slices.Index(two, "We drove home late after the parade."), slices.Index(two, "We drove home early after the concert."), "%q", two)
}

// TestPolicyContent_AddressesStayWhatTheyWere pins the content address of every built-in
// policy: a fitted policy's version is the address of its content, so the content's bytes must
// never change for a policy that already exists (a new switch is omitted while off).
func TestPolicyContent_AddressesStayWhatTheyWere(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"builtin-1": "fit-052a67369331", "builtin-2": "fit-fabdf6b3389d", "builtin-3": "fit-bfa5760ed4e7",
		"builtin-4": "fit-17283869cf03", "builtin-5": "fit-f3e7861acd1b", "builtin-6": "fit-c2a50e81ab22",
		"builtin-7": "fit-3389c8b9eddb", "builtin-8": "fit-73ad965cc07d", "builtin-9": "fit-c351fe8f604a",
		"builtin-10": "fit-a8bf85838df5",
	}
	require.Len(t, want, len(vocab.BuiltinPolicyVersions))
	for _, v := range vocab.BuiltinPolicyVersions {
		got, err := checkout.PolicyVersionOf(checkout.BuiltinPolicyOf(v))
		require.NoError(t, err)
		require.Equal(t, want[v], got, v)
		raw, err := checkout.BuiltinPolicyOf(v).Content()
		require.NoError(t, err)
		require.NotContains(t, string(raw), `"version"`)
	}
}

func TestPolicyMechanism_NamedRecordOrRejected(t *testing.T) {
	for _, v := range vocab.BuiltinPolicyVersions {
		require.Equal(t, checkout.FirstMechanismVersion, checkout.MechanismOf(checkout.BuiltinPolicyOf(v).MechanismVersion).Version, v)
	}
	m := checkout.MechanismOf(checkout.FirstMechanismVersion)
	require.InDelta(t, 2.0/61, m.RankScore(2, 1), 1e-15)

	content, err := checkout.BuiltinPolicy().Content()
	require.NoError(t, err)
	require.NotContains(t, string(content), "mechanism_version", "the first record is left out of the content")
	_, err = checkout.DecodePolicy("fit-0123456789ab", append(content[:len(content)-1:len(content)-1], []byte(`,"mechanism_version":"mechanism-99"}`)...))
	require.ErrorContains(t, err, `no mechanism record "mechanism-99"`)
	p, err := checkout.DecodePolicy("fit-0123456789ab", append(content[:len(content)-1:len(content)-1], []byte(`,"mechanism_version":"mechanism-1"}`)...))
	require.NoError(t, err)
	require.Same(t, m, checkout.MechanismOf(p.MechanismVersion))
}

// TestMechanism1_StaysWhatItIs pins the first mechanism record: every built-in policy ranks
// with it, so a change to it is a new record, never an edit of this one.
func TestMechanism1_StaysWhatItIs(t *testing.T) {
	require.Equal(t, checkout.Mechanism{
		Version:               checkout.FirstMechanismVersion,
		MinWordBytes:          3,
		EntityKeyWords:        4,
		NameWords:             3,
		MonthYears:            10,
		MaxTextWindowDays:     31,
		RRFK:                  60,
		AttenuateInvalidated:  0.2,
		AttenuateClosed:       0.3,
		SalienceWeight:        0.25,
		SessionContextShare:   0.3,
		CueBoostPerMatch:      1.2,
		CueBoostMax:           1.5,
		LaneK:                 100,
		RecentK:               10,
		ReplyK:                30,
		StableK:               40,
		TopicK:                20,
		SpeakerTail:           1000,
		VerbatimRows:          1000,
		KeywordCandidates:     1000,
		BM25K1:                1.2,
		BM25B:                 0.75,
		HNSWMaxK:              40,
		RemedyFollow:          6,
		RemedyMinShare:        0.5,
		PPRRestart:            0.15,
		PPRHops:               2,
		PPRFanout:             20,
		PPRFrontier:           32,
		PPRNodeBudget:         500,
		PPRIterations:         30,
		PPRVectorSeeds:        5,
		MaxItemChars:          1200,
		MaxExcerptWords:       32,
		MaxExcerptOccurrences: 1024,
		StableShare:           0.25,
		SessionShare:          0.20,
		QueryCandidates:       60,
		MinValueTokens:        300,
		WeaveShare:            0.5,
		WeaveCandidateItems:   60,
		WeaveCitedLimit:       64,
		WeavePhaseLimit:       16,
		WeaveVerifyLimit:      16,
		WeaveVerifySources:    384,
		WeaveEvidencePer:      3,
		WeaveExcerptChars:     280,
		WeaveInferredChars:    100,
		WeaveSummaryChars:     240,
		WeaveLowConfidence:    0.5,
		PriorRows:             200,
		PriorVerify:           6,
		MaxPriors:             3,
		PriorFailureLast:      3,
	}, *checkout.MechanismOf(checkout.FirstMechanismVersion))
}
