package checkout

import "context"

// QueryResult is the body of a raw query: ranked items with their score components.
type QueryResult struct {
	Purpose         string `json:"purpose"`
	PurposeInferred bool   `json:"purpose_inferred"`
	// Speaker is the role whose turns the speaker prior favoured ("user"), if any (speaker.go).
	Speaker       string              `json:"speaker,omitempty"`
	Items         []*Item             `json:"items"`
	Lanes         map[string]LaneStat `json:"lanes"`
	ProjectionLag int64               `json:"projection_lag"`
	// Salience reports the attenuated candidates left out (absent with the plain profile).
	Salience *SalienceStats `json:"salience,omitempty"`
	// PolicyVersion is the retrieval policy the ranking used (docs/checkout.md).
	PolicyVersion string `json:"policy_version"`
}

// Query runs the lanes and fusion and returns the ranked items, without packing or
// recording anything.
func (s *Service) Query(ctx context.Context, r *Request) (*QueryResult, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	rk, err := s.rank(ctx, r, r.Limit, false)
	if err != nil {
		return nil, err
	}
	res := &QueryResult{Purpose: rk.purpose, PurposeInferred: rk.purposeInferred, Speaker: rk.speaker, Lanes: rk.lanes, ProjectionLag: rk.lag, Items: []*Item{}, Salience: rk.salience,
		PolicyVersion: rk.policy.Version}
	for _, c := range rk.fused {
		if len(res.Items) == r.Limit {
			break
		}
		if it := rk.items[c.itemID]; it != nil {
			it.Score, it.Components = c.score, c.components
			it.Tokens = EstimateTokens(it.Text)
			res.Items = append(res.Items, it)
		}
	}
	return res, nil
}
