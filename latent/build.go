package latent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent/internal/dbsqlc"
	"github.com/zaxy/zaxy/vocab"
)

// queries are this package's generated queries (latent/internal/dbsqlc, from sql/latent).
var queries = dbsqlc.New()

// ProposerActor is the actor of the proposal.created events the builder appends.
const ProposerActor = "zaxy-latent"

// maxEntityRefs caps the entities an episode covers.
const maxEntityRefs = 32

// globalSlotPrefixes start the slots of the causal links the space-wide producers derive
// (an outcome's, a decision subject's): derived again with the space-wide producers.
var globalSlotPrefixes = []string{outcomeSlotPrefix, subjectSlotPrefix}

// globalTypes are the event types the space-wide producers (procedures, failures,
// preferences, and the causal links across sessions that outcomes and decisions' subjects
// make) read; an event of one of them makes a build re-run those producers.
var globalTypes = []string{vocab.TypeToolCallCompleted, vocab.TypePreferenceStated, vocab.TypeDecisionRecorded, vocab.TypeOutcomeRecorded}

// globalArtifactTypes are the artifact types the space-wide producers make.
var globalArtifactTypes = []string{TypeProcedure, TypeFailure, TypePreference}

// proposable artifact types are put up for review when first derived.
// (procedures and failures as skills, causal links as consolidations).
var proposable = map[string]string{TypeProcedure: vocab.ProposalSkill, TypeFailure: vocab.ProposalSkill, TypeCausal: vocab.ProposalConsolidation}

// Config configures a Builder.
type Config struct {
	// AGE is "auto" (mirror artifacts into Apache AGE when the extension is installed, the
	// default) or "off".
	AGE string
	// Logger receives the builder's logs. Defaults to discarding.
	Logger *slog.Logger
}

// WithDefaults returns a copy with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.AGE == "" {
		c.AGE = "auto"
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

func (c Config) validate() error {
	if c.AGE != "auto" && c.AGE != "off" {
		return fmt.Errorf("latent config: AGE must be auto or off, got %q", c.AGE)
	}
	return nil
}

// Builder derives spaces' artifacts from their logs and projections.
type Builder struct {
	db     pgexec.Executor
	store  *eventloom.Store
	age    bool
	logger *slog.Logger
}

// NewBuilder returns a Builder reading and writing through db and appending its proposals
// through store.
func NewBuilder(ctx context.Context, db pgexec.Executor, store *eventloom.Store, cfg Config) (*Builder, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if store == nil {
		return nil, errors.New("latent config: a store is required (the builder appends proposals)")
	}
	age := false
	if cfg.AGE == "auto" {
		var err error
		if age, err = graph.AGEInstalled(ctx, db); err != nil {
			return nil, fmt.Errorf("check for AGE: %w", err)
		}
	}
	return &Builder{db: db, store: store, age: age, logger: cfg.Logger}, nil
}

// Result reports one build.
type Result struct {
	SpaceID string `json:"space_id"`
	// FromSeq and ToSeq are the watermarks before and after: the build covered (FromSeq, ToSeq].
	FromSeq int64 `json:"from_seq"`
	ToSeq   int64 `json:"to_seq"`
	// Written counts the artifacts stored (new or brought up to date), Replaced those deleted
	// for a new version, Staled those marked stale.
	Written  int `json:"written"`
	Replaced int `json:"replaced"`
	Staled   int `json:"staled"`
	// Proposed counts the proposal.created events appended.
	Proposed int `json:"proposed"`
	// Rederived is the producers' version whose artifacts the build discarded to derive the
	// space again from the log's start (0 when it built on its own version's).
	Rederived int32 `json:"rederived_from_version,omitempty"`
	// Duration is the build's wall time.
	Duration time.Duration `json:"duration_ns"`
}

// Build brings space's artifacts up to its projection watermark in one transaction.
func (b *Builder) Build(ctx context.Context, space string) (*Result, error) {
	var res *Result
	err := pgx.BeginFunc(ctx, b.db, func(tx pgx.Tx) error {
		var err error
		res, err = b.BuildTx(ctx, tx, space)
		return err
	})
	return res, err
}

