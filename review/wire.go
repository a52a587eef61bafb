package review

import "github.com/zaxy/zaxy/review/reviewwire"

// The types that cross HTTP live in the leaf package reviewwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Decision is what a decision appended (reviewwire.Decision).
	Decision = reviewwire.Decision
	// Page is one page of proposals, in seq order (reviewwire.Page).
	Page = reviewwire.Page
	// Proposal is one proposal as the projection holds it (reviewwire.Proposal).
	Proposal = reviewwire.Proposal
)
