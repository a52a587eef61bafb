package latent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// ProjectionVersion is the version of the producers and of the artifact encoding. Raising it
// changes every artifact id, and the next build of each space built by another version
// discards its artifacts and derives them again from the log (latent_watermarks.built_version;
// the sweep enqueues that build). Version 2: bookkeeping events (checkout.*, zaxy.*) are no
// episode source and touch no session (b26fb79); version 1 spaces kept such episodes until
// their session got a new event. Version 3: a session longer than EpisodeMaxEvents is cut into
// several episodes (one artifact covered it all, and a weave verifies every source of what it
// weaves), and every slot names one thing (slot.go: a session's rebuild replaced another
// session's slots sharing its prefix, and two holders' preferences shared a slot). Causal,
// procedure and failure slots keep their version 2 spelling (a procedure's unless a tool name
// holds "→"), so their proposals are not made again. Version 4: a long session's cut at
// EpisodeMaxEvents moves past an event that asks something to the event after it, its answer
// (segments), so the weave can show the two together; confidence revisions carry over to the
// re-addressed artifacts whose slot and sources are unchanged (migration 000038). Version 5: a
// failure's retry is the same tool's next success with the same arguments when there is one
// (retryOf), so a generic tool's look around is no longer taken for the retry.
const ProjectionVersion = 5

// Artifact types (latent_artifacts.artifact_type).
const (
	// TypeEpisode is a session, or one task segment of a long one: a cited extractive summary,
	// its time window and outcome.
	TypeEpisode = "episode"
	// TypeProcedure is a successful multi-step tool sequence recurring across sessions.
	TypeProcedure = "procedure"
	// TypeFailure is a repeated tool failure with the steps that fixed it.
	TypeFailure = "failure"
	// TypePreference is a holder's current preference on a topic.
	TypePreference = "preference"
	// TypeCausal is a decision → failure (→ fix) link in a session, a hypothesis for review.
	TypeCausal = "causal"
)

// Methods (latent_artifacts.method).
const (
	// MethodDeterministic artifacts are pure functions of the log.
	MethodDeterministic = "deterministic"
	// MethodLearned artifacts come from a model trained on the space's own data.
	MethodLearned = "learned"
	// MethodLLMAssisted artifacts used a language model through the provider interface.
	MethodLLMAssisted = "llm-assisted"
)

// AuthorityNonAuthoritative is every artifact's authority: derived material steers ranking and
// planning but never stands as a fact.
const AuthorityNonAuthoritative = "non_authoritative"

// Artifact is one derived artifact (a row of latent_artifacts).
type Artifact struct {
	// ID is the content address (Address), hex sha256.
	ID string
	// Slot is what the artifact is a version of, e.g. "episode:<session>".
	Slot string
	// Type is one of the Type constants.
	Type string
	// Summary is the artifact's text, with [seq] citation markers where it quotes an event.
	Summary string
	// Sources are the cited events in seq order.
	Sources []SourceRef
	// EntityRefs are entities the artifact covers (entities.entity_id).
	EntityRefs []string
	// ValidFrom and ValidTo bound when the artifact holds (for an episode, its time window).
	ValidFrom, ValidTo *time.Time
	// Method is one of the Method constants.
	Method string
	// Confidence, 0 to 1, is how sure the producer is.
	Confidence float64
	// PurposeProfile says what the artifact serves (recall, planning, avoidance,
	// personalization, explanation).
	PurposeProfile string
	// ReasoningPhase says when in a task it helps (orient, plan, act, reflect).
	ReasoningPhase string
	// Payload is the artifact's structured content (payload_kind jsonb).
	Payload json.RawMessage
	// Supersedes is the id of the artifact this one replaces, if any.
	Supersedes string
	// Contradicts are ids of artifacts this one contradicts.
	Contradicts []string
	// Diagnostics are the producer's notes (counts, thresholds); not addressed.
	Diagnostics json.RawMessage
}

// addressed is the canonical encoding hashed into an artifact's id: the fields that say what
// the artifact is, in a fixed order. Lifecycle fields (valid_to, confidence, review and
// authority status, staleness, diagnostics) are left out, so they can change without the
// artifact becoming another one.
type addressed struct {
	Version        int             `json:"v"`
	Space          string          `json:"space"`
	Slot           string          `json:"slot"`
	Type           string          `json:"type"`
	Summary        string          `json:"summary"`
	Sources        []SourceRef     `json:"sources"`
	EntityRefs     []string        `json:"entity_refs"`
	ValidFrom      string          `json:"valid_from"`
	Method         string          `json:"method"`
	PurposeProfile string          `json:"purpose_profile"`
	ReasoningPhase string          `json:"reasoning_phase"`
	PayloadKind    string          `json:"payload_kind"`
	Payload        json.RawMessage `json:"payload"`
	Supersedes     string          `json:"supersedes"`
	Contradicts    []string        `json:"contradicts"`
}

// Address returns the artifact's content address in space: the hex sha256 of its canonical
// encoding (JSON of the addressed fields in a fixed order, times in RFC 3339 UTC with
// nanoseconds, the payload compacted). The same content always has the same id.
func (a *Artifact) Address(space string) (string, error) {
	payload := &bytes.Buffer{}
	if len(a.Payload) > 0 {
		if err := json.Compact(payload, a.Payload); err != nil {
			return "", fmt.Errorf("address artifact: payload: %w", err)
		}
	}
	enc := addressed{Version: ProjectionVersion, Space: space, Slot: a.Slot, Type: a.Type, Summary: a.Summary,
		Sources: nonNil(a.Sources), EntityRefs: nonNil(a.EntityRefs), Method: a.Method,
		PurposeProfile: a.PurposeProfile, ReasoningPhase: a.ReasoningPhase, PayloadKind: "jsonb",
		Payload: payload.Bytes(), Supersedes: a.Supersedes, Contradicts: nonNil(a.Contradicts)}
	if a.ValidFrom != nil {
		enc.ValidFrom = a.ValidFrom.UTC().Format(time.RFC3339Nano)
	}
	if len(enc.Payload) == 0 {
		enc.Payload = json.RawMessage("null")
	}
	b, err := json.Marshal(enc)
	if err != nil {
		return "", fmt.Errorf("address artifact: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// SourceSeqs returns the cited seqs in order.
func (a *Artifact) SourceSeqs() []int64 {
	out := make([]int64, len(a.Sources))
	for i, s := range a.Sources {
		out[i] = s.Seq
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ToolsOf are the tools an artifact of type typ with payload is about: a procedure's steps,
// in order, or a failure pattern's or causal link's tool; none for other types or a payload
// that does not say.
func ToolsOf(typ string, payload []byte) []string {
	var pl struct {
		Steps []string `json:"steps"`
		Tool  string   `json:"tool"`
	}
	if json.Unmarshal(payload, &pl) != nil {
		return nil
	}
	switch typ {
	case TypeProcedure:
		return pl.Steps
	case TypeFailure, TypeCausal:
		if pl.Tool != "" {
			return []string{pl.Tool}
		}
	}
	return nil
}
