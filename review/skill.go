package review

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/review/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// skillEntry is the skill.recorded event accepting the proposal at seq (its data) appends, or
// nil when its kind makes none: a skill (from the latent artifact it names, or its rationale),
// a failure_prior (the first failed tool call it cites) or a procedure_revision (the tool
// calls it cites, in order). What it reads of the log and of latent_artifacts is written into
// the event, so the entry is part of the log from then on (docs/latent.md, "Reviewed skills").
func skillEntry(ctx context.Context, tx pgx.Tx, p DecideParams, proposalData []byte) (*eventloom.NewEvent, error) {
	var prop vocab.ProposalCreated
	if err := json.Unmarshal(proposalData, &prop); err != nil {
		return nil, fmt.Errorf("read proposal %d: %w", p.ProposalSeq, err)
	}
	d := vocab.SkillRecorded{ProposalSeq: p.ProposalSeq, Kind: prop.Kind, Evidence: prop.Evidence}
	var text string
	switch prop.Kind {
	case vocab.ProposalSkill:
		text = "Reviewed skill: " + prop.Rationale
		if prop.Artifact != nil {
			rows, err := queries.SkillArtifact(ctx, tx, dbsqlc.SkillArtifactParams{SpaceID: p.SpaceID, ArtifactID: prop.Artifact.ID, Slot: prop.Artifact.Key})
			if err != nil {
				return nil, fmt.Errorf("read the artifact of proposal %d: %w", p.ProposalSeq, err)
			}
			d.Artifact = &vocab.ArtifactRef{Key: prop.Artifact.Key, ID: prop.Artifact.ID}
			if len(rows) == 1 {
				a := rows[0]
				var pl struct {
					Steps []string `json:"steps"`
					Tool  string   `json:"tool"`
					Error string   `json:"error"`
					Fix   []string `json:"fix"`
				}
				_ = json.Unmarshal([]byte(a.Payload), &pl)
				d.Artifact.ID, d.Steps, d.Tool, d.Error, d.Fix = a.ArtifactID, pl.Steps, pl.Tool, pl.Error, pl.Fix
				kind := "skill"
				if a.ArtifactType == "failure" {
					kind = "failure prior"
				}
				text = fmt.Sprintf("Reviewed %s: %s", kind, a.Summary)
			}
		}
	case vocab.ProposalFailurePrior, vocab.ProposalProcedureRevision:
		calls, err := queries.SkillEvidence(ctx, tx, dbsqlc.SkillEvidenceParams{SpaceID: p.SpaceID, Seqs: prop.Evidence})
		if err != nil {
			return nil, fmt.Errorf("read the evidence of proposal %d: %w", p.ProposalSeq, err)
		}
		if prop.Kind == vocab.ProposalFailurePrior {
			for _, c := range calls {
				if c.Outcome == "failure" {
					d.Tool, d.Error = c.Tool, c.Error
					break
				}
			}
			text = fmt.Sprintf("Reviewed failure prior: %s failed with %q. %s", d.Tool, d.Error, prop.Rationale)
		} else {
			for _, c := range calls {
				d.Steps = append(d.Steps, c.Tool)
			}
			text = fmt.Sprintf("Reviewed procedure revision: the plan %s needs revising. %s", strings.Join(d.Steps, " → "), prop.Rationale)
		}
	default:
		return nil, nil
	}
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return &eventloom.NewEvent{Type: vocab.TypeSkillRecorded, SessionID: p.SessionID, Actor: p.Actor, Content: strings.TrimSpace(text), Data: data}, nil
}
