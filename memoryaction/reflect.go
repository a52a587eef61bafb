package memoryaction

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryaction/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// ReflectParams names the session to look back on.
type ReflectParams struct {
	SpaceID   string
	SessionID string
	// Actor is the actor of the reflection's record (default "agent"); NoRecord skips the
	// record. The record goes into the session reflected on.
	Actor    string
	NoRecord bool
}

// Outcome statuses.
const (
	OutcomeSuccess = "success"
	OutcomeFailure = "failure"
	OutcomePartial = "partial"
	OutcomeUnknown = "unknown"
)

// ReflectBackward is reflect_backward: for one session it reads what checkout surfaced
// (checkout.surfaced), how it was judged (feedback.recorded), how the session ended (its last
// outcome.recorded, else its last task.updated, else its last tool call; unknown when none
// says) and which current artifacts apply, each cited. Nothing is appended.
func (a *Actions) ReflectBackward(ctx context.Context, p ReflectParams) (*Reflection, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	if strings.TrimSpace(p.SessionID) == "" || len(p.SessionID) > 256 {
		return nil, &validation.Error{Field: "session_id", Message: "must be a session id of 1-256 characters"}
	}
	rec := Recording{SessionID: p.SessionID, Actor: p.Actor, NoRecord: p.NoRecord}
	if err := rec.validate(); err != nil {
		return nil, err
	}
	rows, err := queries.SessionEvents(ctx, a.db, dbsqlc.SessionEventsParams{SpaceID: p.SpaceID, SessionID: p.SessionID, MaxRows: maxSessionEvents + 1})
	if err != nil {
		return nil, fmt.Errorf("read session: %w", err)
	}
	r := &Reflection{Action: ActionReflectBackward, SessionID: p.SessionID, Surfaced: []Surfacing{}, MemoryActions: []ActionRecord{}, Feedback: []Judgement{},
		Outcome: Outcome{Status: OutcomeUnknown, Detail: "no event of the session says how it ended"}, KnownUnknowns: []KnownUnknown{},
		Warnings: []string{}, Use: nonAuthoritativeUseLabel}
	if len(rows) > maxSessionEvents {
		rows = rows[:maxSessionEvents]
		r.Warnings = append(r.Warnings, fmt.Sprintf("the session has more than %d events; only the first %d were read", maxSessionEvents, maxSessionEvents))
	}
	r.Events = len(rows)
	if len(rows) == 0 {
		r.Warnings = append(r.Warnings, "the space has no event in this session")
	}
	var refs []SourceRef
	seqs := make([]int64, 0, len(rows))
	var tools []string
	outcomeRank := 0 // 3 outcome.recorded, 2 task.updated, 1 tool call
	for _, e := range rows {
		ref := SourceRef{Seq: e.Seq, Hash: hex.EncodeToString(e.Hash)}
		seqs = append(seqs, e.Seq)
		if e.Erased {
			continue
		}
		var d map[string]json.RawMessage
		_ = json.Unmarshal([]byte(e.Data), &d)
		str := func(k string) string {
			var s string
			_ = json.Unmarshal(d[k], &s)
			return s
		}
		switch e.Type {
		case vocab.TypeCheckoutSurfaced:
			var s struct {
				Items []struct {
					ItemID string  `json:"item_id"`
					Seqs   []int64 `json:"seqs"`
				} `json:"items"`
			}
			_ = json.Unmarshal([]byte(e.Data), &s)
			su := Surfacing{SourceRef: ref, ItemIDs: []string{}, Seqs: []int64{}}
			for _, it := range s.Items {
				su.ItemIDs = append(su.ItemIDs, it.ItemID)
				su.Seqs = append(su.Seqs, it.Seqs...)
			}
			r.Surfaced = append(r.Surfaced, su)
			refs = append(refs, ref)
		case vocab.TypeMemoryActionSurfaced:
			m, err := vocab.Decode[vocab.MemoryActionSurfaced](json.RawMessage(e.Data))
			if err != nil {
				continue
			}
			ar := ActionRecord{SourceRef: ref, Action: m.Action, ArtifactIDs: []string{}}
			for _, art := range m.Artifacts {
				ar.ArtifactIDs = append(ar.ArtifactIDs, art.ArtifactID)
			}
			r.MemoryActions = append(r.MemoryActions, ar)
			refs = append(refs, ref)
		case vocab.TypeFeedbackRecorded:
			f, err := vocab.Decode[vocab.FeedbackRecorded](json.RawMessage(e.Data))
			if err != nil {
				continue
			}
			r.Feedback = append(r.Feedback, Judgement{SourceRef: ref, Signal: f.Signal, TargetSeqs: f.TargetSeqs, ItemIDs: f.ItemIDs,
				Comment: f.Comment, MemoryAction: f.MemoryAction})
			refs = append(refs, ref)
		case "outcome.recorded":
			status := strings.ToLower(cmpOr(str("outcome"), str("status"), str("result")))
			if !slices.Contains([]string{OutcomeSuccess, OutcomeFailure, OutcomePartial, OutcomeUnknown}, status) {
				status = OutcomeUnknown
			}
			r.Outcome, outcomeRank = Outcome{Status: status, Detail: "outcome.recorded: " + cmpOr(e.Content, status), Basis: &ref}, 3
		case vocab.TypeTaskUpdated:
			if outcomeRank > 2 {
				continue
			}
			status := map[string]string{"done": OutcomeSuccess, "cancelled": OutcomeFailure, "blocked": OutcomePartial}[str("status")]
			if status != "" {
				r.Outcome, outcomeRank = Outcome{Status: status, Detail: "task.updated: task " + str("task_id") + " " + str("status"), Basis: &ref}, 2
			}
		case vocab.TypeToolCallCompleted:
			tool := strings.ToLower(strings.TrimSpace(str("tool")))
			tools = append(tools, tool)
			if outcomeRank <= 1 {
				status := OutcomeSuccess
				if str("outcome") == "failure" {
					status = OutcomeFailure
				}
				r.Outcome, outcomeRank = Outcome{Status: status, Detail: fmt.Sprintf("last tool call: %s %s", tool, str("outcome")), Basis: &ref}, 1
			}
		case vocab.TypeMemoryKnownUnknown:
			r.KnownUnknowns = append(r.KnownUnknowns, KnownUnknown{Seq: e.Seq, Hash: ref.Hash, SessionID: p.SessionID,
				Question: str("question"), Context: str("context")})
			refs = append(refs, ref)
		}
	}
	if r.Outcome.Basis != nil {
		refs = append(refs, *r.Outcome.Basis)
	}
	if len(r.Surfaced) == 0 && len(r.MemoryActions) == 0 && len(rows) > 0 {
		r.Warnings = append(r.Warnings, "nothing was checked out in this session: no memory can take credit or blame for its outcome")
	}
	arts, err := a.applicable(ctx, p.SpaceID, seqs, tools)
	if err != nil {
		return nil, err
	}
	r.Artifacts = arts
	r.SourceEventRefs = citations(refs, artifactCitations(arts))
	r.Record, err = a.record(ctx, ActionReflectBackward, p.SpaceID, rec, struct {
		SessionID string `json:"session_id"`
	}{p.SessionID}, nil, surfacedArtifacts(arts), r.SourceEventRefs)
	return r, err
}