// Rebuild discards space's artifacts and derives them again from the start of its log, in one
// transaction: the result equals what incremental builds reached.
func (b *Builder) Rebuild(ctx context.Context, space string) (*Result, error) {
	var res *Result
	err := pgx.BeginFunc(ctx, b.db, func(tx pgx.Tx) error {
		if err := eventloom.LockErasureShared(ctx, tx, space); err != nil {
			return fmt.Errorf("latent rebuild %q: %w", space, err)
		}
		if err := queries.Lock(ctx, tx, space); err != nil {
			return fmt.Errorf("latent rebuild %q: %w", space, err)
		}
		if err := queries.Discard(ctx, tx, space); err != nil {
			return fmt.Errorf("latent rebuild %q: discard: %w", space, err)
		}
		var err error
		res, err = b.BuildTx(ctx, tx, space)
		return err
	})
	return res, err
}

// PendingSpaces returns up to limit spaces whose projections are ahead of their artifacts.
func (b *Builder) PendingSpaces(ctx context.Context, limit int) ([]string, error) {
	spaces, err := queries.SpacesPending(ctx, b.db, dbsqlc.SpacesPendingParams{Version: ProjectionVersion, MaxSpaces: int32(max(min(limit, 1<<30), 0))})
	if err != nil {
		return nil, fmt.Errorf("read spaces pending a latent build: %w", err)
	}
	return spaces, nil
}

// BuildTx does what Build does inside the caller's transaction.
//
// The build walks (built, projected] in chunks that end before each staling event (an
// invalidation, erasure or fact supersession): it derives the artifacts the chunk's events
// touch as of the chunk's end, then marks the artifacts citing the staled event stale, and the
// next chunk derives their slots again without it. Because every artifact is a function of the
// log up to a chunk end that does not depend on when builds ran, incremental builds and a
// rebuild reach the same rows.
func (b *Builder) BuildTx(ctx context.Context, tx pgx.Tx, space string) (*Result, error) {
	start := time.Now()
	// Shared erasure lock: an erasure waits for this build, and a build after it reads the
	// tombstone, so no artifact keeps erased text.
	if err := eventloom.LockErasureShared(ctx, tx, space); err != nil {
		return nil, fmt.Errorf("latent build %q: %w", space, err)
	}
	if err := queries.Lock(ctx, tx, space); err != nil {
		return nil, fmt.Errorf("latent build %q: %w", space, err)
	}
	wm, err := queries.WatermarkGet(ctx, tx, space)
	if err != nil {
		return nil, fmt.Errorf("latent build %q: %w", space, err)
	}
	res := &Result{SpaceID: space, FromSeq: wm.BuiltSeq, ToSeq: wm.BuiltSeq}
	if builtByOtherProducers(wm) {
		// Other producers built these artifacts: derive the space again from the log's start.
		if err := queries.Discard(ctx, tx, space); err != nil {
			return nil, fmt.Errorf("latent build %q: discard version %d: %w", space, wm.BuiltVersion, err)
		}
		res.Rederived, res.FromSeq, wm.BuiltSeq = wm.BuiltVersion, 0, 0
	}
	if wm.ProjectedSeq <= wm.BuiltSeq {
		if res.Rederived != 0 {
			// Nothing projected yet: the (empty) build is still this version's.
			if err := queries.WatermarkSet(ctx, tx, dbsqlc.WatermarkSetParams{SpaceID: space, BuiltSeq: 0, BuiltVersion: ProjectionVersion}); err != nil {
				return nil, fmt.Errorf("latent build %q: %w", space, err)
			}
		}
		return res, nil
	}
	st := &buildState{tx: tx, space: space, res: res, pending: touched{sessions: map[string]bool{}}, excluded: map[int64]bool{},
		inserted: map[string]bool{}}
	if st.stalings, err = queries.Stalings(ctx, tx, dbsqlc.StalingsParams{SpaceID: space, AfterSeq: 0, UptoSeq: wm.ProjectedSeq}); err != nil {
		return nil, fmt.Errorf("latent build %q: read stalings: %w", space, err)
	}
	prev := wm.BuiltSeq
	for i := 0; i < len(st.stalings); {
		s := st.stalings[i]
		if s.Seq <= wm.BuiltSeq {
			i++
			continue
		}
		if err := st.derive(ctx, prev, s.Seq-1); err != nil {
			return nil, fmt.Errorf("latent build %q: %w", space, err)
		}
		for ; i < len(st.stalings) && st.stalings[i].Seq == s.Seq; i++ {
			if err := st.stale(ctx, st.stalings[i]); err != nil {
				return nil, fmt.Errorf("latent build %q: %w", space, err)
			}
		}
		prev = max(prev, s.Seq-1)
	}
	if err := st.derive(ctx, prev, wm.ProjectedSeq); err != nil {
		return nil, fmt.Errorf("latent build %q: %w", space, err)
	}
	if len(st.inserted) > 0 {
		if err := queries.RelationsDerive(ctx, tx, dbsqlc.RelationsDeriveParams{SpaceID: space, Ids: sortedKeys(st.inserted)}); err != nil {
			return nil, fmt.Errorf("latent build %q: derive relations: %w", space, err)
		}
	}
	if err := b.propose(ctx, tx, space, res); err != nil {
		return nil, fmt.Errorf("latent build %q: %w", space, err)
	}
	if err := queries.ReviewRefresh(ctx, tx, space); err != nil {
		return nil, fmt.Errorf("latent build %q: review status: %w", space, err)
	}
	if b.age {
		if err := queries.AGESync(ctx, tx, space); err != nil {
			return nil, fmt.Errorf("latent build %q: mirror into AGE: %w", space, err)
		}
	}
	if err := queries.WatermarkSet(ctx, tx, dbsqlc.WatermarkSetParams{SpaceID: space, BuiltSeq: wm.ProjectedSeq, BuiltVersion: ProjectionVersion}); err != nil {
		return nil, fmt.Errorf("latent build %q: %w", space, err)
	}
	res.ToSeq = wm.ProjectedSeq
	res.Duration = time.Since(start)
	b.logger.DebugContext(ctx, "built latent artifacts", "space_id", space, "from_seq", res.FromSeq, "to_seq", res.ToSeq,
		"written", res.Written, "replaced", res.Replaced, "staled", res.Staled, "proposed", res.Proposed)
	return res, nil
}

