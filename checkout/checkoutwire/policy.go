package checkoutwire

import (
	"encoding/json"
	"fmt"
	"maps"
)

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
	// SpeakerBoost multiplies turns of the role a first-person question asks about
	// (checkout/speaker.go).
	SpeakerBoost float64 `json:"speaker_boost"`
	// NamedSpeakerBoost multiplies turns of a speaker the question names.
	NamedSpeakerBoost float64 `json:"named_speaker_boost"`
	// TemporalBoost multiplies items inside a time window the question names (checkout/when.go).
	TemporalBoost float64 `json:"temporal_boost"`
	// StableOmitsToolState leaves the tools' state facts (last_outcome, last_error, which the
	// projector derives from tool calls) out of the stable tier (sql/checkout/stable_facts.sql);
	// the query tier still ranks them. True from builtin-3 on.
	StableOmitsToolState bool `json:"stable_omits_tool_state,omitempty"`
	// KeywordByScore scales each keyword hit's fused contribution by its BM25 score over the lane's
	// best (checkout/lane_keyword.go): fusion reads ranks, and a hit sharing one common word with
	// the question would rank nearly as the one sharing all its rare words. True from builtin-4 on.
	KeywordByScore bool `json:"keyword_by_score,omitempty"`
	// CollapseRepeatedFacts ranks the fact versions that state the same thing as one item, the
	// current or latest of them (checkout/collapse.go): a tool's state changes back and forth, and
	// its identical superseded versions would crowd agents' packets. True from builtin-5 on.
	CollapseRepeatedFacts bool `json:"collapse_repeated_facts,omitempty"`
	// ReplyAfterStatements, when above 0, has the reply lane also follow the keyword lane's hits
	// that ask nothing, to the next message when a speaker the question names says it, at this
	// share of the lane's weight (checkout/lane_reply.go). 0.3 from builtin-6 on.
	ReplyAfterStatements float64 `json:"reply_after_statements,omitempty"`
	// WeaveReplyAnswers, when above 0, has a memory weave show the reply lane's best this many
	// answers before the other ranked events (checkout/weave.go, packWeave). The reply lane ranks
	// an answer by the question before it, and only that lane ranks it, so fusion sets it below
	// events several lanes rank, past what a half-size packet shows. 3 from builtin-7 on. It
	// changes no ranking.
	WeaveReplyAnswers int `json:"weave_reply_answers,omitempty"`
	// TasteBoost, when above 0, multiplies the score of a user's own statement of a taste or a
	// habit ("I can't stand horror films", "I usually run before work") when the question asks
	// for a recommendation or what the user would like (checkout/taste.go).
	TasteBoost float64 `json:"taste_boost,omitempty"`
	// ResolutionBoost, when above 0, multiplies the score of a statement of a fix, a found cause or
	// a decision when the question asks how something was fixed or decided
	// (checkout/resolution.go).
	ResolutionBoost float64 `json:"resolution_boost,omitempty"`
	// ResolutionSessions, when above 0, has the resolution prior lift only the statements inside
	// the sessions of the best this many fused candidates, the sessions the question's own words
	// found (checkout/resolution.go); 0 lifts them anywhere in the space.
	ResolutionSessions int `json:"resolution_sessions,omitempty"`
	// ResolutionPasted, when above 0, multiplies the score of a pasted message (mostly log, code
	// or stack-trace lines, checkout/pasted.go) when the question asks how something was fixed or
	// decided: it states no outcome.
	ResolutionPasted float64 `json:"resolution_pasted,omitempty"`
	// ActivityBoost, when above 0, multiplies the score of a user's own account of something they
	// did ("I repainted the shed last week", "Sold the old piano on Sunday") when the question
	// gathers what the user has done ("which rooms have I painted?", "how much have I spent so
	// far?") (checkout/activity.go).
	ActivityBoost float64 `json:"activity_boost,omitempty"`
	// MechanismVersion names the mechanism record the policy ranks with (checkout/mechanism.go):
	// fusion's constant, the attenuations, the lanes' k's, shares and caps. "" is
	// FirstMechanismVersion, and is left out of the policy's Content, so a policy that names no
	// record is addressed by the same Content as one made before mechanism records.
	MechanismVersion string `json:"mechanism_version,omitempty"`
}

// Clone returns a deep copy of p.
func (p *Policy) Clone() *Policy {
	c := *p
	c.LaneWeights = cloneNested(p.LaneWeights)
	c.KindBoosts = cloneNested(p.KindBoosts)
	return &c
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

func cloneNested(m map[string]map[string]float64) map[string]map[string]float64 {
	out := make(map[string]map[string]float64, len(m))
	for k, v := range m {
		out[k] = maps.Clone(v)
	}
	return out
}
