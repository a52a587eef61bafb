package latent

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// List's bounds.
const (
	// DefaultListLimit is a page's size when ListParams.Limit is 0.
	DefaultListLimit = 50
	// MaxListLimit is the largest page List serves.
	MaxListLimit = 200
	// ListedWeaves is how many weaves (the latest) List reports per artifact.
	ListedWeaves = 20
)

// artifactTypes are the values of latent_artifacts.artifact_type, for validating a filter.
var artifactTypes = []string{TypeEpisode, TypeProcedure, TypeFailure, TypePreference, TypeCausal}

// ListParams selects one page of a space's artifacts.
type ListParams struct {
	// SpaceID is the space read.
	SpaceID string
	// Type keeps artifacts of one type (one of the Type constants); empty for all.
	Type string
	// EntityID keeps artifacts covering that entity (among their entity_refs); empty for all.
	EntityID string
	// IncludeStale lists stale artifacts too (each with its stale_at and stale_reason); by
	// default only current ones (view latent_current).
	IncludeStale bool
	// After is the cursor: only artifacts whose id sorts after it (a page's next_after).
	After string
	// Limit is the page size, 1 to MaxListLimit (0 means DefaultListLimit).
	Limit int
}

// List returns one page of a space's artifacts in id order, each with the weaves that cited
// it and its LLM-assisted summaries: two queries (sql/latent/artifacts_page.sql, then the
// page's summaries). A bad parameter is an
// *validation.Error naming it. A space without artifacts (or unknown) gives an
// empty page.
func List(ctx context.Context, db pgexec.Executor, p ListParams) (*Page, error) {
	if p.Limit == 0 {
		p.Limit = DefaultListLimit
	}
	if p.Limit < 1 || p.Limit > MaxListLimit {
		return nil, &validation.Error{Field: "limit", Message: fmt.Sprintf("must be an integer between 1 and %d", MaxListLimit)}
	}
	if p.Type != "" && !slices.Contains(artifactTypes, p.Type) {
		return nil, &validation.Error{Field: "type", Message: fmt.Sprintf("must be one of episode, procedure, failure, preference, causal, got %q", p.Type)}
	}
	if len(p.EntityID) > 256 {
		return nil, &validation.Error{Field: "entity", Message: "must be an entity id of at most 256 bytes"}
	}
	if p.After != "" && !vocab.IsArtifactID(p.After) {
		return nil, &validation.Error{Field: "after", Message: "must be an artifact id (64 lowercase hex digits), a page's next_after"}
	}
	rows, err := queries.ArtifactsPage(ctx, db, dbsqlc.ArtifactsPageParams{
		SpaceID: p.SpaceID, IncludeStale: p.IncludeStale, ArtifactType: p.Type, EntityID: p.EntityID,
		AfterID: p.After, MaxRows: int32(p.Limit + 1), WeavesLimit: ListedWeaves,
	})
	if err != nil {
		return nil, fmt.Errorf("list artifacts: %w", err)
	}
	page := &Page{Artifacts: []Listed{}}
	for i, r := range rows {
		if i == p.Limit {
			next := page.Artifacts[i-1].ArtifactID
			page.NextAfter = &next
			break
		}
		l := Listed{ArtifactID: r.ArtifactID, ArtifactType: r.ArtifactType, Summary: r.Summary,
			EntityRefs: nonNil(r.EntityRefs), ValidFrom: r.ValidFrom, ValidTo: r.ValidTo, Method: r.Method,
			Confidence: r.Confidence, ProducedConfidence: float64(r.ProducedConfidence), ReviewStatus: r.ReviewStatus, AuthorityStatus: r.AuthorityStatus,
			StaleAt: r.StaleAt, StaleSeq: r.StaleSeq, StaleReason: r.StaleReason, Supersedes: r.Supersedes,
			Weaves: nonNil(r.Weaves)}
		if err := json.Unmarshal([]byte(r.SourceEventRefs), &l.SourceEventRefs); err != nil {
			return nil, fmt.Errorf("list artifacts: source_event_refs of %s: %w", r.ArtifactID, err)
		}
		l.SourceEventRefs = nonNil(l.SourceEventRefs)
		if r.RevisionSeq > 0 {
			l.ConfidenceRevision = &SourceRef{Seq: r.RevisionSeq, Hash: hex.EncodeToString(r.RevisionHash)}
		}
		page.Artifacts = append(page.Artifacts, l)
	}
	ids := make([]string, len(page.Artifacts))
	for i, a := range page.Artifacts {
		ids[i] = a.ArtifactID
	}
	sums, err := llmSummaries(ctx, db, p.SpaceID, ids)
	if err != nil {
		return nil, err
	}
	for i := range page.Artifacts {
		page.Artifacts[i].LLMSummaries = nonNil(sums[page.Artifacts[i].ArtifactID])
	}
	return page, nil
}
