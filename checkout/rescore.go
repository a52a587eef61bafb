package checkout

import (
	"context"
)

// itemRescorer is a factor of a fused candidate's score that reads only the policy, the
// question and the candidate's item (1 leaves the score as it is).
type itemRescorer func(p *Policy, q *question, it *rankedItem) float64

// itemRescorers multiply each fused candidate's score, in this order.
var itemRescorers = []itemRescorer{kindBoost, speakerPrior, namedSpeakerPrior, tastePrior, activityPrior, temporalPrior, attenuation}

// kindBoost is the policy's boost of what the item is (event type or "fact") for the purpose.
func kindBoost(p *Policy, q *question, it *rankedItem) float64 {
	return p.KindBoost(q.purpose, it.boostKind)
}

// speakerPrior favours the turns of the role a first-person question asks about (speaker.go).
func speakerPrior(p *Policy, q *question, it *rankedItem) float64 {
	if q.asked != "" && it.role == q.asked {
		return p.SpeakerBoost
	}
	return 1
}

// namedSpeakerPrior favours the turns of a speaker the question names.
func namedSpeakerPrior(p *Policy, q *question, it *rankedItem) float64 {
	if q.named.names(it.speaker) {
		return p.NamedSpeakerBoost
	}
	return 1
}

// temporalPrior favours memory from a time the question names (when.go).
func temporalPrior(p *Policy, q *question, it *rankedItem) float64 {
	if q.windows().matches(mechanismOf(p), it) {
		return p.TemporalBoost
	}
	return 1
}

// attenuation lowers what memory has moved on from: an invalidated event, a closed fact
// version.
func attenuation(p *Policy, q *question, it *rankedItem) float64 {
	switch {
	case !it.Labels.Attenuated:
		return 1
	case it.Labels.Invalidated != "":
		return mechanismOf(p).AttenuateInvalidated
	default:
		return mechanismOf(p).AttenuateClosed
	}
}

// rescoreStep is a step of ranking after fusion and the item fetch: it rescores, drops or
// reorders rk.fused.
type rescoreStep func(ctx context.Context, s *Service, r *Request, rk *ranking) error

// rescoreSteps run in this order after the item fetch.
var rescoreSteps = []rescoreStep{boostItems, boostResolutions, weighSalience, boostCues, addSession, sortRanking, collapseRepeated}

// boostItems applies itemRescorers to each candidate whose item was read and drops the others
// (bookkeeping never surfaces).
func boostItems(_ context.Context, _ *Service, _ *Request, rk *ranking) error {
	kept := rk.fused[:0]
	for _, c := range rk.fused {
		it := rk.items[c.itemID]
		if it == nil {
			continue
		}
		for _, f := range itemRescorers {
			c.score *= f(rk.policy, rk.question, it)
		}
		kept = append(kept, c)
	}
	rk.fused = kept
	return nil
}

// weighSalience reads the items redundant candidates repeat and weighs the candidates by
// salience (applySalience); not with the plain profile.
func weighSalience(ctx context.Context, _ *Service, r *Request, rk *ranking) error {
	if plainProfile(r) {
		return nil
	}
	if !r.IncludeAttenuated {
		if err := fetchRepeated(ctx, rk.fetch, rk); err != nil {
			return err
		}
	}
	rk.fused = applySalience(r, rk, rk.fused)
	return nil
}

// boostCues boosts the candidates whose events carry the request's cues (cues.go).
func boostCues(ctx context.Context, s *Service, r *Request, rk *ranking) error {
	return applyCues(ctx, s.pool, mechanismOf(rk.policy), r.SpaceID, r.Cues, rk.fused, rk.items)
}

// addSession adds each candidate's session context (session_context.go).
func addSession(_ context.Context, _ *Service, _ *Request, rk *ranking) error {
	addSessionContext(mechanismOf(rk.policy).SessionContextShare, rk.fused, rk.items)
	return nil
}

// sortRanking orders the candidates best first.
func sortRanking(_ context.Context, _ *Service, _ *Request, rk *ranking) error {
	sortScored(rk.fused)
	return nil
}

// collapseRepeated ranks the fact versions that state the same thing as one (collapse.go),
// when the policy says so; not with the plain profile.
func collapseRepeated(_ context.Context, _ *Service, r *Request, rk *ranking) error {
	if rk.policy.CollapseRepeatedFacts && !plainProfile(r) {
		rk.fused = collapseRepeatedFacts(rk.fused, rk.items)
	}
	return nil
}
