package retrospective

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/retrospective/internal/dbsqlc"
	"github.com/zaxy/zaxy/sql"
	"github.com/zaxy/zaxy/vocab"
)

// maxTraceEvents caps how many of a session's events (the newest before the outcome) one
// outcome is judged against.
const maxTraceEvents = 5000

// queries are this package's generated queries (retrospective/internal/dbsqlc, from
// sql/retrospective).
var queries = dbsqlc.New()

// Hand-written (sql/retrospective/handwritten), each run through the typed wrapper below it.
var (
	qOutcomes        = sql.Query("retrospective/outcomes")
	qOutcomeSessions = sql.Query("retrospective/outcome_sessions")
	qSessionTrace    = sql.Query("retrospective/session_trace")
	qEventsBySeq     = sql.Query("retrospective/events_by_seq")
	qLock            = sql.Query("retrospective/lock")
	qJudgements      = sql.Query("retrospective/judgements")
	qJudgedInsert    = sql.Query("retrospective/judged_insert")
	qPendingOutcomes = sql.Query("retrospective/pending_outcomes")
)

// sessionArgs name one session of a space: lock.sql's parameters.
type sessionArgs struct {
	SpaceID, SessionID string
}

// execLock runs lock.sql: the session's retrospective pass is serialized for the transaction.
func execLock(ctx context.Context, tx pgx.Tx, a sessionArgs) error {
	_, err := tx.Exec(ctx, qLock, a.SpaceID, a.SessionID)
	return err
}

// outcomesArgs are outcomes.sql's parameters: the outcomes of the session from seq FromSeq on.
type outcomesArgs struct {
	SpaceID, SessionID string
	FromSeq            int64
}

// queryOutcomes runs outcomes.sql.
func queryOutcomes(ctx context.Context, tx pgx.Tx, a outcomesArgs) ([]Event, error) {
	return collectEvents(tx.Query(ctx, qOutcomes, a.SpaceID, a.SessionID, a.FromSeq))
}

// sessionTraceArgs are session_trace.sql's parameters: the newest Limit events of the session
// before seq BeforeSeq, leaving out actor SkipActor's.
type sessionTraceArgs struct {
	SpaceID, SessionID string
	BeforeSeq          int64
	Limit              int
	SkipActor          string
}

// querySessionTrace runs session_trace.sql.
func querySessionTrace(ctx context.Context, tx pgx.Tx, a sessionTraceArgs) ([]Event, error) {
	return collectEvents(tx.Query(ctx, qSessionTrace, a.SpaceID, a.SessionID, a.BeforeSeq, a.Limit, a.SkipActor))
}

// eventsBySeqArgs are events_by_seq.sql's parameters: the events of the space with these seqs.
type eventsBySeqArgs struct {
	SpaceID string
	Seqs    []int64
}

// queryEventsBySeq runs events_by_seq.sql.
func queryEventsBySeq(ctx context.Context, tx pgx.Tx, a eventsBySeqArgs) ([]Event, error) {
	return collectEvents(tx.Query(ctx, qEventsBySeq, a.SpaceID, a.Seqs))
}

// judgementsArgs are judgements.sql's parameters: the judgements of the items ItemIDs made
// outside session SessionID before seq BeforeSeq.
type judgementsArgs struct {
	SpaceID   string
	ItemIDs   []string
	BeforeSeq int64
	SessionID string
}

// queryJudgements runs judgements.sql.
func queryJudgements(ctx context.Context, tx pgx.Tx, a judgementsArgs) ([]Event, error) {
	return collectEvents(tx.Query(ctx, qJudgements, a.SpaceID, a.ItemIDs, a.BeforeSeq, a.SessionID))
}

// judgedInsertArgs are judged_insert.sql's parameters: outcome OutcomeSeq of the space, about
// session SessionID, was judged.
type judgedInsertArgs struct {
	SpaceID    string
	OutcomeSeq int64
	SessionID  string
}

