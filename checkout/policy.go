package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/vocab"
)

// BuiltinPolicyVersion is the version of the default built-in retrieval policy: the one a
// space without a promoted policy ranks with (vocab.DefaultBuiltinPolicyVersion).
const BuiltinPolicyVersion = vocab.DefaultBuiltinPolicyVersion

// FirstBuiltinPolicyVersion is the first built-in policy (vocab.FirstBuiltinPolicyVersion): a
// version a space can promote, and the version of a checkout.surfaced event that names no
// policy.
const FirstBuiltinPolicyVersion = vocab.FirstBuiltinPolicyVersion

// mechanismOf is the mechanism record p ranks with (MechanismVersion; DecodePolicy rejects a
// version without a record).
func mechanismOf(p *Policy) *Mechanism {
	return MechanismOf(p.MechanismVersion)
}

// builtinPolicy1 is the first built-in policy (TestCheckout_BuiltinPolicyPacketsAreTodays pins
// its packets).
var builtinPolicy1 = &Policy{
	Version: FirstBuiltinPolicyVersion,
	LaneWeights: map[string]map[string]float64{
		PurposeGeneral:     {LaneExact: 1.0, LaneKeyword: 1.0, LaneVector: 1.2, LaneGraph: 0.5, LaneVerbatim: 1.0, LaneRecent: 0.3, LaneTopic: 0.4, LaneReply: 1.0},
		PurposeDebugging:   {LaneRecent: 0.6, LaneKeyword: 1.2},
		PurposeExploration: {LaneVector: 1.0, LaneGraph: 0.7},
		PurposePlanning:    {LaneGraph: 0.7, LaneRecent: 0.5},
		PurposeReview:      {LaneRecent: 0.5},
	},
	// Debugging leans on failures and invalidations, implementation on facts and decisions,
	// exploration on episodes (messages and documents).
	KindBoosts: map[string]map[string]float64{
		PurposeDebugging:      {"tool_call.failure": 1.6, "memory.invalidated": 1.3, "tool_call.completed": 1.2},
		PurposeImplementation: {"fact": 1.3, "decision.recorded": 1.3, "document.chunk": 1.1},
		PurposeExploration:    {"message": 1.2, "document.chunk": 1.2},
		PurposePlanning:       {"decision.recorded": 1.4, "task.updated": 1.4},
		PurposeReview:         {"decision.recorded": 1.2, "fact": 1.2},
		PurposeRefactoring:    {"fact": 1.2, "decision.recorded": 1.2, "document.chunk": 1.1},
	},
	SpeakerBoost:      1.5,
	NamedSpeakerBoost: 3.0,
	TemporalBoost:     2.0,
}

// builtinPolicy2 is builtin-2: builtin-1 with the named-speaker prior at 1.5 instead of 3, so
// that a turn correcting a question that names the wrong person stays in sight (speaker.go).
var builtinPolicy2 = derivePolicy(builtinPolicy1, "builtin-2", func(p *Policy) { p.NamedSpeakerBoost = 1.5 })

// builtinPolicy3 is builtin-3: builtin-2 for agents' tool calls. The
// remedy lane runs (weight 1 for every purpose, as the reply lane: what followed a ranked
// failure, lane_remedy.go), and the stable tier leaves the tools' state facts to the query tier
// (StableOmitsToolState). A space without tool calls ranks and packs as under builtin-2.
var builtinPolicy3 = derivePolicy(builtinPolicy2, "builtin-3", func(p *Policy) {
	p.StableOmitsToolState = true
	p.LaneWeights[PurposeGeneral][LaneRemedy] = 1.0
})

// builtinPolicy4 is builtin-4: builtin-3 with the keyword lane's contributions scaled by their
// BM25 score (KeywordByScore).
var builtinPolicy4 = derivePolicy(builtinPolicy3, "builtin-4", func(p *Policy) { p.KeywordByScore = true })

// builtinPolicy5 is builtin-5: builtin-4 with the fact versions that state the same thing ranked
// as one (CollapseRepeatedFacts). A space whose facts never repeat a statement ranks as under
// builtin-4.
var builtinPolicy5 = derivePolicy(builtinPolicy4, "builtin-5", func(p *Policy) { p.CollapseRepeatedFacts = true })

// builtinPolicy6 is builtin-6: builtin-5 with the reply lane also following what a named speaker
// says after a statement, at 0.3 of the lane's weight (ReplyAfterStatements). A question that
// names no speaker ranks as under builtin-5.
var builtinPolicy6 = derivePolicy(builtinPolicy5, "builtin-6", func(p *Policy) { p.ReplyAfterStatements = 0.3 })

// builtinPolicy7 is builtin-7: builtin-6 with a memory weave showing the reply lane's best 3
// answers first (WeaveReplyAnswers). It ranks as builtin-6, and a packet without a weave is
// builtin-6's.
var builtinPolicy7 = derivePolicy(builtinPolicy6, "builtin-7", func(p *Policy) { p.WeaveReplyAnswers = 3 })

