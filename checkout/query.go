package checkout

import "context"

// Query runs the lanes and fusion and returns the ranked items, without packing or
// recording anything.
func (s *Service) Query(ctx context.Context, r *Request) (*QueryResult, error) {
	if err := validateRequest(r); err != nil {
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
			it.Tokens = rk.count(it.Text)
			res.Items = append(res.Items, &it.Item)
		}
	}
	return res, nil
}