// touched is what the next derivation must recompute besides what its events touch.
type touched struct {
	sessions map[string]bool
	global   bool
}

// buildState is one build's working state.
type buildState struct {
	tx       pgx.Tx
	space    string
	res      *Result
	stalings []dbsqlc.StalingsRow
	pending  touched
	// excluded are the targets of stalings[:excludedUpTo]: events no longer usable as sources.
	excluded     map[int64]bool
	excludedUpTo int
	// inserted are the artifacts the build stored that were not there before: their relations
	// are derived once the build has stored everything.
	inserted map[string]bool
}

// stale marks the artifacts citing s's target stale and schedules their slots.
func (st *buildState) stale(ctx context.Context, s dbsqlc.StalingsRow) error {
	rows, err := queries.MarkStale(ctx, st.tx, dbsqlc.MarkStaleParams{SpaceID: st.space, TargetSeq: s.TargetSeq,
		StaleAt: s.OccurredAt, StaleSeq: s.Seq, StaleReason: s.Reason})
	if err != nil {
		return fmt.Errorf("mark stale: %w", err)
	}
	st.res.Staled += len(rows)
	for _, r := range rows {
		// Episodes and causal links belong to the target's session, added below.
		if r.ArtifactType != TypeEpisode && r.ArtifactType != TypeCausal {
			st.pending.global = true
		}
	}
	// The target's session (and the space-wide producers, for a tool call or preference) are
	// derived again whether or not an artifact cited the target: without it, what they derive
	// may change.
	kind, err := queries.EventKind(ctx, st.tx, dbsqlc.EventKindParams{SpaceID: st.space, Seq: s.TargetSeq})
	if err != nil {
		return fmt.Errorf("read staled event: %w", err)
	}
	if kind.SessionID != "" {
		st.pending.sessions[kind.SessionID] = true
	}
	if slices.Contains(globalTypes, kind.Type) {
		st.pending.global = true
	}
	return nil
}

