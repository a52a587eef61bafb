package lifecycle

import (
	"context"
	"encoding/json"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/validation"
)

// CleanupSubagent appends a subagent.cleaned_up event in the subagent's session and returns
// it with a handoff bundle the parent can continue from.
func (s *Service) CleanupSubagent(ctx context.Context, r *CleanupRequest) (*Cleanup, error) {
	if r.SubagentID == "" || len(r.SubagentID) > 128 {
		return nil, &validation.Error{Field: "subagent_id", Message: "must be 1-128 characters"}
	}
	switch r.Outcome {
	case "success", "failure", "cancelled":
	default:
		return nil, &validation.Error{Field: "outcome", Message: "must be success, failure or cancelled"}
	}
	if r.SessionID == "" {
		r.SessionID = "subagent:" + r.SubagentID
	}
	data, err := json.Marshal(map[string]string{"subagent_id": r.SubagentID, "outcome": r.Outcome})
	if err != nil {
		return nil, err
	}
	res, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: r.SpaceID, Events: []eventloom.NewEvent{{
		Type: SubagentCleanedUpType, SessionID: r.SessionID, Actor: r.SubagentID, Content: r.Summary, Data: data,
	}}})
	if err != nil {
		return nil, err
	}
	h, err := s.HandoffBundle(ctx, &HandoffRequest{Request: r.Request})
	if err != nil {
		return nil, err
	}
	return &Cleanup{Receipt: res.Receipts[0], Handoff: h}, nil
}