// builtinPolicy8 is builtin-8: builtin-7 with the taste prior at 1.25 (TasteBoost, taste.go). A
// question that asks for no recommendation ranks as under builtin-7.
var builtinPolicy8 = derivePolicy(builtinPolicy7, "builtin-8", func(p *Policy) { p.TasteBoost = 1.25 })

// builtinPolicy9 is builtin-9: builtin-8 with the resolution prior (resolution.go) at 2 inside
// the session of the best fused candidate only (ResolutionSessions 1), and pasted logs and code
// at 0.5 (ResolutionPasted), for a question about how something was fixed or decided. A question
// about neither ranks as under builtin-8.
var builtinPolicy9 = derivePolicy(builtinPolicy8, "builtin-9", func(p *Policy) {
	p.ResolutionBoost, p.ResolutionSessions, p.ResolutionPasted = 2, 1, 0.5
})

// builtinPolicy is the default built-in policy, builtin-10: builtin-9 with the activity prior
// (activity.go) at 1.25 (ActivityBoost) for a question that gathers what its asker has done. A
// question that does not ranks as under builtin-9.
var builtinPolicy = derivePolicy(builtinPolicy9, BuiltinPolicyVersion, func(p *Policy) { p.ActivityBoost = 1.25 })

// derivePolicy is a built-in policy made from base: a copy named version, changed by change.
func derivePolicy(base *Policy, version string, change func(*Policy)) *Policy {
	p := base.Clone()
	p.Version = version
	change(p)
	return p
}

// builtinPolicies are the built-in policies by version: one for each of
// vocab.BuiltinPolicyVersions (TestBuiltinPolicies_AreVersionedAndAgreeWithTheVocabulary).
var builtinPolicies = map[string]*Policy{FirstBuiltinPolicyVersion: builtinPolicy1, builtinPolicy2.Version: builtinPolicy2,
	builtinPolicy3.Version: builtinPolicy3, builtinPolicy4.Version: builtinPolicy4, builtinPolicy5.Version: builtinPolicy5,
	builtinPolicy6.Version: builtinPolicy6, builtinPolicy7.Version: builtinPolicy7, builtinPolicy8.Version: builtinPolicy8,
	builtinPolicy9.Version: builtinPolicy9, BuiltinPolicyVersion: builtinPolicy}

// BuiltinPolicy returns a copy of the default built-in policy (BuiltinPolicyVersion).
func BuiltinPolicy() *Policy { return builtinPolicy.Clone() }

// BuiltinPolicyOf returns a copy of the built-in policy named version, or nil when version is
// not a built-in one.
func BuiltinPolicyOf(version string) *Policy {
	if p := builtinPolicies[version]; p != nil {
		return p.Clone()
	}
	return nil
}

// PolicyVersionOf is the content-addressed version of a fitted policy: "fit-" and the first
// 12 hex digits of the sha256 of its Content.
func PolicyVersionOf(p *Policy) (string, error) {
	raw, err := p.Content()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(raw)
	return "fit-" + hex.EncodeToString(sum[:6]), nil
}

// DecodePolicy reads a policy's Content back and names it version.
func DecodePolicy(version string, content []byte) (*Policy, error) {
	p := &Policy{}
	if err := json.Unmarshal(content, p); err != nil {
		return nil, fmt.Errorf("decode policy %s: %w", version, err)
	}
	p.Version = version
	if MechanismOf(p.MechanismVersion) == nil {
		return nil, fmt.Errorf("decode policy %s: no mechanism record %q", version, p.MechanismVersion)
	}
	if p.LaneWeights == nil || p.LaneWeights[PurposeGeneral] == nil {
		return nil, fmt.Errorf("decode policy %s: no general lane weights", version)
	}
	if p.KindBoosts == nil {
		p.KindBoosts = map[string]map[string]float64{}
	}
	return p, nil
}

// CurrentPolicy is the policy space ranks with now: its promoted policy, or the built-in one.
func (s *Service) CurrentPolicy(ctx context.Context, space string) (*Policy, error) {
	if s.cfg.Policy != nil {
		return s.cfg.Policy, nil
	}
	row, err := queries.PolicyCurrent(ctx, s.pool, space)
	if errors.Is(err, pgx.ErrNoRows) {
		return builtinPolicy, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read retrieval policy of %q: %w", space, err)
	}
	if p := builtinPolicies[row.Version]; p != nil {
		return p, nil
	}
	if row.Policy == nil {
		return nil, fmt.Errorf("retrieval policy %s of %q has no content", row.Version, space)
	}
	// A fitted version addresses its content, so a decoded one is good for every space.
	if p, ok := s.decoded.Load(row.Version); ok {
		return p.(*Policy), nil
	}
	p, err := DecodePolicy(row.Version, row.Policy)
	if err != nil {
		return nil, err
	}
	s.decoded.Store(row.Version, p)
	return p, nil
}