// execJudgedInsert runs judged_insert.sql.
func execJudgedInsert(ctx context.Context, tx pgx.Tx, a judgedInsertArgs) error {
	_, err := tx.Exec(ctx, qJudgedInsert, a.SpaceID, a.OutcomeSeq, a.SessionID)
	return err
}

// outcomeSessionsArgs are outcome_sessions.sql's parameters: the outcomes of the space with seq
// in (After, Upto].
type outcomeSessionsArgs struct {
	SpaceID     string
	After, Upto int64
}

// queryOutcomeSessions runs outcome_sessions.sql.
func queryOutcomeSessions(ctx context.Context, db pgexec.Executor, a outcomeSessionsArgs) ([]PendingOutcome, error) {
	rows, err := db.Query(ctx, qOutcomeSessions, a.SpaceID, a.After, a.Upto)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (PendingOutcome, error) {
		var p PendingOutcome
		return p, r.Scan(&p.SessionID, &p.FirstSeq)
	})
}

// queryPendingOutcomes runs pending_outcomes.sql: at most limit sessions.
func queryPendingOutcomes(ctx context.Context, db pgexec.Executor, limit int) ([]SpacePendingOutcome, error) {
	rows, err := db.Query(ctx, qPendingOutcomes, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (SpacePendingOutcome, error) {
		var p SpacePendingOutcome
		return p, r.Scan(&p.SpaceID, &p.SessionID, &p.FirstSeq)
	})
}

// Assigner runs the retrospective pass: it judges a session's outcomes and appends the
// feedback and proposals they call for.
type Assigner struct {
	db     pgexec.Executor
	store  *eventloom.Store
	logger *slog.Logger
}

// NewAssigner returns an Assigner reading through db and appending through store; a nil
// logger discards.
func NewAssigner(db pgexec.Executor, store *eventloom.Store, logger *slog.Logger) *Assigner {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Assigner{db: db, store: store, logger: logger}
}

// Result reports one pass over a session.
type Result struct {
	// Outcomes is how many outcome.recorded events were judged.
	Outcomes int
	// Appended is how many events the pass appended (0 on a re-run: every append is keyed).
	Appended int
	// Attributions are the judgements, one per outcome, in seq order.
	Attributions []*Attribution
	// LastSeq is the seq of the last outcome judged (0 when none).
	LastSeq int64
}

// PendingOutcome is a session with outcomes recorded in a range of the log.
type PendingOutcome struct {
	SessionID string
	// FirstSeq is the first outcome.recorded of the session in the range.
	FirstSeq int64
}

// SpacePendingOutcome is a session of a space with projected outcomes no pass has judged.
type SpacePendingOutcome struct {
	SpaceID string
	PendingOutcome
}

// PendingOutcomes lists up to limit sessions, across spaces, whose projected outcome.recorded
// events have not been judged (no retrospective_judged row), oldest outcome first: those whose
// retrospective_credit job was lost (the worker stopped after projecting, or the job was
// discarded after its retries). The sweep enqueues them again.
func PendingOutcomes(ctx context.Context, db pgexec.Executor, limit int) ([]SpacePendingOutcome, error) {
	out, err := queryPendingOutcomes(ctx, db, limit)
	if err != nil {
		return nil, fmt.Errorf("read pending outcomes: %w", err)
	}
	return out, nil
}

// OutcomeSessions lists the sessions of the outcome.recorded events in seqs (after, upto] of
// space: what a projection batch applied and the pass must judge.
func OutcomeSessions(ctx context.Context, db pgexec.Executor, space string, after, upto int64) ([]PendingOutcome, error) {
	out, err := queryOutcomeSessions(ctx, db, outcomeSessionsArgs{SpaceID: space, After: after, Upto: upto})
	if err != nil {
		return nil, fmt.Errorf("read outcome sessions: %w", err)
	}
	return out, nil
}

