package policy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/policy/internal/dbsqlc"
	"github.com/zaxy/zaxy/validation"
	"github.com/zaxy/zaxy/vocab"
)

// Errors of the policy lifecycle.
var (
	// ErrPolicyNotFound: the space never proposed that version.
	ErrPolicyNotFound = errors.New("retrieval policy not found")
	// ErrNothingToLearn: the space's log holds no judged checkout to fit from, or the fit found
	// no weights that replay better than the current ones.
	ErrNothingToLearn = errors.New("nothing to learn")
	// ErrNothingToRollBack: the space is on the policy it started with.
	ErrNothingToRollBack = errors.New("nothing to roll back")
	// ErrCurrentChanged: another promotion or rollback landed while this one was being checked.
	ErrCurrentChanged = errors.New("the current retrieval policy changed meanwhile")
)

// GateError is a regression gate's refusal: the candidate replays (or measures on the dev
// benchmarks) worse than the current policy. It wraps ErrGateFailed.
type GateError struct {
	Version, Current string
	Gate             Gate
	// Reason is a human sentence naming the metric that dropped and both numbers.
	Reason string
}

// ErrGateFailed is what every GateError is (errors.Is).
var ErrGateFailed = errors.New("regression gate failed")

func (e *GateError) Error() string {
	return fmt.Sprintf("policy %s not promoted: %s", e.Version, e.Reason)
}

// Unwrap makes a GateError an ErrGateFailed.
func (e *GateError) Unwrap() error { return ErrGateFailed }

// Service runs a space's policy lifecycle: list, fit, promote, rollback. Its appends are
// admin appends: callers (the CLI, the admin-scoped routes) have checked the rights.
type Service struct {
	db    pgexec.Executor
	store *eventloom.Store
	q     *dbsqlc.Queries
}

// New returns a Service reading through db and appending through store.
func New(db pgexec.Executor, store *eventloom.Store) *Service {
	return &Service{db: db, store: store, q: dbsqlc.New()}
}

// policyTypes and replayTypes are the events each reader needs.
var (
	policyTypes = []string{vocab.TypePolicyProposed, vocab.TypePolicyPromoted, vocab.TypePolicyRolledBack}
	replayTypes = []string{checkout.SurfacedType, vocab.TypeFeedbackRecorded}
)

// load replays the space's policy lifecycle from its log.
func (s *Service) load(ctx context.Context, db pgexec.Executor, space string) (*lifecycle, error) {
	if err := eventloom.ValidateSpaceID(space); err != nil {
		return nil, err
	}
	rows, err := s.q.Events(ctx, db, dbsqlc.EventsParams{SpaceID: space, Types: policyTypes})
	if err != nil {
		return nil, fmt.Errorf("read policy events of %q: %w", space, err)
	}
	return replayLifecycle(rows)
}

// dataset reads the space's recorded checkouts and feedback.
func (s *Service) dataset(ctx context.Context, space string, lc *lifecycle) (*dataset, error) {
	rows, err := s.q.Events(ctx, s.db, dbsqlc.EventsParams{SpaceID: space, Types: replayTypes})
	if err != nil {
		return nil, fmt.Errorf("read checkouts and feedback of %q: %w", space, err)
	}
	return buildDataset(rows, lc), nil
}

// List returns the space's policies: the built-in ones (oldest first) and every proposed
// version, newest proposal last, each with its status. A space with no events lists the
// built-in ones, the default current.
func (s *Service) List(ctx context.Context, space string) (*Listing, error) {
	lc, err := s.load(ctx, s.db, space)
	if err != nil {
		return nil, err
	}
	out := &Listing{SpaceID: space, Current: lc.current, Projected: checkout.BuiltinPolicyVersion, History: append([]string{}, lc.history...)}
	cur, err := s.q.Current(ctx, s.db, space)
	switch {
	case err == nil:
		out.Projected = cur.Version
	case !errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("read current policy of %q: %w", space, err)
	}
	status := func(v string) string {
		switch {
		case v == lc.current:
			return "current"
		case slices.Contains(lc.history, v):
			return "previous"
		}
		return "proposed"
	}
	for _, v := range vocab.BuiltinPolicyVersions {
		out.Policies = append(out.Policies, Entry{Version: v, Status: status(v), Policy: checkout.BuiltinPolicyOf(v)})
	}
	for _, v := range lc.order {
		p := lc.proposed[v]
		out.Policies = append(out.Policies, Entry{Version: v, Status: status(v), Policy: p.Policy, Proposal: p})
	}
	return out, nil
}

