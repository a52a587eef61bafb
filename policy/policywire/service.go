package policywire

import (
	"github.com/zaxy/zaxy/checkout/checkoutwire"
)

// Entry is one version in a listing.
type Entry struct {
	Version string `json:"version"`
	// Status is "current", "previous" (on the rollback history) or "proposed".
	Status string               `json:"status"`
	Policy *checkoutwire.Policy `json:"policy"`
	// Proposal is the policy.proposed event and the fit (absent for a built-in policy).
	Proposal *Proposed `json:"proposal,omitempty"`
}

// Listing is a space's retrieval policies.
type Listing struct {
	SpaceID string `json:"space_id"`
	// Current is the version the log makes current; Projected the one checkout ranks with now
	// (they differ only until the projector has applied the latest policy event).
	Current   string `json:"current"`
	Projected string `json:"projected"`
	// History are the versions a rollback would restore, the next one last.
	History  []string `json:"history"`
	Policies []Entry  `json:"policies"`
}

// FitResult is a fit's outcome: the proposed version, its policy and diagnostics, and the
// policy.proposed event (Seq 0 when the version had been proposed before).
type FitResult struct {
	Version     string               `json:"version"`
	Base        string               `json:"base"`
	Policy      *checkoutwire.Policy `json:"policy"`
	Diagnostics FitDiagnostics       `json:"diagnostics"`
	SourceSeqs  []int64              `json:"source_seqs"`
	Seq         int64                `json:"seq,omitempty"`
}

// Gate is a regression gate's numbers: the replay metric of the current policy and the
// candidate on the space's own history, and the dev benchmarks' recall when measured.
type Gate struct {
	Current         string  `json:"current"`
	ReplayCheckouts int     `json:"replay_checkouts"`
	ReplayPairs     int     `json:"replay_pairs"`
	ReplayCurrent   float64 `json:"replay_current"`
	ReplayCandidate float64 `json:"replay_candidate"`
	Dev             []Dev   `json:"dev,omitempty"`
}

// Dev is one dev benchmark's recall under the current policy and the candidate.
type Dev struct {
	Name      string  `json:"name"`
	Metric    string  `json:"metric"`
	Current   float64 `json:"current"`
	Candidate float64 `json:"candidate"`
}

// Promotion is a promotion's outcome.
type Promotion struct {
	Version  string `json:"version"`
	Previous string `json:"previous"`
	Gate     Gate   `json:"gate"`
	Seq      int64  `json:"seq"`
}

// Rollback is a rollback's outcome.
type Rollback struct {
	Version  string `json:"version"`
	Restored string `json:"restored"`
	Seq      int64  `json:"seq"`
}