// derive recomputes, as of upto, the slots touched by the events in (after, upto] and those
// pending from stalings.
func (st *buildState) derive(ctx context.Context, after, upto int64) error {
	sessions := st.pending.sessions
	global := st.pending.global
	st.pending = touched{sessions: map[string]bool{}}
	if upto > after {
		rows, err := queries.TouchedSessions(ctx, st.tx, dbsqlc.TouchedSessionsParams{SpaceID: st.space, AfterSeq: after, UptoSeq: upto})
		if err != nil {
			return fmt.Errorf("read touched sessions: %w", err)
		}
		for _, r := range rows {
			if r.SessionID != "" {
				sessions[r.SessionID] = true
			}
			for _, t := range r.Types {
				if slices.Contains(globalTypes, t) {
					global = true
				}
			}
		}
	}
	if len(sessions) == 0 && !global {
		return nil
	}
	// Derivations run with upto increasing, so the unusable events grow along the stalings.
	for ; st.excludedUpTo < len(st.stalings) && st.stalings[st.excludedUpTo].Seq <= upto; st.excludedUpTo++ {
		st.excluded[st.stalings[st.excludedUpTo].TargetSeq] = true
	}
	excluded := st.excluded
	sessionList := sortedKeys(sessions)
	var types []string
	if global {
		types = globalTypes
	}
	rows, err := queries.EventsRead(ctx, st.tx, dbsqlc.EventsReadParams{SpaceID: st.space, UptoSeq: upto, Sessions: nonNil(sessionList), Types: nonNil(types)})
	if err != nil {
		return fmt.Errorf("read events: %w", err)
	}
	bySession := map[string][]event{}
	var globalEvs []event
	for _, r := range rows {
		if metaTypes[r.Type] || excluded[r.Seq] {
			continue
		}
		e := event{Seq: r.Seq, Hash: r.Hash, Type: r.Type, Session: r.SessionID, Actor: r.Actor, OccurredAt: r.OccurredAt, Content: r.Content, Data: r.Data}
		if sessions[r.SessionID] {
			bySession[r.SessionID] = append(bySession[r.SessionID], e)
		}
		if global && slices.Contains(globalTypes, r.Type) {
			globalEvs = append(globalEvs, e)
		}
	}
	var derived []*Artifact
	var segs []segment
	prefixes := make([]string, 0, 2*len(sessionList)+1)
	for _, s := range sessionList {
		// The prefixes of this session's episodes and causal links; other sessions' slots may
		// share them (session "a" and "a:b"), and owns keeps to this session's own.
		prefixes = append(prefixes, "episode:"+s+"#", "causal:"+s+":")
		derived = append(derived, causalLinks(s, bySession[s])...)
		segs = append(segs, segments(s, bySession[s])...)
	}
	var replacedTypes []string
	if global {
		replacedTypes = globalArtifactTypes
		prefixes = append(prefixes, globalSlotPrefixes...)
	}
	// owns says which of the slots the prefixes and types find this derivation replaces.
	owns := func(slot, typ string) bool {
		if session, ok := sessionOfSlot(slot); ok {
			return sessions[session]
		}
		return global && (slices.Contains(replacedTypes, typ) ||
			slices.ContainsFunc(globalSlotPrefixes, func(p string) bool { return strings.HasPrefix(slot, p) }))
	}
	state, err := queries.SlotState(ctx, st.tx, dbsqlc.SlotStateParams{SpaceID: st.space, Prefixes: nonNil(prefixes), Types: nonNil(replacedTypes)})
	if err != nil {
		return fmt.Errorf("read slots: %w", err)
	}
	state = slices.DeleteFunc(state, func(r dbsqlc.SlotStateRow) bool { return !owns(r.Slot, r.ArtifactType) })
	eps, kept, err := st.episodes(ctx, segs, state)
	if err != nil {
		return err
	}
	derived = append(derived, eps...)
	if global {
		derived = append(derived, procedures(globalEvs)...)
		derived = append(derived, failures(globalEvs)...)
		derived = append(derived, preferences(globalEvs)...)
		derived = append(derived, outcomeCausalLinks(globalEvs)...)
		derived = append(derived, subjectCausalLinks(globalEvs)...)
	}
	return st.store(ctx, state, kept, derived)
}

