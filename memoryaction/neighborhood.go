package memoryaction

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
)

// NeighborhoodParams names what to look around: an event, a tool or an entity (at least one;
// an artifact must match every one given).
type NeighborhoodParams struct {
	SpaceID string
	// Seq is an event the causal links cite (as cause, effect, fix or a step between).
	Seq int64
	// Tool is the tool whose failures the links explain.
	Tool string
	// Entity is a name the link's text mentions (its decision, tool or error).
	Entity string
	// Limit is how many links to return, 1–50; defaults to 5.
	Limit int
	// Recording is where the answer is recorded (memory_action.surfaced).
	Recording `json:"-"`
}

// CausalNeighborhood is query_causal_neighborhood: the space's current causal artifacts
// around an event, a tool or an entity, as cause → effect (→ fix) links with both ends
// cited, most confident first. Nothing is appended.
func (a *Actions) CausalNeighborhood(ctx context.Context, p NeighborhoodParams) (*Neighborhood, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if p.Seq < 0 {
		return nil, &validation.Error{Field: "seq", Message: "must be a positive integer"}
	}
	tool := strings.ToLower(strings.TrimSpace(p.Tool))
	entity := strings.ToLower(strings.TrimSpace(p.Entity))
	if p.Seq == 0 && tool == "" && entity == "" {
		return nil, &validation.Error{Field: "seq", Message: "is required (or give tool or entity)"}
	}
	if err := text("tool", p.Tool, 512); err != nil {
		return nil, err
	}
	if err := text("entity", p.Entity, 512); err != nil {
		return nil, err
	}
	n, err := limit(p.Limit)
	if err != nil {
		return nil, err
	}
	if err := p.Recording.validate(); err != nil {
		return nil, err
	}
	var seqs []int64
	if p.Seq > 0 {
		seqs = []int64{p.Seq}
	}
	arts, err := a.artifacts(ctx, p.SpaceID, []string{latent.TypeCausal}, seqs)
	if err != nil {
		return nil, err
	}
	var links []Artifact
	byID := map[string]CausalLink{}
	for _, art := range arts {
		var pl causalPayload
		if err := json.Unmarshal(art.Payload, &pl); err != nil {
			return nil, fmt.Errorf("causal %s payload: %w", art.ID, err)
		}
		if tool != "" && pl.Tool != tool {
			continue
		}
		if entity != "" && !strings.Contains(strings.ToLower(pl.Decision+" "+pl.Tool+" "+pl.Error+" "+art.Summary), entity) {
			continue
		}
		hash := map[int64]string{}
		for _, r := range art.SourceEventRefs {
			hash[r.Seq] = r.Hash
		}
		l := CausalLink{Cause: SourceRef{Seq: pl.Cause, Hash: hash[pl.Cause]}, Effect: SourceRef{Seq: pl.Effect, Hash: hash[pl.Effect]},
			Decision: pl.Decision, Tool: pl.Tool, Error: pl.Error, Outcome: pl.Outcome}
		if pl.Fix > 0 {
			l.Fix = &SourceRef{Seq: pl.Fix, Hash: hash[pl.Fix]}
		}
		switch p.Seq {
		case 0:
		case pl.Cause:
			l.Role = "cause"
		case pl.Effect:
			l.Role = "effect"
		case pl.Fix:
			l.Role = "fix"
		default:
			l.Role = "step"
		}
		art.Score = art.Confidence
		links = append(links, art)
		byID[art.ID] = l
	}
	nb := &Neighborhood{Action: ActionCausalNeighborhood, Links: []CausalLink{}, Causes: []SourceRef{}, Effects: []SourceRef{},
		Relations: []Relation{}, Related: []RelatedArtifact{}, ReadThrough: latent.ReadTables, Use: nonAuthoritativeUseLabel}
	var causes, effects []SourceRef
	for _, art := range rank(links, n) {
		l := byID[art.ID]
		l.Artifact = art
		nb.Links = append(nb.Links, l)
		causes = append(causes, l.Cause)
		effects = append(effects, l.Effect)
	}
	nb.Causes, nb.Effects = citations(causes), citations(effects)
	var all []Artifact
	for _, l := range nb.Links {
		all = append(all, l.Artifact)
	}
	nb.SourceEventRefs = citations(artifactCitations(all))
	if err := a.relate(ctx, p.SpaceID, nb); err != nil {
		return nil, err
	}
	rec := p.Recording
	p.Recording = Recording{}
	var tools []string
	if tool != "" {
		tools = []string{tool}
	}
	nb.Record, err = a.record(ctx, ActionCausalNeighborhood, p.SpaceID, rec, p, tools, surfacedArtifacts(all), nb.SourceEventRefs)
	return nb, err
}

// relate adds the links' relations of every kind (latent.Relations: through the space's AGE
// mirror unless a reads the tables, falling back to them when the mirror cannot answer) and
// the artifacts they reach besides the links. An artifact withdrawn to confidence 0 is left
// out with its relations, as every reader leaves it out.
func (a *Actions) relate(ctx context.Context, space string, nb *Neighborhood) error {
	if len(nb.Links) == 0 {
		return nil
	}
	ids := make([]string, len(nb.Links))
	isLink := map[string]bool{}
	for i, l := range nb.Links {
		ids[i] = l.ID
		isLink[l.ID] = true
	}
	rels, how, err := latent.Relations(ctx, a.db, space, ids, !a.relationsFromTables)
	if err != nil {
		return err
	}
	nb.ReadThrough = how
	var far []string
	for _, r := range rels {
		for _, id := range []string{r.From, r.To} {
			if id != "" && !isLink[id] && !slices.Contains(far, id) {
				far = append(far, id)
			}
		}
	}
	withdrawn := map[string]bool{}
	if len(far) > 0 {
		rows, err := queries.ArtifactsByID(ctx, a.db, dbsqlc.ArtifactsByIDParams{SpaceID: space, Ids: far})
		if err != nil {
			return fmt.Errorf("read related artifacts: %w", err)
		}
		revs, err := a.revisions(ctx, space, far)
		if err != nil {
			return err
		}
		found := map[string]bool{}
		for _, r := range rows {
			found[r.ArtifactID] = true
			ra := RelatedArtifact{ID: r.ArtifactID, Slot: r.Slot, Type: r.ArtifactType, Summary: r.Summary,
				Confidence: float64(r.Confidence), StaleReason: deref(r.StaleReason)}
			if rev, ok := revs[r.ArtifactID]; ok {
				if rev.Confidence == 0 {
					withdrawn[r.ArtifactID] = true
					continue
				}
				ra.Confidence = rev.Confidence
			}
			nb.Related = append(nb.Related, ra)
		}
		for _, id := range far {
			if !found[id] {
				withdrawn[id] = true // citing an erased event whose purge is pending
			}
		}
	}
	for _, r := range rels {
		if !withdrawn[r.From] && !withdrawn[r.To] {
			nb.Relations = append(nb.Relations, r)
		}
	}
	return nil
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
