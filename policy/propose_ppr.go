package policy

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/validation"
)

// ProposePPRWeight proposes the space's current policy with the personalized PageRank lane
// weighed w (0 to checkoutwire.MaxPPRWeight) for purpose, general's when purpose is "": a
// version of its own (content-addressed, as a fitted one), proposed with policy.proposed and
// made current by Promote through the same regression gate. Checkout runs the lane at a
// policy's weight for every request that sets no ppr_weight of its own (docs/checkout.md).
// Nothing is learned: the diagnostics name only the changed weight.
func (s *Service) ProposePPRWeight(ctx context.Context, space, actor, purpose string, w float64) (*FitResult, error) {
	if purpose == "" {
		purpose = checkout.PurposeGeneral
	}
	if !slices.Contains(checkout.Purposes, purpose) {
		return nil, &validation.Error{Field: "purpose", Message: "must be one of " + strings.Join(checkout.Purposes, ", ") + ", got " + purpose}
	}
	if !(w >= 0 && w <= checkoutwire.MaxPPRWeight) {
		return nil, &validation.Error{Field: "ppr_weight", Message: "must be between 0 and 5, got " + strconv.FormatFloat(w, 'g', -1, 64)}
	}
	if err := s.requireSpace(ctx, space); err != nil {
		return nil, err
	}
	lc, err := s.load(ctx, s.db, space)
	if err != nil {
		return nil, err
	}
	p := lc.policy(lc.current).Clone()
	if p.LaneWeights[purpose] == nil {
		p.LaneWeights[purpose] = map[string]float64{}
	}
	p.LaneWeights[purpose][checkout.LanePPR] = w
	if p.Version, err = checkout.PolicyVersionOf(p); err != nil {
		return nil, err
	}
	res := &FitResult{Version: p.Version, Base: lc.current, Policy: p,
		Diagnostics: FitDiagnostics{Changed: []string{purpose + "/" + checkout.LanePPR}}, SourceSeqs: []int64{}}
	return s.propose(ctx, space, actor, lc, res)
}
