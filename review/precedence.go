package review

// Authorities a statement can have, strongest first (facts.authority and the inferred
// statements of view inferred_facts).
const (
	AuthorityAsserted  = "asserted"
	AuthorityExtracted = "extracted"
	AuthorityInferred  = "inferred"
)

// Claim is what Precedence needs to know about one of two contradicting statements about the
// same (subject, predicate).
type Claim struct {
	// Authority is asserted, extracted or inferred.
	Authority string
	// Pinned: the statement is pinned (its latest memory.pinned or memory.unpinned pinned it),
	// which protects it from being replaced without review.
	Pinned bool
	// Endorsed: the statement has strong positive feedback (Endorsed reports it from the
	// reinforcement ledger's counts).
	Endorsed bool
}

// EndorsedMinHelpful is how many helpful feedbacks make strong positive feedback.
const EndorsedMinHelpful = 2

// Endorsed is the one definition of strong positive feedback on a statement: at least
// EndorsedMinHelpful helpful feedbacks, and more helpful than negative ones (unhelpful, wrong
// and outdated together). A statement so endorsed is not replaced without review
// (docs/projections.md, "Interference").
func Endorsed(helpful, negative int) bool {
	return helpful >= EndorsedMinHelpful && helpful > negative
}

// Verdict is what happens when a newer statement contradicts an older one.
type Verdict int

const (
	// VerdictVersion: the newer statement becomes the next version and closes the older
	// one (what a same-authority reassertion does).
	VerdictVersion Verdict = iota
	// VerdictPropose: the older statement stands; both are labelled conflicted and a
	// belief_update proposal of the newer one is put up for review.
	VerdictPropose
)

// rank orders authorities; a higher rank wins.
func rank(authority string) int {
	switch authority {
	case AuthorityAsserted:
		return 3
	case AuthorityExtracted:
		return 2
	case AuthorityInferred:
		return 1
	}
	return 0
}

// Precedence decides what a newer statement that contradicts an older one does. A newer
// statement of weaker authority never silently replaces a stronger one: it is proposed for
// review. Neither does anything replace a pinned or endorsed statement without review, except
// a restatement of the same or stronger authority that is itself pinned. Everything else
// versions (VerdictVersion).
func Precedence(newer, older Claim) Verdict {
	switch {
	case rank(newer.Authority) < rank(older.Authority):
		return VerdictPropose
	case older.Pinned && !newer.Pinned:
		return VerdictPropose
	case older.Endorsed && rank(newer.Authority) <= rank(older.Authority) && !newer.Pinned:
		return VerdictPropose
	}
	return VerdictVersion
}
