package lifecyclewire

import (
	"github.com/zaxy/zaxy/checkout/checkoutwire"
	"github.com/zaxy/zaxy/eventloom/eventloomwire"
)

// AssembleRequest asks for the context of an agent's next step.
type AssembleRequest struct {
	checkoutwire.Request
	// WorkingSet is what the agent holds right now (open files, the task at hand, notes);
	// it is included verbatim, ahead of ranked memory, within the budget.
	WorkingSet []string `json:"working_set,omitempty"`
}

// Assembled is assembled context: recent session replay, ranked memory (with the verbatim
// lane), the working set, and a recovery packet when the session was just resumed.
type Assembled struct {
	Packet     *checkoutwire.Packet `json:"packet"`
	WorkingSet []string             `json:"working_set"`
	Recovery   *Recovery            `json:"recovery,omitempty"`
	// Text is the prompt-ready whole: the packet's text, then the working set.
	Text string `json:"text"`
	// Tokens is the estimate for Text; it never exceeds the request's max_tokens.
	Tokens int `json:"tokens"`
}

// AfterTurnResult is the receipts of the appended turn and the next context.
type AfterTurnResult struct {
	Receipts []eventloomwire.Receipt `json:"receipts"`
	// Redactions counts the secrets replaced in the turn's events before they were stored
	// (eventloomwire.AppendResult.Redactions).
	Redactions int        `json:"redactions"`
	Context    *Assembled `json:"context"`
}