// episodes derives the segments' episodes, keeping as they are the current ones (in state)
// derived from the same events and covering the same entities: such an episode would be the
// same artifact, so the build skips deriving it (a long session's earlier episodes, at every
// build while it grows).
func (st *buildState) episodes(ctx context.Context, segs []segment, state []dbsqlc.SlotStateRow) (eps []*Artifact, kept map[string]bool, err error) {
	refs, err := st.entityRefs(ctx, segs)
	if err != nil {
		return nil, nil, err
	}
	current := map[string]dbsqlc.SlotStateRow{}
	for _, r := range state {
		if r.ArtifactType == TypeEpisode && r.StaleSeq == nil {
			current[r.Slot] = r
		}
	}
	kept = map[string]bool{}
	for i, s := range segs {
		if c, ok := current[s.slot()]; ok && slices.Equal(c.EpisodeSources, s.seqs()) && slices.Equal(c.EpisodeEntities, refs[i]) {
			kept[c.ArtifactID] = true
			continue
		}
		if a := episode(s.session, s.k, s.evs); a != nil {
			a.EntityRefs = refs[i]
			eps = append(eps, a)
		}
	}
	return eps, kept, nil
}

// entityRefs returns each segment's entity references: the maxEntityRefs entities its events
// mention most, read for all of them in one statement.
func (st *buildState) entityRefs(ctx context.Context, segs []segment) ([][]string, error) {
	out := make([][]string, len(segs))
	var episodes []int32
	var seqs []int64
	for i, s := range segs {
		out[i] = []string{}
		for _, e := range s.evs {
			episodes, seqs = append(episodes, int32(i)), append(seqs, e.Seq)
		}
	}
	if len(seqs) == 0 {
		return out, nil
	}
	rows, err := queries.EntityRefs(ctx, st.tx, dbsqlc.EntityRefsParams{SpaceID: st.space, Episodes: episodes, Seqs: seqs, MaxRefs: maxEntityRefs})
	if err != nil {
		return nil, fmt.Errorf("read entity refs: %w", err)
	}
	for _, r := range rows {
		out[r.Episode] = append(out[r.Episode], r.EntityID)
	}
	return out, nil
}

