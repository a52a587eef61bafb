package checkout

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// reviewedSkills are the space's reviewed skill entries (skill.recorded, made by accepting a
// proposal in review; docs/latent.md, "Reviewed skills") whose text, steps or tool share the
// goal's words: at most n, most shared words first, then newest. Each cites its own event,
// read with its hash, and is labelled "reviewed". At most rows entries are read.
func (s *Service) reviewedSkills(ctx context.Context, space string, goal []string, rows, n int) ([]Skill, error) {
	entries, err := queries.ProspectiveSkills(ctx, s.pool, dbsqlc.ProspectiveSkillsParams{SpaceID: space, MaxRows: int32(rows)})
	if err != nil {
		return nil, fmt.Errorf("read reviewed skills: %w", err)
	}
	out := []Skill{}
	for _, e := range entries {
		var d vocab.SkillRecorded
		if err := json.Unmarshal([]byte(e.Data), &d); err != nil {
			continue // an entry whose data does not decode is offered by no pass
		}
		words := sharedWords(goal, e.Content+" "+strings.Join(d.Steps, " ")+" "+d.Tool)
		if len(words) == 0 {
			continue
		}
		sk := Skill{Seq: e.Seq, ProposalSeq: d.ProposalSeq, Kind: d.Kind, Text: e.Content, Steps: d.Steps, Tool: d.Tool, Error: d.Error,
			Fix: d.Fix, Match: words, Label: "reviewed", Citations: []Citation{{Seq: e.Seq, Hash: e.Hash}}}
		if d.Artifact != nil {
			sk.ArtifactID = d.Artifact.ID
		}
		out = append(out, sk)
	}
	slices.SortStableFunc(out, func(a, b Skill) int {
		return cmp.Or(cmp.Compare(len(b.Match), len(a.Match)), cmp.Compare(b.Seq, a.Seq))
	})
	return out[:min(len(out), n)], nil
}

// skillCovers reports whether a reviewed skill gives the step a procedure (steps) or, with
// failure, a failure to expect (a tool), so the pass does not warn that memory has none.
func skillCovers(skills []Skill, failure bool) bool {
	for _, sk := range skills {
		if (failure && sk.Tool != "") || (!failure && len(sk.Steps) > 0) {
			return true
		}
	}
	return false
}
