package projection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/extract"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/vocab"
)

// Authority of a fact: asserted by a typed event, extracted deterministically from text, or
// inferred by a model.
const (
	AuthorityAsserted  = "asserted"
	AuthorityExtracted = "extracted"
	AuthorityInferred  = "inferred"
)

// entityRef names an entity by its normalized key.
type entityRef struct {
	Key  string
	Name string
	Kind string
}

// mentionEffect links a byte range of the event's text to an entity.
type mentionEffect struct {
	Start, End int
	Entity     entityRef
}

// factAssert opens or confirms the current version of (subject, predicate).
type factAssert struct {
	Subject    entityRef
	Predicate  string
	Object     *entityRef
	Value      []byte // canonical JSON, set when Object is nil
	ValidFrom  time.Time
	ValidTo    *time.Time
	Confidence *float64
	Authority  string
	// ProposalSeq is set when the fact is asserted by accepting the proposal at that seq.
	ProposalSeq *int64
	// Reviewable: a statement of fact.asserted or preference.stated, which does not replace a
	// pinned or endorsed current fact without review (interference.go).
	Reviewable bool
}

// factRetract closes the current version of (subject, predicate), optionally only when it
// has the given object or value.
type factRetract struct {
	Subject   entityRef
	Predicate string
	Object    *entityRef
	Value     []byte
	Reason    string
}

// invalidation marks an earlier event (and the facts it asserted) or a fact or entity by id
// as invalid.
type invalidation struct {
	TargetSeq int64
	TargetID  string
	Reason    string
}

// effects is everything one event contributes to the projections.
type effects struct {
	// Text is the event's memory text for full-text and vector search; empty means the event
	// is not a memory item.
	Text          string
	Mentions      []mentionEffect
	Asserts       []factAssert
	Retracts      []factRetract
	Invalidations []invalidation
	// Proposal is a proposal.created event's proposal; Decision a decision about one.
	Proposal *proposalEffect
	Decision *decisionEffect
	// Reinforcements are the items the event reinforces (salience.go).
	Reinforcements []reinforcementEffect
	// Feedback is a feedback.recorded event's judgement (feedback.go).
	Feedback *feedbackEffect
	// Woven are the latent artifacts a checkout.surfaced record's weave cited
	// (weave_citations.go).
	Woven []string
	// SalienceConfig is a salience.configured event's policy.
	SalienceConfig *vocab.SalienceConfigured
	// GateConfig is a gate.configured event's setting (gate.go).
	GateConfig *vocab.GateConfigured
	// Policy is a retrieval policy event's change (policy.go).
	Policy *policyOp
}

