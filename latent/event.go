package latent

import (
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/zaxy/zaxy/vocab"
)

// event is an event as the producers read it.
type event struct {
	Seq        int64
	Hash       []byte
	Type       string
	Session    string
	Actor      string
	OccurredAt time.Time
	Content    string
	Data       json.RawMessage
}

func (e *event) ref() SourceRef { return SourceRef{Seq: e.Seq, Hash: hex.EncodeToString(e.Hash)} }

// metaTypes are events about memory rather than of it: never an artifact's source.
var metaTypes = map[string]bool{
	vocab.TypeMemoryInvalidated: true, "erasure.recorded": true, vocab.TypeFeedbackRecorded: true,
	vocab.TypeRedactionConfigured: true, vocab.TypeProposalCreated: true, vocab.TypeProposalAccepted: true,
	vocab.TypeProposalRejected: true, vocab.TypeProposalDeferred: true,
	vocab.TypePolicyProposed: true, vocab.TypePolicyPromoted: true, vocab.TypePolicyRolledBack: true,
}

// text is the event's text as an episode quotes it: its content, or for typed events without
// content a sentence made from their data.
func (e *event) text() string {
	if e.Content != "" {
		return e.Content
	}
	switch e.Type {
	case vocab.TypeToolCallCompleted:
		d, err := vocab.Decode[vocab.ToolCallCompleted](e.Data)
		if err != nil || d.Tool == "" {
			return ""
		}
		if d.Outcome == "failure" {
			if d.Error != "" {
				return d.Tool + " failed: " + d.Error
			}
			return d.Tool + " failed"
		}
		return d.Tool + " succeeded"
	case vocab.TypeDecisionRecorded:
		d, err := vocab.Decode[vocab.DecisionRecorded](e.Data)
		if err != nil || d.Decision == "" {
			return ""
		}
		return "Decision: " + d.Decision
	case vocab.TypePreferenceStated:
		d, err := vocab.Decode[vocab.PreferenceStated](e.Data)
		if err != nil || d.Topic == "" {
			return ""
		}
		return "Preference on " + d.Topic + ": " + d.Preference
	case vocab.TypeTaskUpdated:
		d, err := vocab.Decode[vocab.TaskUpdated](e.Data)
		if err != nil || d.TaskID == "" {
			return ""
		}
		return "Task " + d.TaskID + " is " + d.Status
	}
	return ""
}
