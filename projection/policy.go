package projection

import (
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// policyOp is one retrieval policy event's change to the tables retrieval_policies and
// retrieval_policy_current (docs/checkout.md, "Retrieval policy"), applied in log order.
type policyOp struct {
	Type    string
	Seq     int64
	Hash    []byte
	Version string
	// Policy and Fit are a policy.proposed event's policy and fit diagnostics.
	Policy, Fit json.RawMessage
	// Replaced is the built-in policy a policy.promoted event replaces when the space has
	// promoted nothing before (vocab.ReplacedBuiltin).
	Replaced string
}

// policyEffects derives a policy.* event's change. The events are never memory items.
func policyEffects(e *eventloom.Event) (effects, error) {
	op := &policyOp{Type: e.Type, Seq: e.Seq, Hash: e.Hash}
	switch e.Type {
	case vocab.TypePolicyProposed:
		d, err := vocab.Decode[vocab.PolicyProposed](e.Data)
		if err != nil {
			return effects{}, err
		}
		op.Version, op.Policy, op.Fit = d.Version, d.Policy, d.Fit
		if len(op.Fit) == 0 {
			op.Fit = json.RawMessage(`{}`)
		}
	case vocab.TypePolicyPromoted:
		d, err := vocab.Decode[vocab.PolicyPromoted](e.Data)
		if err != nil {
			return effects{}, err
		}
		op.Version, op.Replaced = d.Version, vocab.ReplacedBuiltin(d.Previous)
	case vocab.TypePolicyRolledBack:
		d, err := vocab.Decode[vocab.PolicyRolledBack](e.Data)
		if err != nil {
			return effects{}, err
		}
		op.Version = d.Version
	}
	return effects{Policy: op}, nil
}

// isPolicyEvent reports whether typ is one of the retrieval policy's events.
func isPolicyEvent(typ string) bool {
	return typ == vocab.TypePolicyProposed || typ == vocab.TypePolicyPromoted || typ == vocab.TypePolicyRolledBack
}

// queuePolicies queues the batch's policy changes in log order (a promotion may name a
// version proposed earlier in the same batch).
func (s *batchState) queuePolicies(b *pgx.Batch) {
	for _, op := range s.policies {
		switch op.Type {
		case vocab.TypePolicyProposed:
			dbsqlc.QueuePolicyPropose(b, dbsqlc.PolicyProposeParams{SpaceID: s.space, Version: op.Version, Policy: op.Policy,
				Diagnostics: op.Fit, ProposedSeq: op.Seq, ProposedHash: op.Hash})
		case vocab.TypePolicyPromoted:
			dbsqlc.QueuePolicyPromote(b, dbsqlc.PolicyPromoteParams{SpaceID: s.space, Version: op.Version, ChangedSeq: op.Seq,
				Replaced: op.Replaced, BuiltinVersions: vocab.BuiltinPolicyVersions})
		case vocab.TypePolicyRolledBack:
			dbsqlc.QueuePolicyRollback(b, dbsqlc.PolicyRollbackParams{SpaceID: s.space, Version: op.Version, ChangedSeq: op.Seq})
		}
	}
}
