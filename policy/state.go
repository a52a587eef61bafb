package policy

import (
	"fmt"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/policy/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// lifecycle is a space's policy lifecycle replayed from its policy.* events, with the same
// rules as the projection (sql/projection/policy_*.sql).
type lifecycle struct {
	proposed map[string]*Proposed
	order    []string // proposed versions in log order
	current  string
	history  []string // replaced versions, oldest first
	// promoted reports whether a promotion has been applied: before the first one the space is
	// on a built-in policy, the one the first promotion names as its previous (the default
	// built-in policy of the binary that appended it).
	promoted bool
}

// replayLifecycle folds a space's policy.* events in seq order.
func replayLifecycle(rows []dbsqlc.EventsRow) (*lifecycle, error) {
	lc := &lifecycle{proposed: map[string]*Proposed{}, current: checkout.BuiltinPolicyVersion}
	for _, r := range rows {
		switch r.Type {
		case vocab.TypePolicyProposed:
			d, err := vocab.Decode[vocab.PolicyProposed](r.Data)
			if err != nil {
				return nil, fmt.Errorf("policy.proposed at seq %d: %w", r.Seq, err)
			}
			if _, dup := lc.proposed[d.Version]; dup {
				continue
			}
			p, err := checkout.DecodePolicy(d.Version, d.Policy)
			if err != nil {
				return nil, fmt.Errorf("policy.proposed at seq %d: %w", r.Seq, err)
			}
			lc.proposed[d.Version] = &Proposed{Policy: p, Base: d.Base, Fit: d.Fit, Seq: r.Seq, SourceSeqs: d.SourceSeqs}
			lc.order = append(lc.order, d.Version)
		case vocab.TypePolicyPromoted:
			d, err := vocab.Decode[vocab.PolicyPromoted](r.Data)
			if err != nil {
				continue
			}
			replaced := lc.current
			if !lc.promoted {
				replaced = vocab.ReplacedBuiltin(d.Previous)
			}
			if d.Version == replaced {
				continue
			}
			if _, ok := lc.proposed[d.Version]; !ok && checkout.BuiltinPolicyOf(d.Version) == nil {
				continue
			}
			lc.history = append(lc.history, replaced)
			lc.current, lc.promoted = d.Version, true
		case vocab.TypePolicyRolledBack:
			d, err := vocab.Decode[vocab.PolicyRolledBack](r.Data)
			if err != nil || d.Version != lc.current || len(lc.history) == 0 {
				continue
			}
			lc.current = lc.history[len(lc.history)-1]
			lc.history = lc.history[:len(lc.history)-1]
		}
	}
	return lc, nil
}

// policy returns the policy named version: a built-in one, or one the space proposed (nil
// when it is neither).
func (lc *lifecycle) policy(version string) *checkout.Policy {
	if p := checkout.BuiltinPolicyOf(version); p != nil {
		return p
	}
	if p := lc.proposed[version]; p != nil {
		return p.Policy
	}
	return nil
}