// applicable are the current artifacts citing any of seqs, then the procedures and failure
// patterns of tools that cite none of them, in id order within each group.
func (a *Actions) applicable(ctx context.Context, space string, seqs []int64, tools []string) ([]Artifact, error) {
	out := []Artifact{}
	if len(seqs) == 0 {
		return out, nil
	}
	all := []string{latent.TypeEpisode, latent.TypeProcedure, latent.TypeFailure, latent.TypePreference, latent.TypeCausal}
	citing, err := a.artifacts(ctx, space, all, seqs)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, art := range citing {
		seen[art.ID] = true
		art.Why = "cites an event of the session"
		out = append(out, art)
	}
	if len(tools) == 0 {
		return out, nil
	}
	more, err := a.artifacts(ctx, space, []string{latent.TypeProcedure, latent.TypeFailure}, nil)
	if err != nil {
		return nil, err
	}
	for _, art := range more {
		if seen[art.ID] {
			continue
		}
		var pl struct {
			Steps []string `json:"steps"`
			Tool  string   `json:"tool"`
		}
		if err := json.Unmarshal(art.Payload, &pl); err != nil {
			return nil, err
		}
		if (pl.Tool != "" && slices.Contains(tools, pl.Tool)) || (len(pl.Steps) > 0 && lcs(pl.Steps, tools) == len(pl.Steps)) {
			art.Why = "the session ran its tools"
			out = append(out, art)
		}
	}
	return out, nil
}

// cmpOr is the first non-empty string.
func cmpOr(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