// store replaces the current artifacts of the derivation's slots (state) with derived: each new
// artifact supersedes its slot's newest stale one, current artifacts neither derived again nor
// kept are deleted, stale ones are kept.
func (st *buildState) store(ctx context.Context, state []dbsqlc.SlotStateRow, kept map[string]bool, derived []*Artifact) error {
	var err error
	current := map[string]bool{}
	newestStale := map[string]string{}
	existing := make(map[string]bool, len(state))
	for _, r := range state {
		existing[r.ArtifactID] = true
		if kept[r.ArtifactID] {
			continue
		}
		if r.StaleSeq == nil {
			current[r.ArtifactID] = true
		} else if _, ok := newestStale[r.Slot]; !ok {
			newestStale[r.Slot] = r.ArtifactID // rows come newest stale first per slot
		}
	}
	params := make([]dbsqlc.ArtifactUpsertParams, 0, len(derived))
	for _, a := range derived {
		if a.Supersedes == "" {
			a.Supersedes = newestStale[a.Slot]
		}
		if a.Type == TypePreference && a.Supersedes != "" {
			a.Contradicts = []string{a.Supersedes} // a preference is only superseded by another value
		}
		if a.ID, err = a.Address(st.space); err != nil {
			return err
		}
		delete(current, a.ID)
		if !existing[a.ID] {
			st.inserted[a.ID] = true
		}
		params = append(params, upsertParams(st.space, a))
	}
	if len(current) > 0 {
		ids := make([]string, 0, len(current))
		for id := range current {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		if err := queries.ArtifactsDelete(ctx, st.tx, dbsqlc.ArtifactsDeleteParams{SpaceID: st.space, Ids: ids}); err != nil {
			return fmt.Errorf("delete replaced artifacts: %w", err)
		}
		st.res.Replaced += len(ids)
	}
	if len(params) == 0 {
		return nil
	}
	var batchErr error
	queries.ArtifactUpsert(ctx, st.tx, params).Exec(func(_ int, err error) {
		if err != nil && batchErr == nil {
			batchErr = err
		}
	})
	if batchErr != nil {
		return fmt.Errorf("store artifacts: %w", batchErr)
	}
	st.res.Written += len(params)
	return nil
}

func upsertParams(space string, a *Artifact) dbsqlc.ArtifactUpsertParams {
	p := dbsqlc.ArtifactUpsertParams{
		SpaceID: space, ArtifactID: a.ID, Slot: a.Slot, ArtifactType: a.Type, Summary: a.Summary,
		SourceEventRefs: mustJSON(nonNil(a.Sources)), SourceSeqs: nonNil(a.SourceSeqs()), EntityRefs: nonNil(a.EntityRefs),
		ValidFrom: a.ValidFrom, ValidTo: a.ValidTo, ProjectionVersion: ProjectionVersion, Method: a.Method,
		Confidence: float32(a.Confidence), PurposeProfile: a.PurposeProfile, ReasoningPhase: a.ReasoningPhase,
		PayloadKind: "jsonb", Payload: a.Payload, Contradicts: nonNil(a.Contradicts), Diagnostics: a.Diagnostics,
	}
	if a.Supersedes != "" {
		s := a.Supersedes
		p.Supersedes = &s
	}
	if p.Diagnostics == nil {
		p.Diagnostics = []byte("{}")
	}
	return p
}

// propose appends a proposal.created for each current procedure or failure (kind skill) or
// causal link (kind consolidation) whose slot has never been proposed, citing every event the artifact cites. The idempotency key is
// derived from the artifact id, so a retried build appends nothing twice. Later versions of a
// slot (more traces) are not proposed again: they carry the slot's review status.
func (b *Builder) propose(ctx context.Context, tx pgx.Tx, space string, res *Result) error {
	arts, err := queries.ProposableArtifacts(ctx, tx, space)
	if err != nil {
		return fmt.Errorf("read artifacts: %w", err)
	}
	slots := make([]string, len(arts))
	for i, a := range arts {
		slots[i] = a.Slot
	}
	proposed, err := queries.ProposedSlots(ctx, tx, dbsqlc.ProposedSlotsParams{SpaceID: space, Slots: slots})
	if err != nil {
		return fmt.Errorf("read proposed slots: %w", err)
	}
	done := make(map[string]bool, len(proposed))
	for _, slot := range proposed {
		done[slot] = true
	}
	for _, a := range arts {
		kind := proposable[a.ArtifactType]
		if kind == "" || done[a.Slot] {
			continue
		}
		conf := math.Round(float64(a.Confidence)*1000) / 1000
		data := mustJSON(vocab.ProposalCreated{
			Kind: kind, Evidence: a.SourceSeqs, Confidence: &conf,
			Rationale: "latent " + a.ArtifactType + " " + a.ArtifactID + ": " + a.Summary,
			Artifact:  &vocab.ArtifactRef{Key: a.Slot, ID: a.ArtifactID},
		})
		_, err := b.store.AppendTx(ctx, tx, &eventloom.AppendParams{SpaceID: space, IdempotencyKey: "latent:" + a.ArtifactID,
			Events: []eventloom.NewEvent{{Type: vocab.TypeProposalCreated, Actor: ProposerActor, Data: data}}})
		if errors.Is(err, eventloom.ErrConflict) {
			continue // proposed before under this key with other evidence
		}
		if err != nil {
			return fmt.Errorf("propose %s: %w", a.Slot, err)
		}
		res.Proposed++
	}
	return nil
}

// Behind reports whether space's projections are past its artifacts' watermark (a build has
// work to do).
func (b *Builder) Behind(ctx context.Context, space string) (bool, error) {
	wm, err := queries.WatermarkGet(ctx, b.db, space)
	if err != nil {
		return false, fmt.Errorf("read latent watermark of %q: %w", space, err)
	}
	return wm.ProjectedSeq > wm.BuiltSeq || builtByOtherProducers(wm), nil
}

// builtByOtherProducers reports whether producers of another version built the space's
// artifacts (a space never built has version 0).
func builtByOtherProducers(wm dbsqlc.WatermarkGetRow) bool {
	return wm.BuiltVersion != 0 && wm.BuiltVersion != ProjectionVersion
}