// Fit learns lane weights from the space's judged checkouts, starting from the current policy,
// and proposes the result (policy.proposed, citing the events it learned from). It is
// ErrNothingToLearn when no checkout was judged both ways or the search found nothing better.
func (s *Service) Fit(ctx context.Context, space, actor string) (*FitResult, error) {
	if err := s.requireSpace(ctx, space); err != nil {
		return nil, err
	}
	lc, err := s.load(ctx, s.db, space)
	if err != nil {
		return nil, err
	}
	ds, err := s.dataset(ctx, space, lc)
	if err != nil {
		return nil, err
	}
	if ds.pairs == 0 {
		return nil, fmt.Errorf("%w: space %q has no checkout whose surfaced items got both helpful and negative feedback (feedback.recorded)", ErrNothingToLearn, space)
	}
	base := lc.policy(lc.current)
	fitted, diag := fit(base, ds)
	if !(objective{diag.Metric, diag.Margin}).better(objective{diag.BaseMetric, diag.BaseMargin}) {
		return nil, fmt.Errorf("%w: no lane weights near %s's replay better than its %.4f on %d judged checkouts", ErrNothingToLearn, lc.current, diag.BaseMetric, diag.Checkouts)
	}
	if fitted.Version, err = checkout.PolicyVersionOf(fitted); err != nil {
		return nil, err
	}
	res := &FitResult{Version: fitted.Version, Base: lc.current, Policy: fitted, Diagnostics: diag, SourceSeqs: ds.sources}
	return s.propose(ctx, space, actor, lc, res)
}

// propose appends res's policy.proposed event (its Seq set), unless the space proposed that
// version before (Seq 0).
func (s *Service) propose(ctx context.Context, space, actor string, lc *lifecycle, res *FitResult) (*FitResult, error) {
	if _, seen := lc.proposed[res.Version]; seen {
		return res, nil
	}
	content, err := res.Policy.Content()
	if err != nil {
		return nil, err
	}
	fitRaw, err := json.Marshal(res.Diagnostics)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(vocab.PolicyProposed{Version: res.Version, Base: res.Base, Policy: content, Fit: fitRaw, SourceSeqs: res.SourceSeqs})
	if err != nil {
		return nil, err
	}
	ap, err := s.store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Admin: true,
		Events: []eventloom.NewEvent{{Type: vocab.TypePolicyProposed, Actor: actorOr(actor), Data: data}}})
	if err != nil {
		return nil, fmt.Errorf("propose policy: %w", err)
	}
	res.Seq = ap.Receipts[0].Seq
	return res, nil
}

// DevMeasure measures a policy on the dev benchmarks, one Dev entry per benchmark with only
// the named policy's number filled in (Current); the gate calls it for the current policy and
// the candidate.
type DevMeasure func(ctx context.Context, p *checkout.Policy) ([]Dev, error)

// Promote makes version the space's current policy if it passes the regression gate: its
// replay metric on the space's own judged checkouts is at least the current policy's, and,
// when dev is given, its recall on every dev benchmark is at least the current policy's. A
// refusal is a *GateError naming the metric. Promoting a built-in policy goes through the same
// gate.
func (s *Service) Promote(ctx context.Context, space, version, actor string, dev DevMeasure) (*Promotion, error) {
	if err := s.requireSpace(ctx, space); err != nil {
		return nil, err
	}
	lc, err := s.load(ctx, s.db, space)
	if err != nil {
		return nil, err
	}
	cand := lc.policy(version)
	if cand == nil && strings.HasPrefix(version, "builtin-") {
		return nil, fmt.Errorf("%w: %s is not a built-in policy (%s)", ErrPolicyNotFound, version, strings.Join(vocab.BuiltinPolicyVersions, ", "))
	}
	if cand == nil {
		return nil, fmt.Errorf("%w: space %q never proposed %s (zaxy policy list)", ErrPolicyNotFound, space, version)
	}
	if version == lc.current {
		return nil, &validation.Error{Field: "version", Message: fmt.Sprintf("%s is already the current policy of %q", version, space)}
	}
	ds, err := s.dataset(ctx, space, lc)
	if err != nil {
		return nil, err
	}
	cur := lc.policy(lc.current)
	g := Gate{Current: lc.current, ReplayCheckouts: len(ds.checkouts), ReplayPairs: ds.pairs,
		ReplayCurrent: ds.metric(cur), ReplayCandidate: ds.metric(cand)}
	if g.ReplayCandidate < g.ReplayCurrent {
		return nil, &GateError{Version: version, Current: lc.current, Gate: g,
			Reason: fmt.Sprintf("its replay metric on the space's own history is %.4f, below the current %s's %.4f (%d judged checkouts, %d pairs)",
				g.ReplayCandidate, lc.current, g.ReplayCurrent, g.ReplayCheckouts, g.ReplayPairs)}
	}
	if dev != nil {
		if g.Dev, err = measureDev(ctx, dev, cur, cand); err != nil {
			return nil, err
		}
		for _, d := range g.Dev {
			if d.Candidate < d.Current {
				return nil, &GateError{Version: version, Current: lc.current, Gate: g,
					Reason: fmt.Sprintf("its %s on %s is %.4f, below the current %s's %.4f", d.Metric, d.Name, d.Candidate, lc.current, d.Current)}
			}
		}
	}
	gateRaw, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(vocab.PolicyPromoted{Version: version, Previous: lc.current, Gate: gateRaw})
	if err != nil {
		return nil, err
	}
	seq, err := s.appendIfCurrent(ctx, space, lc.current, eventloom.NewEvent{Type: vocab.TypePolicyPromoted, Actor: actorOr(actor), Data: data})
	if err != nil {
		return nil, err
	}
	return &Promotion{Version: version, Previous: lc.current, Gate: g, Seq: seq}, nil
}

