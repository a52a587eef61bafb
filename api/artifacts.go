package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/validation"
)

// ArtifactsQuery is the query string of GET /artifacts.
type ArtifactsQuery struct {
	// Type keeps artifacts of one artifact_type (episode, procedure, failure, preference, causal).
	Type string `json:"type,omitempty"`
	// Entity keeps artifacts covering that entity id (among their entity_refs).
	Entity string `json:"entity,omitempty"`
	// IncludeStale lists stale artifacts too, labelled with stale_at and stale_reason (default false).
	IncludeStale bool `json:"include_stale,omitempty"`
	// After is the cursor: only artifacts whose id sorts after it (a page's next_after).
	After string `json:"after,omitempty"`
	// Limit is the page size, 1–200 (default 50).
	Limit *int64 `json:"limit,omitempty"`
}

// listArtifacts serves GET /v1/spaces/{space}/artifacts (ArtifactsQuery): a page of the
// space's latent artifacts, each with the weaves that cited it (latent.List).
func (s *server) listArtifacts(r *http.Request) (any, error) {
	var q ArtifactsQuery
	if err := decodeQuery(r.URL.Query(), &q); err != nil {
		return nil, err
	}
	p := latent.ListParams{SpaceID: chi.URLParam(r, "space"), Type: q.Type, EntityID: q.Entity,
		IncludeStale: q.IncludeStale, After: q.After}
	if q.Limit != nil {
		if *q.Limit < 1 || *q.Limit > latent.MaxListLimit {
			return nil, &validation.Error{Field: "limit", Message: "must be an integer between 1 and 200"}
		}
		p.Limit = int(*q.Limit)
	}
	return latent.List(r.Context(), budgeted(r.Context(), readPool(r, s.pool), "limit"), p)
}
