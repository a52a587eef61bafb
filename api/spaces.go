package api

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/zaxy/zaxy/api/internal/dbsqlc"
	"github.com/zaxy/zaxy/auth"
	"github.com/zaxy/zaxy/metamemory"
)

// maxListedSpaces caps GET /v1/spaces: a console lists spaces for a person to pick from, not
// for a program to walk.
const maxListedSpaces = 1000

// SpaceSummary is one space in GET /v1/spaces: how far its log and its projections are, and
// how many proposals wait for review.
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

// spacesResponse is the body of GET /v1/spaces.
type spacesResponse struct {
	// AllSpaces says the caller reaches every space (a token for "*", or auth off).
	AllSpaces bool           `json:"all_spaces"`
	Spaces    []SpaceSummary `json:"spaces"`
}

// listSpaces serves GET /v1/spaces: the spaces the caller's token reaches (every space for a
// token of "*" or with auth off, at most maxListedSpaces), in space order. A space the token
// names that has no event yet is listed with head_seq 0. It says nothing of other spaces.
func (s *server) listSpaces(r *http.Request) (any, error) {
	all, granted := true, []string(nil)
	if s.auth != nil {
		tok, err := s.auth.Authorize(r.Context(), bearerToken(r.Header.Get("Authorization")), "", auth.ScopeRead)
		if err != nil {
			return nil, err
		}
		all = slices.Contains(tok.Spaces, auth.AllSpaces)
		granted = tok.Spaces
	}
	rows, err := queries.SpacesOverview(r.Context(), s.pool, dbsqlc.SpacesOverviewParams{AllSpaces: all, SpaceIds: granted, MaxSpaces: maxListedSpaces})
	if err != nil {
		return nil, fmt.Errorf("list spaces: %w", err)
	}
	out := spacesResponse{AllSpaces: all, Spaces: make([]SpaceSummary, 0, len(rows))}
	seen := map[string]bool{}
	for _, row := range rows {
		seen[row.SpaceID] = true
		out.Spaces = append(out.Spaces, SpaceSummary{SpaceID: row.SpaceID, HeadSeq: row.HeadSeq, HeadAt: &row.HeadAt,
			ProjectedSeq: row.ProjectedSeq, Lag: row.Lag, ProjectedAt: row.ProjectedAt, PendingProposals: row.PendingProposals})
	}
	if !all {
		for _, sp := range granted {
			if !seen[sp] && len(out.Spaces) < maxListedSpaces {
				out.Spaces = append(out.Spaces, SpaceSummary{SpaceID: sp})
			}
		}
		slices.SortFunc(out.Spaces, func(a, b SpaceSummary) int { return cmp.Compare(a.SpaceID, b.SpaceID) })
	}
	return out, nil
}

// salienceResponse is the body of GET /v1/spaces/{space}/salience.
type salienceResponse struct {
	SpaceID string `json:"space_id"`
	// Materialised is false while the salience_decay job has not run for the space; the
	// buckets are then all zero.
	Materialised bool `json:"materialised"`
	// Buckets[i] counts the memory items whose salience lies in the i-th of len(Buckets)
	// equal steps of [0, 1].
	Buckets []int64 `json:"buckets"`
	// Attenuated counts the items out of default ranking.
	Attenuated int64 `json:"attenuated"`
}

// salience serves GET /v1/spaces/{space}/salience: the space's salience histogram as the
// salience_decay job last materialised it (metamemory.Salience).
func (s *server) salience(r *http.Request) (any, error) {
	space := chi.URLParam(r, "space")
	h, err := metamemory.Salience(r.Context(), readPool(r, s.pool), space)
	if err != nil {
		return nil, err
	}
	out := salienceResponse{SpaceID: space, Buckets: make([]int64, metamemory.SalienceBuckets)}
	if h != nil {
		out.Materialised, out.Buckets, out.Attenuated = true, h.Buckets, h.Attenuated
	}
	return out, nil
}