// Credit judges the outcomes of session in space recorded from fromSeq on (0: all), in one
// transaction under a per-session lock, and appends their feedback and proposals. Re-running
// it appends nothing new.
func (a *Assigner) Credit(ctx context.Context, space, session string, fromSeq int64) (*Result, error) {
	res := &Result{}
	err := pgx.BeginFunc(ctx, a.db, func(tx pgx.Tx) error {
		if err := execLock(ctx, tx, sessionArgs{SpaceID: space, SessionID: session}); err != nil {
			return fmt.Errorf("lock retrospective of %q/%q: %w", space, session, err)
		}
		outcomes, err := queryOutcomes(ctx, tx, outcomesArgs{SpaceID: space, SessionID: session, FromSeq: fromSeq})
		if err != nil {
			return fmt.Errorf("read outcomes: %w", err)
		}
		for _, o := range outcomes {
			tr, err := readTrace(ctx, tx, space, session, o)
			if err != nil {
				return err
			}
			att := Attribute(tr)
			n, err := a.record(ctx, tx, space, session, att)
			if err != nil {
				return err
			}
			if err := execJudgedInsert(ctx, tx, judgedInsertArgs{SpaceID: space, OutcomeSeq: o.Seq, SessionID: session}); err != nil {
				return fmt.Errorf("record outcome %d judged: %w", o.Seq, err)
			}
			res.Outcomes++
			res.Appended += n
			res.Attributions = append(res.Attributions, att)
			res.LastSeq = o.Seq
			a.logger.DebugContext(ctx, "judged outcome", "space_id", space, "session_id", session, "outcome_seq", o.Seq,
				"status", att.Status, "cause", att.Cause, "confidence", att.Confidence, "appended", n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Newer reports whether session has outcomes recorded after seq.
func (a *Assigner) Newer(ctx context.Context, space, session string, seq int64) (bool, error) {
	var newer bool
	err := pgx.BeginFunc(ctx, a.db, func(tx pgx.Tx) error {
		evs, err := queryOutcomes(ctx, tx, outcomesArgs{SpaceID: space, SessionID: session, FromSeq: seq + 1})
		newer = len(evs) > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("read outcomes after %d: %w", seq, err)
	}
	return newer, nil
}

// readTrace reads what outcome o of session is judged against.
func readTrace(ctx context.Context, tx pgx.Tx, space, session string, o Event) (*Trace, error) {
	evs, err := querySessionTrace(ctx, tx, sessionTraceArgs{SpaceID: space, SessionID: session, BeforeSeq: o.Seq, Limit: maxTraceEvents, SkipActor: Actor})
	if err != nil {
		return nil, fmt.Errorf("read trace of outcome %d: %w", o.Seq, err)
	}
	cited, err := queryEventsBySeq(ctx, tx, eventsBySeqArgs{SpaceID: space, Seqs: CitedSeqs(evs)})
	if err != nil {
		return nil, fmt.Errorf("read events cited by the surfaced items of outcome %d: %w", o.Seq, err)
	}
	judged, err := queryJudgements(ctx, tx, judgementsArgs{SpaceID: space, ItemIDs: SurfacedIDs(evs), BeforeSeq: o.Seq, SessionID: session})
	if err != nil {
		return nil, fmt.Errorf("read judgements of the surfaced items of outcome %d: %w", o.Seq, err)
	}
	t := &Trace{Outcome: o, Session: evs, Cited: map[int64]Event{}, Judged: judged}
	for _, e := range cited {
		t.Cited[e.Seq] = e
	}
	return t, nil
}

// collectEvents reads the rows of a query of events (seq, type, actor, content, data).
func collectEvents(rows pgx.Rows, err error) ([]Event, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Event, error) {
		var e Event
		var data string
		err := r.Scan(&e.Seq, &e.Type, &e.Actor, &e.Content, &data)
		e.Data = json.RawMessage(data)
		return e, err
	})
}

// record appends the feedback, confidence revisions and proposals of att, each under its own
// idempotency key, and returns how many were new. Feedback and revisions are proposed for
// review unless the space's mode applies them at once (review.go).
func (a *Assigner) record(ctx context.Context, tx pgx.Tx, space, session string, att *Attribution) (int, error) {
	type summary struct {
		OutcomeSeq int64             `json:"outcome_seq"`
		Status     string            `json:"status"`
		StatusFrom string            `json:"status_from"`
		Cause      string            `json:"cause"`
		Confidence float64           `json:"confidence"`
		Trace      []int64           `json:"trace"`
		Actions    []ActionJudgement `json:"actions,omitempty"`
	}
	sum := summary{OutcomeSeq: att.OutcomeSeq, Status: att.Status, StatusFrom: att.StatusFrom, Cause: att.Cause,
		Confidence: att.Confidence, Trace: att.Trace, Actions: att.Actions}
	mode, err := readMode(ctx, tx, space, att.OutcomeSeq)
	if err != nil {
		return 0, err
	}
	evidence := append(slices.Clone(att.Trace), att.OutcomeSeq)
	n := 0
	for _, j := range att.Items {
		if j.Confidence < MinFeedbackConfidence {
			continue
		}
		checkout := j.Checkout
		data, err := json.Marshal(struct {
			vocab.FeedbackRecorded
			Confidence  float64 `json:"confidence"`
			Attribution summary `json:"attribution"`
		}{
			FeedbackRecorded: vocab.FeedbackRecorded{ItemIDs: []string{j.ItemID}, Signal: j.Signal, CheckoutSeq: &checkout,
				Comment: fmt.Sprintf("%s (outcome [%d], %s, confidence %s)", j.Reason, att.OutcomeSeq, att.Cause, strconv.FormatFloat(j.Confidence, 'f', -1, 64))},
			Confidence: j.Confidence, Attribution: sum,
		})
		if err != nil {
			return n, err
		}
		key := itemKey(att.OutcomeSeq, j.ItemID)
		fresh, err := a.emit(ctx, tx, space, session, key, mode, j.Confidence, vocab.TypeFeedbackRecorded, data, evidence,
			fmt.Sprintf("outcome [%d] (%s, %s): %s %s", att.OutcomeSeq, att.Status, att.Cause, j.Signal, j.ItemID))
		if err != nil {
			return n, err
		}
		n += fresh
	}
	for _, j := range att.Actions {
		signal := map[string]string{"credited": "helpful", "blamed": "unhelpful"}[j.Verdict]
		if j.Action == "" || signal == "" || j.Confidence < MinFeedbackConfidence {
			continue
		}
		seq := j.Seq
		data, err := json.Marshal(struct {
			vocab.FeedbackRecorded
			Confidence  float64  `json:"confidence"`
			ArtifactIDs []string `json:"artifact_ids,omitempty"`
			Attribution summary  `json:"attribution"`
		}{
			FeedbackRecorded: vocab.FeedbackRecorded{TargetSeqs: []int64{seq}, Signal: signal,
				MemoryAction: &vocab.MemoryActionRef{Action: j.Action, Seq: &seq},
				Comment:      fmt.Sprintf("%s (outcome [%d], %s, confidence %s)", j.Reason, att.OutcomeSeq, att.Cause, strconv.FormatFloat(j.Confidence, 'f', -1, 64))},
			Confidence: j.Confidence, ArtifactIDs: j.ArtifactIDs, Attribution: sum,
		})
		if err != nil {
			return n, err
		}
		key := fmt.Sprintf("retro:%d:action:%d", att.OutcomeSeq, seq)
		fresh, err := a.emit(ctx, tx, space, session, key, mode, j.Confidence, vocab.TypeFeedbackRecorded, data, append(slices.Clone(evidence), seq),
			fmt.Sprintf("outcome [%d] (%s, %s): %s the memory action %s [%d]", att.OutcomeSeq, att.Status, att.Cause, j.Verdict, j.Action, seq))
		if err != nil {
			return n, err
		}
		n += fresh
	}
	fresh, err := a.revise(ctx, tx, space, session, att, mode)
	if err != nil {
		return n, err
	}
	n += fresh
	for _, p := range att.Proposals {
		conf := p.Confidence
		data, err := json.Marshal(struct {
			vocab.ProposalCreated
			Attribution summary `json:"attribution"`
		}{
			ProposalCreated: vocab.ProposalCreated{Kind: p.Kind, Evidence: slices.Clone(p.Evidence), Confidence: &conf, Rationale: p.Rationale},
			Attribution:     sum,
		})
		if err != nil {
			return n, err
		}
		key := fmt.Sprintf("retro:%d:%s", att.OutcomeSeq, p.Kind)
		fresh, err := a.appendKeyed(ctx, tx, space, key, eventloom.NewEvent{Type: vocab.TypeProposalCreated, Actor: Actor, Data: data})
		if err != nil {
			return n, err
		}
		n += fresh
	}
	return n, nil
}

// appendKeyed appends one event under key and reports 1 when it was new, 0 when the key had
// already appended it (a re-run). The same key with another body (the log it was derived from
// cannot have changed, so only a changed rule) is left as it was, and logged.
func (a *Assigner) appendKeyed(ctx context.Context, tx pgx.Tx, space, key string, ev eventloom.NewEvent) (int, error) {
	res, err := a.store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: space, IdempotencyKey: key, Events: []eventloom.NewEvent{ev}})
	if errors.Is(err, eventloom.ErrConflict) {
		a.logger.WarnContext(ctx, "retrospective judgement recorded before with other content; kept the first", "space_id", space, "key", key)
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("append %s: %w", key, err)
	}
	if res.Replayed {
		return 0, nil
	}
	return 1, nil
}

// itemKey is the idempotency key of the judgement of item for the outcome at seq:
// "retro:<seq>:<item id>", or with the item id's sha256 when the id is long or not printable
// ASCII (keys are at most 255 printable characters).
func itemKey(seq int64, item string) string {
	if len(item) <= 200 && eventloom.ValidateIdempotencyKey(item) == nil {
		return fmt.Sprintf("retro:%d:%s", seq, item)
	}
	sum := sha256.Sum256([]byte(item))
	return fmt.Sprintf("retro:%d:sha256:%s", seq, hex.EncodeToString(sum[:]))
}

// revise appends (or, by mode, proposes) the memory.confidence_revised events of att's
// memory-action verdicts, one per
// current artifact (a stale or replaced one is left alone: its new version starts from its
// producer's confidence), each applied to the confidence the artifact is ranked by now and
// under its own idempotency key, and returns how many were new.
func (a *Assigner) revise(ctx context.Context, tx pgx.Tx, space, session string, att *Attribution, mode Mode) (int, error) {
	revs := att.Revisions()
	if len(revs) == 0 {
		return 0, nil
	}
	ids := make([]string, len(revs))
	for i, r := range revs {
		ids[i] = r.ArtifactID
	}
	rows, err := queries.ArtifactSlots(ctx, tx, dbsqlc.ArtifactSlotsParams{SpaceID: space, Ids: ids})
	if err != nil {
		return 0, fmt.Errorf("read the slots of judged artifacts: %w", err)
	}
	current := map[string]dbsqlc.ArtifactSlotsRow{}
	for _, r := range rows {
		current[r.ArtifactID] = r
	}
	n := 0
	for _, r := range revs {
		cur, ok := current[r.ArtifactID]
		if !ok {
			continue
		}
		prev := round(cur.Confidence)
		data, err := json.Marshal(vocab.MemoryConfidenceRevised{Artifact: vocab.ArtifactRef{Key: cur.Slot, ID: r.ArtifactID, SourcesSHA256: vocab.SourcesDigest(cur.SourceSeqs)},
			Confidence: r.Apply(prev), Previous: &prev, Reason: r.Reason, Evidence: []int64{r.ActionSeq, att.OutcomeSeq}})
		if err != nil {
			return n, err
		}
		fresh, err := a.emit(ctx, tx, space, session, itemKey(att.OutcomeSeq, "revise:"+r.ArtifactID), mode, r.Strength,
			vocab.TypeMemoryConfidenceRevised, data, []int64{r.ActionSeq, att.OutcomeSeq}, r.Reason)
		if err != nil {
			return n, err
		}
		n += fresh
	}
	return n, nil
}
