package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

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

// Policy is a retrieval policy: the weights and boosts checkout's fusion ranks with
// (docs/checkout.md, "Retrieval policy"). The built-in one is BuiltinPolicy; fitted ones are
// learned offline from a space's log (package policy) and promoted through a regression gate.
// A Policy is read-only once made: checkout shares it between requests.
type Policy struct {
	// Version names the policy: BuiltinPolicyVersion, or "fit-" and the first 12 hex digits of
	// the sha256 of the policy's canonical JSON without its version (PolicyVersionOf).
	Version string `json:"version,omitempty"`
	// LaneWeights are each purpose's lane weights; a lane a purpose does not name takes
	// general's weight. A lane weighed 0 does not run.
	LaneWeights map[string]map[string]float64 `json:"lane_weights"`
	// KindBoosts multiply an item's fused score by what it is (event type or "fact"), per
	// purpose; a kind a purpose does not name is not boosted.
	KindBoosts map[string]map[string]float64 `json:"kind_boosts"`
	// SpeakerBoost multiplies turns of the role a first-person question asks about (speaker.go).
	SpeakerBoost float64 `json:"speaker_boost"`
	// NamedSpeakerBoost multiplies turns of a speaker the question names.
	NamedSpeakerBoost float64 `json:"named_speaker_boost"`
	// TemporalBoost multiplies items inside a time window the question names (when.go).
	TemporalBoost float64 `json:"temporal_boost"`
	// StableOmitsToolState leaves the tools' state facts (last_outcome, last_error, which the
	// projector derives from tool calls) out of the stable tier (sql/checkout/stable_facts.sql);
	// the query tier still ranks them. True from builtin-3 on.
	StableOmitsToolState bool `json:"stable_omits_tool_state,omitempty"`
	// KeywordByScore scales each keyword hit's fused contribution by its BM25 score over the
	// lane's best (lane_keyword.go): fusion reads ranks, and a hit sharing one common word with
	// the question would rank nearly as the one sharing all its rare words. True from builtin-4
	// on.
	KeywordByScore bool `json:"keyword_by_score,omitempty"`
	// CollapseRepeatedFacts ranks the fact versions that state the same thing as one item, the
	// current or latest of them (collapse.go): a tool's state changes back and forth, and its
	// identical superseded versions would crowd agents' packets. True from builtin-5 on.
	CollapseRepeatedFacts bool `json:"collapse_repeated_facts,omitempty"`
	// ReplyAfterStatements, when above 0, has the reply lane also follow the keyword lane's hits
	// that ask nothing, to the next message when a speaker the question names says it, at this
	// share of the lane's weight (lane_reply.go). 0.3 from builtin-6 on.
	ReplyAfterStatements float64 `json:"reply_after_statements,omitempty"`
	// WeaveReplyAnswers, when above 0, has a memory weave show the reply lane's best this many
	// answers before the other ranked events (weave.go, packWeave). The reply lane ranks an
	// answer by the question before it, and only that lane ranks it, so fusion sets it below
	// events several lanes rank, past what a half-size packet shows. 3 from builtin-7 on. It
	// changes no ranking.
	WeaveReplyAnswers int `json:"weave_reply_answers,omitempty"`
	// MechanismVersion names the mechanism record the policy ranks with (mechanism.go): fusion's
	// constant, the attenuations, the lanes' k's, shares and caps. "" is FirstMechanismVersion,
	// and is left out of the policy's Content, so a policy that names no record is addressed by
	// the same Content as one made before mechanism records.
	MechanismVersion string `json:"mechanism_version,omitempty"`
}

// Mechanism is the mechanism record p ranks with (MechanismVersion; DecodePolicy rejects a
// version without a record).
func (p *Policy) Mechanism() *Mechanism {
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

// builtinPolicy is the default built-in policy, builtin-7: builtin-6 with a memory weave showing
// the reply lane's best 3 answers first (WeaveReplyAnswers). It ranks as builtin-6, and a packet
// without a weave is builtin-6's.
var builtinPolicy = derivePolicy(builtinPolicy6, BuiltinPolicyVersion, func(p *Policy) { p.WeaveReplyAnswers = 3 })

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
	builtinPolicy6.Version: builtinPolicy6, BuiltinPolicyVersion: builtinPolicy}

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

// Clone returns a deep copy of p.
func (p *Policy) Clone() *Policy {
	c := *p
	c.LaneWeights = cloneNested(p.LaneWeights)
	c.KindBoosts = cloneNested(p.KindBoosts)
	return &c
}

func cloneNested(m map[string]map[string]float64) map[string]map[string]float64 {
	out := make(map[string]map[string]float64, len(m))
	for k, v := range m {
		out[k] = maps.Clone(v)
	}
	return out
}

// Weight is lane's weight for purpose: the purpose's own, else general's.
func (p *Policy) Weight(purpose, lane string) float64 {
	if w, ok := p.LaneWeights[purpose][lane]; ok {
		return w
	}
	return p.LaneWeights[PurposeGeneral][lane]
}

// KindBoost is the multiplier of an item of kind under purpose (1 when none is set).
func (p *Policy) KindBoost(purpose, kind string) float64 {
	if b, ok := p.KindBoosts[purpose][kind]; ok {
		return b
	}
	return 1
}

// Content is the policy's canonical JSON without its version: what its version addresses and
// what a policy.proposed event carries. Go encodes map keys sorted and struct fields in order,
// so equal policies have equal bytes; a switch added later is omitempty, so a policy without it
// keeps its bytes and so its version (TestPolicyContent_AddressesStayWhatTheyWere).
func (p *Policy) Content() ([]byte, error) {
	c := *p
	c.Version = "" // omitted
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, fmt.Errorf("encode policy: %w", err)
	}
	return raw, nil
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
