package mcp

import (
	"github.com/zaxy/zaxy/api"
	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/ingest"
	"github.com/zaxy/zaxy/vocab"
)

// Argument types. Each tool's input embeds the request type the API decodes, so that a field
// added to a request reaches the tool's schema too.
type (
	spaceArg struct {
		Space string `json:"space"`
	}
	idempotencyArg struct {
		IdempotencyKey string `json:"idempotency_key,omitempty"`
	}
	// envelopeArgs are the event fields of memory_feedback, memory_invalidate, memory_pin and
	// memory_unpin.
	envelopeArgs struct {
		SessionID string `json:"session_id,omitempty"`
		Actor     string `json:"actor,omitempty"`
		Content   string `json:"content,omitempty"`
	}

	appendInput struct {
		spaceArg
		eventloom.NewEvent
		idempotencyArg
	}
	checkoutInput struct {
		spaceArg
		api.CheckoutBody
	}
	feelingInput struct {
		spaceArg
		api.FeelingBody
	}
	stepInput struct {
		spaceArg
		checkout.StepRequest
	}
	assembleInput struct {
		spaceArg
		api.AssembleBody
	}
	afterTurnInput struct {
		spaceArg
		api.AfterTurnBody
		idempotencyArg
	}
	handoffInput struct {
		spaceArg
		api.HandoffBody
	}
	cleanupInput struct {
		spaceArg
		SubagentID string `json:"subagent_id"`
		api.CleanupBody
	}
	resumeInput struct {
		spaceArg
		SessionID string `json:"session_id"`
	}
	replayInput struct {
		spaceArg
		api.ReplayQuery
	}
	verifyInput struct {
		spaceArg
		api.VerifyQuery
	}
	documentsInput struct {
		spaceArg
		ingest.DocumentsParams
	}
	transcriptInput struct {
		spaceArg
		ingest.TranscriptParams
	}
	factsInput struct {
		spaceArg
		api.FactsQuery
	}
	entityInput struct {
		spaceArg
		Entity string `json:"entity"`
	}
	cypherInput struct {
		spaceArg
		api.CypherBody
	}
	indexInput struct {
		spaceArg
		api.IndexQuery
	}
	timelineInput struct {
		spaceArg
		api.TimelineQuery
	}
	itemInput struct {
		spaceArg
		ID string `json:"id"`
	}
	feedbackInput struct {
		spaceArg
		envelopeArgs
		vocab.FeedbackRecorded
		idempotencyArg
	}
	invalidateInput struct {
		spaceArg
		envelopeArgs
		vocab.MemoryInvalidated
		idempotencyArg
	}
	pinInput struct {
		spaceArg
		envelopeArgs
		vocab.MemoryPinned
		idempotencyArg
	}
	capabilitiesInput struct{}
	reviewListInput   struct {
		spaceArg
		api.ProposalsQuery
	}
	reviewGetInput struct {
		spaceArg
		ProposalSeq int64 `json:"proposal_seq"`
	}
	recordedCheckoutInput struct {
		spaceArg
		SurfacedSeq int64 `json:"surfaced_seq"`
	}
	artifactsInput struct {
		spaceArg
		api.ArtifactsQuery
	}
	priorInput struct {
		spaceArg
		api.PriorBody
	}
	simulateInput struct {
		spaceArg
		api.SimulateBody
	}
	reflectInput struct {
		spaceArg
		api.ReflectBody
	}
	neighborhoodInput struct {
		spaceArg
		api.NeighborhoodBody
	}
	proposeInput struct {
		spaceArg
		idempotencyArg
		api.ProposeBody
	}
	reviseInput struct {
		spaceArg
		idempotencyArg
		api.ReviseBody
	}
	knownUnknownInput struct {
		spaceArg
		idempotencyArg
		api.KnownUnknownBody
	}
	scoreInput struct {
		spaceArg
		idempotencyArg
		api.ScoreBody
	}
	reviewDecideInput struct {
		spaceArg
		ProposalSeq int64 `json:"proposal_seq"`
		api.DecisionBody
	}
	policyActionInput struct {
		spaceArg
		api.PolicyActionBody
	}
	policyPromoteInput struct {
		spaceArg
		Version string `json:"version"`
		api.PolicyActionBody
	}
)
