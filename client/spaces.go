package client

import (
	"context"
	"net/http"
	"time"
)

// SpaceSummary is one space of Spaces: how far its log and its projections are, and how many
// proposals wait for review.
type SpaceSummary struct {
	SpaceID string `json:"space_id"`
	// HeadSeq is the seq of the space's last event (0 for a granted space with no event yet).
	HeadSeq int64      `json:"head_seq"`
	HeadAt  *time.Time `json:"head_at,omitempty"`
	// ProjectedSeq is how far the projector has applied the log; Lag is HeadSeq - ProjectedSeq.
	ProjectedSeq int64      `json:"projected_seq"`
	Lag          int64      `json:"lag"`
	ProjectedAt  *time.Time `json:"projected_at,omitempty"`
	// PendingProposals counts the proposals with status pending.
	PendingProposals int64 `json:"pending_proposals"`
}

// SpaceList is the answer of Spaces.
type SpaceList struct {
	// AllSpaces says the token reaches every space (a token for "*", or auth off).
	AllSpaces bool           `json:"all_spaces"`
	Spaces    []SpaceSummary `json:"spaces"`
}

// Spaces lists the spaces the client's token reaches, in space order (operation listSpaces,
// scope read).
func (c *Client) Spaces(ctx context.Context, opts ...CallOption) (*SpaceList, error) {
	var res SpaceList
	err := c.do(ctx, &call{method: http.MethodGet, path: "/v1/spaces", safe: true}, &res, opts)
	return result(&res, err)
}

// SalienceHistogram is the answer of Salience: how space's memory items spread over salience
// as the salience_decay job last materialised it.
type SalienceHistogram struct {
	SpaceID string `json:"space_id"`
	// Materialised is false while the salience_decay job has not run for the space; the
	// buckets are then all zero.
	Materialised bool `json:"materialised"`
	// Buckets[i] counts the items whose salience lies in the i-th of len(Buckets) equal steps
	// of [0, 1].
	Buckets []int64 `json:"buckets"`
	// Attenuated counts the items out of default ranking.
	Attenuated int64 `json:"attenuated"`
}

// Salience returns space's salience histogram (operation getSalience, scope read).
func (c *Client) Salience(ctx context.Context, space string, opts ...CallOption) (*SalienceHistogram, error) {
	var res SalienceHistogram
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "salience"), safe: true}, &res, opts)
	return result(&res, err)
}
