package policy

import "github.com/zaxy/zaxy/policy/policywire"

// The types that cross HTTP live in the leaf package policywire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Dev is one dev benchmark's recall under the current policy and the candidate
	// (policywire.Dev).
	Dev = policywire.Dev
	// Entry is one version in a listing (policywire.Entry).
	Entry = policywire.Entry
	// FitDiagnostics is what a fit reports and its policy.proposed event records
	// (policywire.FitDiagnostics).
	FitDiagnostics = policywire.FitDiagnostics
	// FitResult is a fit's outcome (policywire.FitResult).
	FitResult = policywire.FitResult
	// Gate is a regression gate's numbers (policywire.Gate).
	Gate = policywire.Gate
	// Listing is a space's retrieval policies (policywire.Listing).
	Listing = policywire.Listing
	// Promotion is a promotion's outcome (policywire.Promotion).
	Promotion = policywire.Promotion
	// Proposed is a proposed policy as its policy.proposed event states it (policywire.Proposed).
	Proposed = policywire.Proposed
	// Rollback is a rollback's outcome (policywire.Rollback).
	Rollback = policywire.Rollback
)