// measureDev measures the current policy and the candidate on the dev benchmarks.
func measureDev(ctx context.Context, dev DevMeasure, cur, cand *checkout.Policy) ([]Dev, error) {
	before, err := dev(ctx, cur)
	if err != nil {
		return nil, fmt.Errorf("dev benchmarks with %s: %w", cur.Version, err)
	}
	after, err := dev(ctx, cand)
	if err != nil {
		return nil, fmt.Errorf("dev benchmarks with %s: %w", cand.Version, err)
	}
	if len(before) != len(after) {
		return nil, fmt.Errorf("dev benchmarks: %d results with %s, %d with %s", len(before), cur.Version, len(after), cand.Version)
	}
	out := make([]Dev, len(before))
	for i := range before {
		out[i] = Dev{Name: before[i].Name, Metric: before[i].Metric, Current: before[i].Current, Candidate: after[i].Current}
	}
	return out, nil
}

// Rollback withdraws the current policy and restores the one its promotion replaced
// (policy.rolled_back). It is ErrNothingToRollBack when no promotion is left to undo.
func (s *Service) Rollback(ctx context.Context, space, actor, reason string) (*Rollback, error) {
	if err := s.requireSpace(ctx, space); err != nil {
		return nil, err
	}
	lc, err := s.load(ctx, s.db, space)
	if err != nil {
		return nil, err
	}
	if len(lc.history) == 0 {
		return nil, fmt.Errorf("%w: space %q is on %s, the policy it started with", ErrNothingToRollBack, space, lc.current)
	}
	restored := lc.history[len(lc.history)-1]
	data, err := json.Marshal(vocab.PolicyRolledBack{Version: lc.current, Restored: restored, Reason: reason})
	if err != nil {
		return nil, err
	}
	seq, err := s.appendIfCurrent(ctx, space, lc.current, eventloom.NewEvent{Type: vocab.TypePolicyRolledBack, Actor: actorOr(actor), Data: data})
	if err != nil {
		return nil, err
	}
	return &Rollback{Version: lc.current, Restored: restored, Seq: seq}, nil
}

// appendIfCurrent appends ev when the space's current policy (per its log) is still current:
// under a transaction-scoped advisory lock of the space's policy, so two promotions or
// rollbacks never both act on the same current version.
func (s *Service) appendIfCurrent(ctx context.Context, space, current string, ev eventloom.NewEvent) (int64, error) {
	tx, err := s.db.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if err := s.q.Lock(ctx, tx, space); err != nil {
		return 0, fmt.Errorf("lock policy of %q: %w", space, err)
	}
	lc, err := s.load(ctx, tx, space)
	if err != nil {
		return 0, err
	}
	if lc.current != current {
		return 0, fmt.Errorf("%w: %s is current now, not %s; run the command again", ErrCurrentChanged, lc.current, current)
	}
	res, err := s.store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: space, Admin: true, Events: []eventloom.NewEvent{ev}})
	if err != nil {
		return 0, fmt.Errorf("append %s: %w", ev.Type, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("commit %s: %w", ev.Type, err)
	}
	return res.Receipts[0].Seq, nil
}

func (s *Service) requireSpace(ctx context.Context, space string) error {
	ok, err := s.store.SpaceExists(ctx, space)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: space %q has no events", eventloom.ErrNotFound, space)
	}
	return nil
}

func actorOr(a string) string {
	if a == "" {
		return "zaxy"
	}
	return a
}

// FitSpaces fits lane weights, starting from base, to the judged checkouts of several spaces'
// logs together, and returns the fitted policy (versioned) without proposing it anywhere:
// what `zaxy bench latent-policy` measures on the dev sets, whose questions live in one space
// per conversation. It is ErrNothingToLearn when nothing was judged both ways.
func (s *Service) FitSpaces(ctx context.Context, spaces []string, base *checkout.Policy) (*checkout.Policy, FitDiagnostics, error) {
	all := &dataset{}
	for _, space := range spaces {
		lc, err := s.load(ctx, s.db, space)
		if err != nil {
			return nil, FitDiagnostics{}, err
		}
		ds, err := s.dataset(ctx, space, lc)
		if err != nil {
			return nil, FitDiagnostics{}, err
		}
		all.checkouts = append(all.checkouts, ds.checkouts...)
		all.pairs += ds.pairs
	}
	if all.pairs == 0 {
		return nil, FitDiagnostics{}, fmt.Errorf("%w: no checkout of the %d spaces got both helpful and negative feedback", ErrNothingToLearn, len(spaces))
	}
	fitted, diag := fit(base, all)
	v, err := checkout.PolicyVersionOf(fitted)
	if err != nil {
		return nil, diag, err
	}
	fitted.Version = v
	return fitted, diag, nil
}
