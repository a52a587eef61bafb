package checkout

import "github.com/zaxy/zaxy/checkout/checkoutwire"

// The types that cross HTTP live in the leaf package checkoutwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Budget reports the packet's token accounting (checkoutwire.Budget).
	Budget = checkoutwire.Budget
	// Citation points at the event a claim comes from (checkoutwire.Citation).
	Citation = checkoutwire.Citation
	// Component is one lane's contribution to an item's score (checkoutwire.Component).
	Component = checkoutwire.Component
	// Cues are what the agent is doing when it checks out (task, repo, tool, phase and free keys)
	// (checkoutwire.Cues).
	Cues = checkoutwire.Cues
	// Diagnostics reports how the packet was made (checkoutwire.Diagnostics).
	Diagnostics = checkoutwire.Diagnostics
	// Elided is an item left out, and why (checkoutwire.Elided).
	Elided = checkoutwire.Elided
	// FailureOccurrence is one cited failure and its fix (checkoutwire.FailureOccurrence).
	FailureOccurrence = checkoutwire.FailureOccurrence
	// FailurePrior is a repeated failure offered before a step (checkoutwire.FailurePrior).
	FailurePrior = checkoutwire.FailurePrior
	// Item is one memory in a packet or a query result (checkoutwire.Item).
	Item = checkoutwire.Item
	// Labels say how far an item can be trusted and whether memory has moved on from it
	// (checkoutwire.Labels).
	Labels = checkoutwire.Labels
	// LaneStat is one lane's diagnostics (checkoutwire.LaneStat).
	LaneStat = checkoutwire.LaneStat
	// Packet is a checkout's answer (checkoutwire.Packet).
	Packet = checkoutwire.Packet
	// Policy is a retrieval policy (checkoutwire.Policy).
	Policy = checkoutwire.Policy
	// Prior is a procedure or causal link offered before a step (checkoutwire.Prior).
	Prior = checkoutwire.Prior
	// Skill is a reviewed skill entry offered before a step (checkoutwire.Skill).
	Skill = checkoutwire.Skill
	// Prospective is a prospective pass's answer (checkoutwire.Prospective).
	Prospective = checkoutwire.Prospective
	// QueryResult is the body of a raw query (checkoutwire.QueryResult).
	QueryResult = checkoutwire.QueryResult
	// RejectedArtifact is an artifact a weave refused (checkoutwire.RejectedArtifact).
	RejectedArtifact = checkoutwire.RejectedArtifact
	// Request is a checkout (or a raw query) of one space (checkoutwire.Request).
	Request = checkoutwire.Request
	// Salience is how an item's salience was composed (docs/checkout.md, Salience)
	// (checkoutwire.Salience).
	Salience = checkoutwire.Salience
	// SalienceStats are a packet's or query's salience diagnostics (checkoutwire.SalienceStats).
	SalienceStats = checkoutwire.SalienceStats
	// StepRequest asks for a weave (the weave_memory action) or a prospective pass
	// (checkoutwire.StepRequest).
	StepRequest = checkoutwire.StepRequest
	// Tier is one section of a packet (checkoutwire.Tier).
	Tier = checkoutwire.Tier
	// Warning flags something the agent should know about what it is given (checkoutwire.Warning).
	Warning = checkoutwire.Warning
	// Weave is a section built for one reasoning step from precomputed latent artifacts
	// (docs/checkout.md, "Memory weave") (checkoutwire.Weave).
	Weave = checkoutwire.Weave
	// WeaveArtifact is one artifact as inferred context (checkoutwire.WeaveArtifact).
	WeaveArtifact = checkoutwire.WeaveArtifact
	// WeaveBudget is a weave's token accounting (checkoutwire.WeaveBudget).
	WeaveBudget = checkoutwire.WeaveBudget
	// WeaveEvidence is one accepted event in a weave (checkoutwire.WeaveEvidence).
	WeaveEvidence = checkoutwire.WeaveEvidence
	// WeaveLLMSummary is an LLM-assisted summary of a woven artifact
	// (checkoutwire.WeaveLLMSummary).
	WeaveLLMSummary = checkoutwire.WeaveLLMSummary
)
