package vocab

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Message is the data of a "message" event: one conversation turn. Its text is the event's
// content.
type Message struct {
	// Role is user, assistant, system or tool.
	Role string `json:"role"`
	// Name is the speaker's name, optional.
	Name string `json:"name,omitempty"`
}

// FactAsserted is the data of a "fact.asserted" event: subject —predicate→ object or value.
type FactAsserted struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	// Object names another entity; exactly one of Object and Value is set.
	Object *string `json:"object,omitempty"`
	// Value is any JSON value other than null.
	Value      json.RawMessage `json:"value,omitempty"`
	ValidFrom  *time.Time      `json:"valid_from,omitempty"`
	ValidTo    *time.Time      `json:"valid_to,omitempty"`
	Confidence *float64        `json:"confidence,omitempty"`
	// ProposalSeq, set when the fact is asserted by accepting a belief_update proposal, is the
	// proposal.created event's seq: the fact then cites the proposal and its evidence.
	ProposalSeq *int64 `json:"proposal_seq,omitempty"`
}

// FactRetracted is the data of a "fact.retracted" event. Object or Value, when given, limit
// the retraction to that current value.
type FactRetracted struct {
	Subject   string          `json:"subject"`
	Predicate string          `json:"predicate"`
	Object    *string         `json:"object,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Reason    string          `json:"reason,omitempty"`
}

// MemoryInvalidated is the data of a "memory.invalidated" event: exactly one of TargetSeq (an
// earlier event of the space) and TargetID (a fact or entity id).
type MemoryInvalidated struct {
	TargetSeq *int64 `json:"target_seq,omitempty"`
	TargetID  string `json:"target_id,omitempty"`
	// Reason, required, says why the memory is no longer to be trusted.
	Reason string `json:"reason"`
}

// DecisionRecorded is the data of a "decision.recorded" event. Decision is required in data
// even when the event's content also describes it (content is free text, e.g. the discussion).
type DecisionRecorded struct {
	Decision     string   `json:"decision"`
	Rationale    string   `json:"rationale,omitempty"`
	Alternatives []string `json:"alternatives,omitempty"`
	// Subject, optional, is what the decision is about; the newest decision about a subject
	// supersedes the previous one.
	Subject string `json:"subject,omitempty"`
}

// TaskUpdated is the data of a "task.updated" event.
type TaskUpdated struct {
	TaskID string `json:"task_id"`
	// Status is open, in_progress, blocked, done or cancelled.
	Status string `json:"status"`
	Title  string `json:"title,omitempty"`
}

// PreferenceStated is the data of a "preference.stated" event.
type PreferenceStated struct {
	// Holder is whose preference it is; defaults to the event's actor.
	Holder     string `json:"holder,omitempty"`
	Topic      string `json:"topic"`
	Preference string `json:"preference"`
}

// ToolCallCompleted is the data of a "tool_call.completed" event.
type ToolCallCompleted struct {
	Tool string `json:"tool"`
	// Arguments is a summary of the call's arguments (at most 4096 characters).
	Arguments string `json:"arguments,omitempty"`
	// Outcome is success or failure.
	Outcome string `json:"outcome"`
	// Error is the failure's message; only allowed when Outcome is failure.
	Error      string `json:"error,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"`
}

// DocumentChunk is the data of a "document.chunk" event; the chunk's text is the event's
// content and End-Start is its length in bytes.
type DocumentChunk struct {
	DocumentID string `json:"document_id"`
	Path       string `json:"path,omitempty"`
	Start      int64  `json:"start"`
	End        int64  `json:"end"`
	ChunkIndex int    `json:"chunk_index,omitempty"`
	// DocumentSHA256 is the lowercase hex SHA-256 of the whole document's text, optional.
	DocumentSHA256 string `json:"document_sha256,omitempty"`
}

// FeedbackRecorded is the data of a "feedback.recorded" event: a judgement of earlier events.
type FeedbackRecorded struct {
	// TargetSeqs are the events judged (their items ev:<seq>); at least one of TargetSeqs and
	// ItemIDs is given.
	TargetSeqs []int64 `json:"target_seqs,omitempty"`
	// ItemIDs are memory items judged by id ("ev:<seq>" or "fact:<id>"), e.g. a fact version.
	ItemIDs []string `json:"item_ids,omitempty"`
	// Signal is helpful, unhelpful, wrong or outdated.
	Signal      string `json:"signal"`
	Comment     string `json:"comment,omitempty"`
	CheckoutSeq *int64 `json:"checkout_seq,omitempty"`
	// MemoryAction, optional, names the memory action the feedback judges (score_memory_action).
	MemoryAction *MemoryActionRef `json:"memory_action,omitempty"`
}

// RedactionConfigured is the data of a "redaction.configured" event: the space's redaction
// mode from the next append on (docs/redaction.md). Only an append with admin rights may
// record it.
type RedactionConfigured struct {
	// Mode is "on" (the default of every space) or "off".
	Mode string `json:"mode"`
	// Reason says why, optional.
	Reason string `json:"reason,omitempty"`
}

// ProposalCreated is the data of a "proposal.created" event: a change to memory put up for
// review (docs/projections.md, "Proposals and review").
type ProposalCreated struct {
	// Kind is belief_update, skill, consolidation, procedure_revision, failure_prior or
	// known_unknown.
	Kind string `json:"kind"`
	// Evidence are the seqs of the earlier events the proposal rests on (at least one).
	Evidence []int64 `json:"evidence"`
	// Confidence, between 0 and 1, is how sure the proposer is; optional.
	Confidence *float64 `json:"confidence,omitempty"`
	// Fact is the fact a belief_update proposes (required for it, refused for the others),
	// shaped as fact.asserted data.
	Fact *FactAsserted `json:"fact,omitempty"`
	// Contradicts, optional, is the id of the current fact the proposal would replace: set by
	// interference detection, it labels that fact conflicted until the proposal is decided.
	Contradicts string `json:"contradicts,omitempty"`
	// Inference, set by interference detection, names the inferred statement the proposal
	// comes from, so the statement's review_status follows the proposal.
	Inference *InferenceRef `json:"inference,omitempty"`
	// Rationale says why, optional.
	Rationale string `json:"rationale,omitempty"`
	// Artifact, set by the latent layer (package latent), names the derived artifact the
	// proposal puts up for review: the artifact's review_status follows the proposal.
	Artifact *ArtifactRef `json:"artifact,omitempty"`
	// Feedback is the feedback.recorded data a feedback proposal proposes (required for it,
	// refused for the others); accepting the proposal appends it.
	Feedback json.RawMessage `json:"feedback,omitempty"`
	// Revision is the memory.confidence_revised data a confidence_revision proposal proposes
	// (required for it, refused for the others); accepting the proposal appends it.
	Revision json.RawMessage `json:"revision,omitempty"`
}

// SkillRecorded is the data of a "skill.recorded" event: a skill entry made by accepting a
// proposal (docs/latent.md, "Reviewed skills"). Its content is the entry's text, which the
// projector keeps as a memory item; the prospective pass serves it as a reviewed skill.
type SkillRecorded struct {
	// ProposalSeq is the accepted proposal.created.
	ProposalSeq int64 `json:"proposal_seq"`
	// Kind is the proposal's kind: skill, failure_prior or procedure_revision.
	Kind string `json:"kind"`
	// Artifact, for a mined skill, is the latent artifact it was proposed from.
	Artifact *ArtifactRef `json:"artifact,omitempty"`
	// Steps are the tools of a procedure, in order (a mined procedure or a revised plan).
	Steps []string `json:"steps,omitempty"`
	// Tool and Error are a failure's tool and error (a mined failure pattern or a failure
	// prior); Fix the calls that fixed it, when known.
	Tool  string   `json:"tool,omitempty"`
	Error string   `json:"error,omitempty"`
	Fix   []string `json:"fix,omitempty"`
	// Evidence are the seqs the proposal cited.
	Evidence []int64 `json:"evidence,omitempty"`
}

// RetrospectiveConfigured is the data of a "retrospective.configured" event: how the
// retrospective pass records its feedback and confidence revisions from this event on
// (docs/latent.md, "Review of the pass's judgements").
type RetrospectiveConfigured struct {
	// Mode is "review" (every judgement a proposal; the default of a space without one) or
	// "apply" (a judgement of confidence at least MinConfidence appended at once).
	Mode string `json:"mode"`
	// MinConfidence is the least confidence applied at once in mode apply (default 0.8).
	MinConfidence *float64 `json:"min_confidence,omitempty"`
	// Reason says why, optional.
	Reason string `json:"reason,omitempty"`
}

// ArtifactRef names a latent artifact (docs/latent.md): its slot (what it is a version of,
// e.g. "procedure:git pull → go test") and its content-addressed id.
type ArtifactRef struct {
	Key string `json:"key"`
	ID  string `json:"id"`
	// SourcesSHA256, optional, is SourcesDigest of the artifact's source seqs. A confidence
	// revision naming it also applies to a later artifact of the same slot and sources under
	// another id (a new producer version re-addresses every artifact).
	SourcesSHA256 string `json:"sources_sha256,omitempty"`
}

// IsArtifactID reports whether s has a latent artifact id's form: a sha256 in 64 lowercase hex
// digits (latent_artifacts_id).
func IsArtifactID(s string) bool { return isSHA256Hex(s) }

// SourcesDigest is the sha256 (lowercase hex) of an artifact's source seqs in order, written
// in decimal and joined by commas: what ArtifactRef.SourcesSHA256 holds, and what SQL computes
// from latent_artifacts.source_seqs (zaxy_artifact_sources_digest, migration 000038).
func SourcesDigest(seqs []int64) string {
	parts := make([]string, len(seqs))
	for i, s := range seqs {
		parts[i] = strconv.FormatInt(s, 10)
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, ",")))
	return hex.EncodeToString(sum[:])
}

// InferenceRef names one inferred statement: the event it was inferred from, the model and
// its position in the model's answer (the view inferred_facts' seq, model and ordinal).
type InferenceRef struct {
	Seq     int64  `json:"seq"`
	Model   string `json:"model"`
	Ordinal int    `json:"ordinal"`
}

// ProposalDecided is the data of "proposal.accepted", "proposal.rejected" and
// "proposal.deferred": the decision about one proposal. Who decided is the event's actor.
type ProposalDecided struct {
	// ProposalSeq is the seq of the proposal.created event decided.
	ProposalSeq int64 `json:"proposal_seq"`
	// Reason says why, optional.
	Reason string `json:"reason,omitempty"`
}

// MemoryPinned is the data of a "memory.pinned" event, and MemoryUnpinned of a
// "memory.unpinned" one: the memory items named by id or by the seq of their event. A pinned
// item never falls below its space's salience floor; the latest pin or unpin of an item wins.
type MemoryPinned struct {
	// TargetSeqs are earlier events (their items ev:<seq>); at least one of TargetSeqs and
	// ItemIDs is given.
	TargetSeqs []int64 `json:"target_seqs,omitempty"`
	// ItemIDs are memory items by id ("ev:<seq>" or "fact:<id>").
	ItemIDs []string `json:"item_ids,omitempty"`
	// Reason says why, optional.
	Reason string `json:"reason,omitempty"`
}

// MemoryUnpinned is the data of a "memory.unpinned" event (the shape of MemoryPinned).
type MemoryUnpinned = MemoryPinned

// GateConfigured is the data of a "gate.configured" event: the space's write-time encoding
// gate from this event on (docs/projections.md, "Encoding gate"). Items projected before it keep
// their classification until a rebuild replays them under the setting of their own time.
type GateConfigured struct {
	// Mode is "on" or "off"; a space without a gate.configured follows the server default
	// (ZAXY_GATE, off).
	Mode string `json:"mode"`
	// Reason says why, optional.
	Reason string `json:"reason,omitempty"`
}

// SalienceConfigured is the data of a "salience.configured" event: the space's salience
// policy from this event on (docs/checkout.md, Salience). Fields left out keep their current
// value.
type SalienceConfigured struct {
	// HalfLifeDays is how many days of disuse halve an item's salience (default 30).
	HalfLifeDays *float64 `json:"half_life_days,omitempty"`
	// Floor is the salience below which an item leaves default ranking (default 0.1).
	Floor *float64 `json:"floor,omitempty"`
	// Reason says why, optional.
	Reason string `json:"reason,omitempty"`
}

// OutcomeRecorded is the data of an "outcome.recorded" event: how a session's work ended. The
// retrospective_credit job binds it to what was checked out into that session and appends
// feedback and proposals for it (docs/latent.md, Retrospective credit).
type OutcomeRecorded struct {
	// SessionID is the session whose outcome this is (it may differ from the event's own
	// session, e.g. an evaluator's).
	SessionID string `json:"session_id"`
	// Status is success, partial, failure or unknown; absent, the job classifies the session
	// from its tool calls and task updates.
	Status string `json:"status,omitempty"`
	// Summary says what happened.
	Summary string `json:"summary"`
	// Evidence, optional, are seqs of earlier events the outcome cites (e.g. the memory it
	// relied on, the failing call).
	Evidence []int64 `json:"evidence,omitempty"`
	// TaskID, optional, is the task the outcome is of.
	TaskID string `json:"task_id,omitempty"`
	// WeaveID, optional, is the memory weave the session reasoned with.
	WeaveID string `json:"weave_id,omitempty"`
}

// PolicyProposed is the data of a "policy.proposed" event: a retrieval policy fitted from the
// space's own log, content-addressed by Version, with the fit's diagnostics and the events it
// learned from.
type PolicyProposed struct {
	// Version is "fit-" and 12 hex digits of the sha256 of Policy's bytes.
	Version string `json:"version"`
	// Base is the version the fit started from.
	Base string `json:"base"`
	// Policy is the policy's canonical JSON (checkout.Policy without its version).
	Policy json.RawMessage `json:"policy"`
	// Fit holds the fit's diagnostics: the replay metric of the base and of the fitted policy,
	// how many checkouts and judged pairs it replayed.
	Fit json.RawMessage `json:"fit,omitempty"`
	// SourceSeqs are the checkout.surfaced and feedback.recorded events the fit learned from.
	SourceSeqs []int64 `json:"source_seqs,omitempty"`
}

// PolicyPromoted is the data of a "policy.promoted" event: Version becomes the space's current
// retrieval policy, replacing Previous, after the regression gate (Gate) passed.
type PolicyPromoted struct {
	Version  string          `json:"version"`
	Previous string          `json:"previous"`
	Gate     json.RawMessage `json:"gate,omitempty"`
}

// PolicyRolledBack is the data of a "policy.rolled_back" event: Version (the current policy)
// is withdrawn and Restored, the one it replaced, is current again.
type PolicyRolledBack struct {
	Version  string `json:"version"`
	Restored string `json:"restored"`
	Reason   string `json:"reason,omitempty"`
}
