package checkout

import (
	"context"
	"time"
)

// LaneVerbatimPast runs the verbatim lane reading past floor (nil: the current watermark).
func (s *Service) LaneVerbatimPast(ctx context.Context, space, query string, floor *int64) ([]string, error) {
	res := s.laneVerbatim(ctx, s.pool, &Request{SpaceID: space, Query: query}, time.Now(), floor)
	return res.items, res.err
}
