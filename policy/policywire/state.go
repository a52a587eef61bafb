package policywire

import (
	"encoding/json"

	"github.com/zaxy/zaxy/checkout/checkoutwire"
)

// Proposed is a proposed policy as its policy.proposed event states it.
type Proposed struct {
	Policy *checkoutwire.Policy `json:"policy"`
	// Base is the version the fit started from.
	Base string `json:"base"`
	// Fit is the fit's diagnostics (FitDiagnostics).
	Fit json.RawMessage `json:"fit,omitempty"`
	// Seq is the policy.proposed event.
	Seq int64 `json:"seq"`
	// SourceSeqs are the events the fit learned from.
	SourceSeqs []int64 `json:"source_seqs,omitempty"`
}