// extractEvent derives an event's effects. It is deterministic: the same event always gives
// the same effects. Unknown types contribute only their text.
func extractEvent(e *eventloom.Event) (effects, error) {
	var fx effects
	if e.Erased() {
		return fx, nil // an erased event's tombstone contributes nothing
	}
	if isPolicyEvent(e.Type) {
		return policyEffects(e)
	}
	if memoryitem.IsBookkeeping(e.Type) {
		// Bookkeeping is never memory; a checkout's surfacing reinforces what it surfaced, and
		// its weave's artifacts are cited by it.
		if e.Type == surfacedType {
			fx.Woven = wovenArtifacts(e)
		}
		err := salienceEffects(e, &fx)
		return fx, err
	}
	fx.Text = e.Content
	if err := salienceEffects(e, &fx); err != nil {
		return fx, err
	}
	switch e.Type {
	case vocab.TypeMessage, vocab.TypeDocumentChunk:
		fx.Mentions = textMentions(e.Content)
	case vocab.TypeFactAsserted:
		d, err := vocab.Decode[vocab.FactAsserted](e.Data)
		if err != nil {
			return fx, err
		}
		a := factAssert{
			Subject:     named(d.Subject, "entity"),
			Predicate:   normalizePredicate(d.Predicate),
			ValidFrom:   e.OccurredAt,
			ValidTo:     d.ValidTo,
			Confidence:  d.Confidence,
			Authority:   AuthorityAsserted,
			ProposalSeq: d.ProposalSeq,
			Reviewable:  true,
		}
		if d.ValidFrom != nil {
			a.ValidFrom = d.ValidFrom.UTC()
		}
		if d.Object != nil {
			o := named(*d.Object, "entity")
			a.Object = &o
		} else {
			v, err := canonicalJSON(d.Value)
			if err != nil {
				return fx, err
			}
			a.Value = v
		}
		fx.Asserts = append(fx.Asserts, a)
		// The fact version is a memory item of its own; the event adds only its free text.
	case vocab.TypeProposalCreated, vocab.TypeProposalAccepted, vocab.TypeProposalRejected, vocab.TypeProposalDeferred:
		return proposalEffects(e)
	case vocab.TypeFactRetracted:
		d, err := vocab.Decode[vocab.FactRetracted](e.Data)
		if err != nil {
			return fx, err
		}
		r := factRetract{Subject: named(d.Subject, "entity"), Predicate: normalizePredicate(d.Predicate), Reason: d.Reason}
		if d.Object != nil {
			o := named(*d.Object, "entity")
			r.Object = &o
		} else if len(d.Value) > 0 {
			v, err := canonicalJSON(d.Value)
			if err != nil {
				return fx, err
			}
			r.Value = v
		}
		fx.Retracts = append(fx.Retracts, r)
		fx.Text = joinText(e.Content, "retracted: "+factText(r.Subject.Name, r.Predicate, r.Object, r.Value), d.Reason)
	case vocab.TypeMemoryInvalidated:
		d, err := vocab.Decode[vocab.MemoryInvalidated](e.Data)
		if err != nil {
			return fx, err
		}
		inv := invalidation{TargetID: d.TargetID, Reason: d.Reason}
		if d.TargetSeq != nil {
			inv.TargetSeq = *d.TargetSeq
		}
		fx.Invalidations = append(fx.Invalidations, inv)
		fx.Text = joinText(e.Content, "invalidated: "+d.Reason)
	case vocab.TypeDecisionRecorded:
		d, err := vocab.Decode[vocab.DecisionRecorded](e.Data)
		if err != nil {
			return fx, err
		}
		fx.Text = joinText(e.Content, "decision: "+d.Decision, d.Rationale)
		fx.Mentions = textMentions(e.Content)
		if d.Subject != "" {
			fx.Asserts = append(fx.Asserts, factAssert{
				Subject: named(d.Subject, "entity"), Predicate: "decision",
				Value: mustJSON(d.Decision), ValidFrom: e.OccurredAt, Authority: AuthorityAsserted,
			})
		}
	case vocab.TypeTaskUpdated:
		d, err := vocab.Decode[vocab.TaskUpdated](e.Data)
		if err != nil {
			return fx, err
		}
		task := entityRef{Key: "task:" + normalizeKey(d.TaskID), Name: "task " + d.TaskID, Kind: "task"}
		fx.Asserts = append(fx.Asserts, factAssert{
			Subject: task, Predicate: "status", Value: mustJSON(d.Status), ValidFrom: e.OccurredAt, Authority: AuthorityAsserted,
		})
		if d.Title != "" {
			fx.Asserts = append(fx.Asserts, factAssert{
				Subject: task, Predicate: "title", Value: mustJSON(d.Title), ValidFrom: e.OccurredAt, Authority: AuthorityAsserted,
			})
		}
		// The status and title facts are memory items; the event adds only its free text.
	case vocab.TypePreferenceStated:
		d, err := vocab.Decode[vocab.PreferenceStated](e.Data)
		if err != nil {
			return fx, err
		}
		holder := d.Holder
		if holder == "" {
			holder = e.Actor
		}
		if holder == "" {
			holder = "user"
		}
		fx.Asserts = append(fx.Asserts, factAssert{
			Subject: named(holder, "entity"), Predicate: "prefers " + normalizePredicate(d.Topic),
			Value: mustJSON(d.Preference), ValidFrom: e.OccurredAt, Authority: AuthorityAsserted, Reviewable: true,
		})
		// The preference fact is a memory item; the event adds only its free text.
	case vocab.TypeToolCallCompleted:
		d, err := vocab.Decode[vocab.ToolCallCompleted](e.Data)
		if err != nil {
			return fx, err
		}
		tool := entityRef{Key: "tool:" + normalizeKey(d.Tool), Name: d.Tool, Kind: "tool"}
		fx.Asserts = append(fx.Asserts, factAssert{
			Subject: tool, Predicate: "last_outcome", Value: mustJSON(d.Outcome), ValidFrom: e.OccurredAt, Authority: AuthorityAsserted,
		})
		if d.Outcome == "failure" && d.Error != "" {
			fx.Asserts = append(fx.Asserts, factAssert{
				Subject: tool, Predicate: "last_error", Value: mustJSON(d.Error), ValidFrom: e.OccurredAt, Authority: AuthorityAsserted,
			})
		}
		fx.Text = joinText(e.Content, fmt.Sprintf("tool %s %s %s", d.Tool, d.Outcome, d.Arguments), d.Error)
		fx.Mentions = textMentions(e.Content)
	}
	return fx, nil
}

// MaxEventMentions bounds the mentions one event's text gives (its first ones, in text order),
// so that the entities and mention rows one write makes are bounded; a rebuild keeps the same
// ones (docs/projections.md, "Bounded work per event").
const MaxEventMentions = 1000

// textMentions runs the deterministic mention extractor over free text and keeps the first
// MaxEventMentions mentions that name an entity.
func textMentions(text string) []mentionEffect {
	ms := extract.Mentions(text)
	out := make([]mentionEffect, 0, min(len(ms), MaxEventMentions))
	for _, m := range ms {
		if m.Key == "" {
			continue
		}
		if len(out) == MaxEventMentions {
			break
		}
		out = append(out, mentionEffect{Start: m.Start, End: m.End, Entity: entityRef{Key: m.Key, Name: m.Text, Kind: m.Kind}})
	}
	return out
}

// named is the entity a free-form name in a typed event refers to.
func named(name, kind string) entityRef {
	return entityRef{Key: normalizeKey(name), Name: strings.Join(strings.Fields(name), " "), Kind: kind}
}

// normalizeKey is the entity key of a name (graph.Key).
func normalizeKey(name string) string { return graph.Key(name) }

// normalizePredicate lowercases a predicate and collapses its whitespace.
func normalizePredicate(p string) string { return normalizeKey(p) }

// canonicalJSON re-encodes a JSON value with sorted object keys and numbers as written, so
// equal values compare equal byte for byte.
func canonicalJSON(raw json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode value: %w", err)
	}
	return json.Marshal(v)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// factText is the readable sentence of a fact: "subject predicate object".
func factText(subject, predicate string, object *entityRef, value []byte) string {
	if object != nil {
		return subject + " " + predicate + " " + object.Name
	}
	return subject + " " + predicate + " " + valueText(value)
}

// valueText renders a JSON value for reading: strings without quotes, anything else as JSON.
func valueText(value []byte) string {
	var s string
	if json.Unmarshal(value, &s) == nil {
		return s
	}
	return string(value)
}

func joinText(parts ...string) string {
	var nonEmpty []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	return strings.Join(nonEmpty, "\n")
}
