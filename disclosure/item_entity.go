package disclosure

import (
	"context"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/disclosure/internal/dbsqlc"
	"github.com/zaxy/zaxy/graph"
)

// entityItem is entity id in full: its newest facts and mentions, rendered with their
// citations (renderEntity), labelled invalidated when it was. This file discloses entities.
func entityItem(ctx context.Context, q Querier, space, id string) (*ItemView, error) {
	items, err := loadEntities(ctx, q, space, []string{id})
	if err != nil {
		return nil, err
	}
	e := items[id]
	if e == nil {
		return nil, notFound(space, "entity "+id)
	}
	v := &ItemView{Entity: e}
	v.Text, v.Citations = renderEntity(e)
	if e.Invalidated != nil {
		v.Labels = []string{LabelInvalidated}
	}
	return v, nil
}

// loadEntities loads entities with their newest facts and mentions, keyed by id; unknown ids
// are absent.
func loadEntities(ctx context.Context, q Querier, space string, ids []string) (map[string]*EntityItem, error) {
	out := map[string]*EntityItem{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := queries.Entities(ctx, q, dbsqlc.EntitiesParams{SpaceID: space, EntityIDs: ids})
	if err != nil {
		return nil, fmt.Errorf("load entities: %w", err)
	}
	for _, r := range rows {
		e := &EntityItem{Entity: graph.Entity{ID: r.EntityID, Key: r.Key, Name: r.Name, Kinds: r.Kinds, Version: r.Version,
			FirstSeq: r.FirstSeq, FirstHash: r.FirstHash, LastSeq: r.LastSeq, Mentions: r.Mentions, InvalidatedSeq: r.InvalidatedSeq}}
		if e.InvalidatedSeq != nil {
			e.Invalidated = &Invalidation{By: Citation{Seq: *e.InvalidatedSeq, Hash: r.InvalidatedHash}, Reason: r.InvalidatedReason}
		}
		e.Facts, e.MentionedIn = []graph.Fact{}, []EventLine{}
		out[e.ID] = e
	}
	facts, err := queryEntityFacts(ctx, q, entityFactsArgs{SpaceID: space, EntityIDs: ids, Limit: entityFactsLimit})
	if err != nil {
		return nil, fmt.Errorf("query entity facts: %w", err)
	}
	lines, err := queryEntityMentions(ctx, q, entityMentionsArgs{SpaceID: space, EntityIDs: ids, Limit: entityMentionsLimit})
	if err != nil {
		return nil, fmt.Errorf("query entity mentions: %w", err)
	}
	for id, e := range out {
		if fs := facts.items[id]; fs != nil {
			e.Facts, e.FactsTotal = fs, facts.total[id]
		}
		if ls := lines.items[id]; ls != nil {
			e.MentionedIn, e.MentionedInTotal = ls, lines.total[id]
		}
	}
	return out, nil
}

// renderEntity is an entity's detail text.
func renderEntity(e *EntityItem) (string, []Citation) {
	cites := citations{}
	var b strings.Builder
	fmt.Fprintf(&b, "entity %s %s (%s; %d mentions; first %s, last #%d)", e.Name, e.ID, strings.Join(e.Kinds, ", "),
		e.Mentions, cites.add(e.FirstSeq, e.FirstHash), e.LastSeq)
	if e.Invalidated != nil {
		fmt.Fprintf(&b, " [invalidated by %s: %s]", cites.add(e.Invalidated.By.Seq, e.Invalidated.By.Hash), e.Invalidated.Reason)
	}
	if len(e.Facts) > 0 {
		fmt.Fprintf(&b, "\nfacts (%d of %d, newest first):", len(e.Facts), e.FactsTotal)
		for i := range e.Facts {
			b.WriteString("\n")
			b.WriteString(renderFact(&e.Facts[i], cites))
		}
	}
	if len(e.MentionedIn) > 0 {
		fmt.Fprintf(&b, "\nmentioned in (%d of %d events, newest first):", len(e.MentionedIn), e.MentionedInTotal)
		for i := range e.MentionedIn {
			b.WriteString("\n")
			b.WriteString(renderLine(&e.MentionedIn[i]))
			cites.add(e.MentionedIn[i].Seq, e.MentionedIn[i].Hash)
		}
	}
	return b.String(), cites.list()
}
