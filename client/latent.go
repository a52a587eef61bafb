package client

import (
	"context"
	"net/http"

	"github.com/zaxy/zaxy/latent/latentwire"
)

// ArtifactsParams filters and pages Artifacts; every field is optional.
type ArtifactsParams struct {
	// Type keeps artifacts of one artifact_type (episode, procedure, failure, preference, causal).
	Type string `json:"type,omitempty"`
	// Entity keeps artifacts covering that entity id.
	Entity string `json:"entity,omitempty"`
	// IncludeStale lists stale artifacts too (with stale_at and stale_reason).
	IncludeStale bool `json:"include_stale,omitempty"`
	// After is the cursor: a page's NextAfter.
	After string `json:"after,omitempty"`
	// Limit is the page size, 1–200 (nil: the server's default, 50).
	Limit *int64 `json:"limit,omitempty"`
}

// Artifacts lists a page of space's latent artifacts, each with the weaves that cited it
// (operation listArtifacts, scope read).
func (c *Client) Artifacts(ctx context.Context, space string, p *ArtifactsParams, opts ...CallOption) (*latentwire.Page, error) {
	var res latentwire.Page
	err := c.do(ctx, &call{method: http.MethodGet, path: spacePath(space, "artifacts"), query: encodeQuery(p), safe: true}, &res, opts)
	return result(&res, err)
}
