package checkout

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/latent"
	"github.com/zaxy/zaxy/memoryitem"
)

// Reasoning phases a weave is built for: the reasoning_phase of the latent artifacts
// (docs/latent.md) and of a weave request.
const (
	PhaseOrient  = "orient"
	PhasePlan    = "plan"
	PhaseAct     = "act"
	PhaseReflect = "reflect"
)

// Phases lists every reasoning phase.
var Phases = []string{PhaseOrient, PhasePlan, PhaseAct, PhaseReflect}

// phaseOfPurpose is the phase a weave serves when the request names none.
var phaseOfPurpose = map[string]string{
	PurposeGeneral: PhaseOrient, PurposeExploration: PhaseOrient, PurposePlanning: PhasePlan,
	PurposeImplementation: PhaseAct, PurposeDebugging: PhaseAct, PurposeRefactoring: PhaseAct,
	PurposeReview: PhaseReflect,
}

// Weave warning codes (Warning.Code in Weave.Warnings).
const (
	WeaveWarnStale           = "stale"
	WeaveWarnConflicted      = "conflicted"
	WeaveWarnLowConfidence   = "low_confidence"
	WeaveWarnMissingEvidence = "missing_evidence"
	// WeaveWarnAfterAsOf: an artifact cites an event that had not occurred by the checkout's
	// as_of, so it was left out.
	WeaveWarnAfterAsOf = "after_as_of"
)

// weavePhaseTypes are the space-wide artifact types a weave reads by phase even when no
// ranked event is among their sources (episodes come only through their cited events).
var weavePhaseTypes = []string{"procedure", "failure", "preference", "causal"}

// ExpectedUse and ProhibitedUse are what a weave's rendered text tells the model, verbatim.
const (
	WeaveExpectedUse   = "Orient this step with the inferred context; back every claim with an evidence line's seq."
	WeaveProhibitedUse = "Never state inferred context as fact or cite an artifact: it is derived and non-authoritative."
)

// Weave is a section built for one reasoning step from precomputed latent artifacts
// (docs/checkout.md, "Memory weave"): the accepted evidence (events the artifacts cite, each
// verified against the log at query time), the artifacts themselves as inferred context
// (labelled suggestive and non-authoritative), and what it rejected and why.
type Weave struct {
	// WeaveID is the hex sha256 of the space, goal, phase, purpose, artifact ids and evidence
	// seqs: the same inputs always make the same id.
	WeaveID        string `json:"weave_id"`
	Goal           string `json:"goal"`
	ReasoningPhase string `json:"reasoning_phase"`
	Purpose        string `json:"purpose"`
	// ArtifactIDs are the woven artifacts, in weave order.
	ArtifactIDs []string `json:"artifact_ids"`
	// SourceEventRefs are every event the woven artifacts cite, verified, in seq order.
	SourceEventRefs []Citation `json:"source_event_refs"`
	// Evidence are the accepted events shown in the weave, the only lines that may back a claim.
	Evidence []WeaveEvidence `json:"evidence"`
	// Inferred is the inferred context: the woven artifacts, suggestive only.
	Inferred []WeaveArtifact `json:"inferred_context"`
	// Warnings: stale (a rejected artifact), conflicted, low_confidence, missing_evidence.
	Warnings []Warning `json:"warnings"`
	// Rejected are the artifacts the weave refused, with the reason (stale, superseded,
	// unverifiable source, rejected in review).
	Rejected []RejectedArtifact `json:"rejected"`
	// Budget is the weave's token budget and what its text used.
	Budget        WeaveBudget `json:"budget"`
	ExpectedUse   string      `json:"expected_use"`
	ProhibitedUse string      `json:"prohibited_use"`
	// Text is the rendered section, expected and prohibited use included.
	Text string `json:"text"`
	// SurfacedSeq is the checkout.surfaced event recording a weave_memory action's weave or a
	// prospective pass (absent inside a packet: the packet's own surfaced_seq records it).
	SurfacedSeq int64 `json:"surfaced_seq,omitempty"`
}

// WeaveBudget is a weave's token accounting.
type WeaveBudget struct {
	Tokens int `json:"tokens"`
	Used   int `json:"used"`
	// Omitted counts accepted artifacts left out for the budget.
	Omitted int `json:"omitted"`
}

// WeaveEvidence is one accepted event in a weave.
type WeaveEvidence struct {
	// Ref is the marker in the weave's text ([W<Ref>]).
	Ref      int      `json:"ref"`
	Kind     string   `json:"kind"`
	Text     string   `json:"text"`
	Citation Citation `json:"citation"`
	// ArtifactIDs are the woven artifacts citing it.
	ArtifactIDs []string `json:"artifact_ids"`
	// Follows is the seq of the evidence line this one follows in its episode (the turn it
	// replies to, the call it results from); absent for an event shown for its own rank.
	Follows int64 `json:"follows,omitempty"`
	// Repeats and LastRepeat: the later events the encoding gate found repeating this one (up to
	// the checkout's as_of, none invalidated), as its item's repeats count them, and the last of
	// them, which the line cites after the event itself ("when did it last happen?" is answered
	// by the copy, not by the first occurrence the line shows). Absent for an event no later
	// event repeats, and with the plain profile.
	Repeats    int       `json:"repeats,omitempty"`
	LastRepeat *Citation `json:"last_repeat,omitempty"`

	// whoWhen opens the line's text when the checkout asks for who_when (lineWhoWhen).
	whoWhen string
}

// Seqs are the events the line cites: its own, then its last repeat's.
func (ev WeaveEvidence) Seqs() []int64 {
	if ev.LastRepeat != nil {
		return []int64{ev.Citation.Seq, ev.LastRepeat.Seq}
	}
	return []int64{ev.Citation.Seq}
}

// WeaveArtifact is one artifact as inferred context.
type WeaveArtifact struct {
	ArtifactID string `json:"artifact_id"`
	Type       string `json:"type"`
	Summary    string `json:"summary"`
	// Confidence is what the weave ranks and shows the artifact by: its latest confidence
	// revision (revise_confidence, or the retrospective pass judging an outcome), else
	// ProducedConfidence, the producer's.
	Confidence         float64 `json:"confidence"`
	ProducedConfidence float64 `json:"produced_confidence"`
	ReviewStatus       string  `json:"review_status"`
	ReasoningPhase     string  `json:"reasoning_phase"`
	// Label is always "suggestive" and Authority "non_authoritative": latent memory steers,
	// it never authorises a claim.
	Label     string     `json:"label"`
	Authority string     `json:"authority"`
	Citations []Citation `json:"citations"`
	// Payload is the producer's structured payload (docs/latent.md).
	Payload json.RawMessage `json:"payload,omitempty"`
	// LLMSummary is the artifact's newest LLM-assisted summary, when an LLM is configured
	// (docs/latent.md, "LLM-assisted summaries"): what its inferred-context line shows then,
	// labelled with its model.
	LLMSummary *WeaveLLMSummary `json:"llm_summary,omitempty"`

	score       float64
	contradicts []string
	// when is an episode's time window as its inferred line shows it (episodeWhen).
	when string
}

// WeaveLLMSummary is an LLM-assisted summary of a woven artifact: suggestive like the artifact,
// never evidence.
type WeaveLLMSummary struct {
	Model   string `json:"model"`
	Summary string `json:"summary"`
	// Method is always "llm-assisted".
	Method string `json:"method"`
}

// RejectedArtifact is an artifact a weave refused.
type RejectedArtifact struct {
	ArtifactID string `json:"artifact_id"`
	Type       string `json:"type"`
	// Reason is stale, superseded, unverified, rejected_in_review or after_as_of.
	Reason string `json:"reason"`
	// Seq is the event that made it so (the staling event, or the unverifiable source).
	Seq    int64  `json:"seq,omitempty"`
	Detail string `json:"detail"`
}

// weaveParams is what a weave is built for.
type weaveParams struct {
	space, goal, phase, purpose string
	// mech is the ranking's mechanism record, whose Weave* fields are the weave's limits (set
	// by buildWeave from the ranking's policy).
	mech   *Mechanism
	budget int
	// asOf, when the checkout asks about another time: only artifacts whose every source had
	// occurred by then are woven.
	asOf *time.Time
	// statements: a ranked event that asks nothing also brings what follows it in its episode
	// when a speaker the goal names says it, as the reply lane follows it
	// (Policy.ReplyAfterStatements; set by buildWeave from the ranking's policy).
	statements bool
	// whoWhen: each evidence line opens with when its event happened and who said it
	// (Request.WhoWhen).
	whoWhen bool
	// replyAnswers are the reply lane's best answers the weave shows first, each with its rank
	// in that lane (Policy.WeaveReplyAnswers; set by buildWeave from the ranking).
	replyAnswers map[int64]int
}

// weaveOn reports whether r asks for a weave: weave true or a reasoning phase given.
func (r *Request) weaveOn() bool { return r.Weave || r.ReasoningPhase != "" }

// weavePhase is the phase r's weave serves: the one asked for, else the purpose's.
func weavePhase(asked, purpose string) string {
	if asked != "" {
		return asked
	}
	return phaseOfPurpose[purpose]
}

// buildWeave weaves the precomputed artifacts bearing on rk's ranked events (and those serving
// the phase) into a section of at most p.budget tokens. It reads two indexed queries and
// derives nothing: every artifact comes from latent_current, and each of its sources is
// verified against the log (hash, erasure, invalidation, supersession) before it is woven.
func (s *Service) buildWeave(ctx context.Context, p weaveParams, rk *ranking) (*Weave, error) {
	w := &Weave{Goal: p.goal, ReasoningPhase: p.phase, Purpose: p.purpose, ArtifactIDs: []string{},
		SourceEventRefs: []Citation{}, Evidence: []WeaveEvidence{}, Inferred: []WeaveArtifact{}, Warnings: []Warning{},
		Rejected: []RejectedArtifact{}, Budget: WeaveBudget{Tokens: p.budget}, ExpectedUse: WeaveExpectedUse, ProhibitedUse: WeaveProhibitedUse}
	// The ranked events, best first: an event item is its seq, a fact item the events it cites
	// (an item's repeats are not ranked events of their own).
	p.mech = rk.policy.Mechanism()
	rankOf := map[int64]int{}
	var seqs []int64
	for i, c := range rk.fused {
		if i == p.mech.WeaveCandidateItems {
			break
		}
		it := rk.items[c.itemID]
		if it == nil {
			continue
		}
		for _, ct := range it.ownCitations() {
			if _, ok := rankOf[ct.Seq]; !ok {
				rankOf[ct.Seq] = len(seqs)
				seqs = append(seqs, ct.Seq)
			}
		}
	}
	rows, err := queries.WeaveArtifacts(ctx, s.pool, dbsqlc.WeaveArtifactsParams{SpaceID: p.space, Seqs: nonNilSeqs(seqs),
		CitedLimit: int32(p.mech.WeaveCitedLimit), Types: weavePhaseTypes, Phase: p.phase, PhaseLimit: int32(p.mech.WeavePhaseLimit)})
	if err != nil {
		return nil, fmt.Errorf("read weave artifacts: %w", err)
	}
	arts, err := s.pickArtifacts(ctx, p, rows, rankOf, w)
	if err != nil {
		return nil, err
	}
	p.statements = rk.policy.ReplyAfterStatements > 0
	p.replyAnswers = replyAnswers(rk, rk.policy.WeaveReplyAnswers)
	return s.packWeave(ctx, p, w, arts, rankOf, rk.items)
}

// pickArtifacts rejects the stale rows and those rejected in review (each with a diagnostic
// and a stale warning), scores the current ones by the ranked events they cite (the best
// ranked weigh most) and their phase, times their confidence, and verifies the best
// WeaveVerifyLimit, citing WeaveVerifySources events at most (verifyArtifacts), best first.
// An artifact's confidence is its latest revision, as a prior's is (WeaveArtifacts).
func (s *Service) pickArtifacts(ctx context.Context, p weaveParams, rows []dbsqlc.WeaveArtifactsRow, rankOf map[int64]int, w *Weave) ([]WeaveArtifact, error) {
	slices.SortFunc(rows, func(a, b dbsqlc.WeaveArtifactsRow) int { return cmp.Compare(a.ArtifactID, b.ArtifactID) })
	rows = slices.CompactFunc(rows, func(a, b dbsqlc.WeaveArtifactsRow) bool { return a.ArtifactID == b.ArtifactID })
	type scoredRow struct {
		id         string
		score      float64
		confidence float64
		sources    int
	}
	var cands []scoredRow
	for _, r := range rows {
		switch {
		case r.StaleReason != nil:
			reason := *r.StaleReason
			if reason != "superseded" {
				reason = "stale"
			}
			w.reject(r.ArtifactID, r.ArtifactType, reason, deref(r.StaleSeq), fmt.Sprintf("a cited event was %s by seq %d", *r.StaleReason, deref(r.StaleSeq)))
		case r.ReviewStatus == "rejected":
			w.reject(r.ArtifactID, r.ArtifactType, "rejected_in_review", 0, "its proposal was rejected in review")
		default:
			score := 0.0
			for _, seq := range r.Hits {
				score += 1 / float64(rankOf[seq]+1)
			}
			if r.ReasoningPhase == p.phase {
				score += 0.01
			}
			cands = append(cands, scoredRow{id: r.ArtifactID, score: score * r.Confidence, confidence: r.Confidence, sources: int(r.Sources)})
		}
	}
	slices.SortStableFunc(cands, func(a, b scoredRow) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id)) })
	n, sources := 0, 0
	for n < min(len(cands), p.mech.WeaveVerifyLimit) && (n == 0 || sources+cands[n].sources <= p.mech.WeaveVerifySources) {
		sources += cands[n].sources
		n++
	}
	cands = cands[:n]
	ids := make([]string, len(cands))
	picked := map[string]scoredRow{}
	for i, c := range cands {
		ids[i], picked[c.id] = c.id, c
	}
	arts, err := s.verifyArtifacts(ctx, p.space, ids, p.asOf, w)
	if err != nil {
		return nil, err
	}
	for i := range arts {
		c := picked[arts[i].ArtifactID]
		arts[i].score, arts[i].Confidence = c.score, roundConfidence(c.confidence) // as revised
	}
	slices.SortStableFunc(arts, func(a, b WeaveArtifact) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.ArtifactID, b.ArtifactID))
	})
	return arts, nil
}

// roundConfidence rounds c to three decimals, as the weave reports confidences.
func roundConfidence(c float64) float64 { return math.Round(c*1000) / 1000 }

// reject records an artifact the weave refused, with a warning naming it: after_as_of when it
// cites an event that had not occurred by the checkout's as_of, else stale.
func (w *Weave) reject(id, typ, reason string, seq int64, detail string) {
	code := WeaveWarnStale
	if reason == rejectedAfterAsOf {
		code = WeaveWarnAfterAsOf
	}
	w.Rejected = append(w.Rejected, RejectedArtifact{ArtifactID: id, Type: typ, Reason: reason, Seq: seq, Detail: detail})
	w.Warnings = append(w.Warnings, Warning{Code: code, ItemID: "artifact:" + id,
		Message: fmt.Sprintf("%s artifact %s left out: %s", typ, id[:min(12, len(id))], detail)})
}

// rejectedAfterAsOf is the rejection reason of an artifact citing an event after as_of.
const rejectedAfterAsOf = "after_as_of"

// verifyArtifacts reads the current artifacts ids with every source verified against the log
// (weave_verify.sql; with asOf, also that it had occurred by then) and returns those whose
// sources all verify, in id order; the others are rejected with the first source that failed
// and why.
func (s *Service) verifyArtifacts(ctx context.Context, space string, ids []string, asOf *time.Time, w *Weave) ([]WeaveArtifact, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	// With a generic plan (generic_plan.sql), pipelined with it in one round trip. A custom plan
	// sees the space's own statistics, and for a space the statistics do not list (a new one, or
	// one of many tenants) it estimated the space's facts as a handful and probed them through
	// facts_pair for each source, reading all of them: 160 ms for 722 sources in a space of 7,900
	// agent events, 4.5 ms with the generic plan.
	var rows []dbsqlc.WeaveVerifyRow
	b := &pgx.Batch{}
	dbsqlc.QueueGenericPlan(b)
	dbsqlc.QueueWeaveVerify(b, dbsqlc.WeaveVerifyParams{SpaceID: space, Ids: ids, AsOf: asOf}).Query(func(r pgx.Rows) error {
		var err error
		rows, err = pgx.CollectRows(r, pgx.RowToStructByPos[dbsqlc.WeaveVerifyRow])
		return err
	})
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, fmt.Errorf("verify weave artifacts: %w", err)
	}
	var out []WeaveArtifact
	for _, r := range rows {
		if r.BadSeq != 0 {
			if r.Reason == rejectedAfterAsOf {
				w.reject(r.ArtifactID, r.ArtifactType, rejectedAfterAsOf, r.BadSeq, fmt.Sprintf("cited seq %d had not occurred by as_of", r.BadSeq))
				continue
			}
			reason := "unverified"
			switch r.Reason {
			case "invalidated", "erased":
				reason = "stale"
			case "superseded":
				reason = "superseded"
			}
			what := map[string]string{"missing": "is not an event of the space", "hash_mismatch": "does not match the hash the artifact cites",
				"erased": "was erased", "invalidated": "was invalidated", "superseded": "was superseded"}[r.Reason]
			w.reject(r.ArtifactID, r.ArtifactType, reason, r.AtSeq, fmt.Sprintf("cited seq %d %s (seq %d); the artifact has not been rebuilt since", r.BadSeq, what, r.AtSeq))
			continue
		}
		var refs []struct {
			Seq  int64  `json:"seq"`
			Hash string `json:"hash"`
		}
		if err := json.Unmarshal([]byte(r.SourceEventRefs), &refs); err != nil {
			return nil, fmt.Errorf("artifact %s: source_event_refs: %w", r.ArtifactID, err)
		}
		a := WeaveArtifact{ArtifactID: r.ArtifactID, Type: r.ArtifactType, Summary: r.Summary, Confidence: roundConfidence(float64(r.Confidence)),
			ProducedConfidence: roundConfidence(float64(r.Confidence)),
			ReviewStatus:       r.ReviewStatus, ReasoningPhase: r.ReasoningPhase, Label: "suggestive", Authority: "non_authoritative",
			Payload: json.RawMessage(r.Payload), contradicts: r.Contradicts, Citations: make([]Citation, 0, len(refs))}
		if a.Type == "episode" {
			a.when = episodeWhen(r.ValidFrom, r.ValidTo)
		}
		if r.LlmSummary != "" {
			a.LLMSummary = &WeaveLLMSummary{Model: r.LlmModel, Summary: r.LlmSummary, Method: "llm-assisted"}
		}
		for _, ref := range refs {
			h, err := hex.DecodeString(ref.Hash)
			if err != nil {
				return nil, fmt.Errorf("artifact %s: hash of seq %d: %w", r.ArtifactID, ref.Seq, err)
			}
			a.Citations = append(a.Citations, Citation{Seq: ref.Seq, Hash: h})
		}
		out = append(out, a)
	}
	return out, nil
}

// weaveEvidence returns the events of seqs, by seq: those the checkout already fetched as
// items from them, the others read (one query, none when every one was fetched).
func (s *Service) weaveEvidence(ctx context.Context, space string, seqs []int64, fetched map[string]*Item) (map[int64]dbsqlc.WeaveEvidenceRow, error) {
	out := map[int64]dbsqlc.WeaveEvidenceRow{}
	var read []int64
	for _, seq := range seqs {
		if it := fetched[memoryitem.EventID(seq)]; it != nil && it.event != nil {
			out[seq] = *it.event
		} else {
			read = append(read, seq)
		}
	}
	if len(read) == 0 {
		return out, nil
	}
	rows, err := queries.WeaveEvidence(ctx, s.pool, dbsqlc.WeaveEvidenceParams{SpaceID: space, Seqs: read})
	if err != nil {
		return nil, fmt.Errorf("read weave evidence: %w", err)
	}
	for _, r := range rows {
		out[r.Seq] = r
	}
	return out, nil
}

// packWeave fits the artifacts into the budget and renders the weave. The structured ones
// (procedures, failure patterns, preferences, causal links) come first, best first, each with
// up to WeaveEvidencePer of its cited events (those the lanes ranked first, then the rest in seq
// order). Then the episodes' evidence, in the lanes' rank order: each ranked event an episode
// cites and, when that event asks something, its answer: the event after it in the episode,
// when short enough to show whole (with p.statements, also after an event that asks nothing when
// a speaker the goal names said the next one: the turn that goes on about it). A turn that
// answers a question often shares no word with a question about it, so the lanes rank the
// question and not the answer; the episode knows the order, the lanes do not. An episode is
// woven with its first shown event.
func (s *Service) packWeave(ctx context.Context, p weaveParams, w *Weave, arts []WeaveArtifact, rankOf map[int64]int, fetched map[string]*Item) (*Weave, error) {
	var structured, episodes []*WeaveArtifact
	for i := range arts {
		if arts[i].Type == "episode" {
			episodes = append(episodes, &arts[i])
		} else {
			structured = append(structured, &arts[i])
		}
	}
	ranked, after := episodeExchanges(episodes, rankOf)
	if len(p.replyAnswers) > 0 {
		// The reply lane's best answers first, in its order; the other ranked events keep theirs.
		first := func(seq int64) int {
			if r, ok := p.replyAnswers[seq]; ok {
				return r
			}
			return math.MaxInt
		}
		slices.SortStableFunc(ranked, func(x, y rankedEvent) int { return cmp.Compare(first(x.seq), first(y.seq)) })
	}
	var want []int64
	for _, a := range structured {
		want = append(want, evidenceSeqs(*a, rankOf, p.mech.WeaveEvidencePer)...)
	}
	for _, r := range ranked {
		want = append(want, r.seq)
		// The answer is read only after a question (of the ranked events fetched, those that ask).
		if next, ok := after[r.seq]; ok {
			if it := fetched[memoryitem.EventID(r.seq)]; it == nil || asks(it.Text) || p.statements {
				want = append(want, next)
			}
		}
	}
	src, err := s.weaveEvidence(ctx, p.space, want, fetched)
	if err != nil {
		return nil, err
	}
	words := contentWords(p.goal)
	named := newSpeakerNamer(p.goal)
	fixed := EstimateTokens(weaveHeader(p) + "\n" + evidenceHeader + "\n" + inferredHeader + "\n")
	spent := fixed
	// shown: the events shown; shownBody: their type, content and data. An event identical to
	// one shown (an agent's identical tool outputs, which a failure pattern cites one by one) is
	// not shown again: the first one's line says how often it was repeated.
	shown, shownBody := map[int64]bool{}, map[[sha256.Size]byte]bool{}
	bodies := map[int64][sha256.Size]byte{} // each event's digest, computed once
	body := func(seq int64) [sha256.Size]byte {
		if b, ok := bodies[seq]; ok {
			return b
		}
		e := src[seq]
		b := sha256.Sum256([]byte(e.Type + "\x00" + e.Content + "\x00" + e.Data))
		bodies[seq] = b
		return b
	}
	line := func(seq int64, follows int64) (WeaveEvidence, bool) {
		e, ok := src[seq]
		if !ok || shown[seq] {
			return WeaveEvidence{}, false
		}
		if shownBody[body(seq)] {
			return WeaveEvidence{}, false
		}
		ev := WeaveEvidence{Kind: e.Type, Text: excerpt(eventText(e, words), words, p.mech.WeaveExcerptChars), Citation: Citation{Seq: seq, Hash: e.Hash}, Follows: follows}
		if p.whoWhen {
			ev.whoWhen = lineWhoWhen(e.OccurredAt, e.Type, e.Speaker, e.Role)
		}
		if it := fetched[memoryitem.EventID(seq)]; it != nil && it.Repeats > 0 {
			last := it.Citations[len(it.Citations)-1]
			ev.Repeats, ev.LastRepeat = it.Repeats, &last
		}
		return ev, true
	}
	// A line costs its own text and its marker in its artifact's inferred line ("W12, ").
	cost := func(lines []WeaveEvidence) int {
		n := 0
		for _, ev := range lines {
			n += EstimateTokens(evidenceLine(maxRef, ev)+"\n") + EstimateTokens(fmt.Sprintf("W%d, ", maxRef))
		}
		return n
	}
	take := func(lines []WeaveEvidence) {
		for _, ev := range lines {
			ev.Ref = len(w.Evidence) + 1
			shown[ev.Citation.Seq], shownBody[body(ev.Citation.Seq)] = true, true
			w.Evidence = append(w.Evidence, ev)
		}
	}
	woven := map[string]bool{}
	weave := func(a *WeaveArtifact) {
		woven[a.ArtifactID] = true
		w.Inferred = append(w.Inferred, *a)
		w.ArtifactIDs = append(w.ArtifactIDs, a.ArtifactID)
	}
	for _, a := range structured {
		var lines []WeaveEvidence
		for _, seq := range evidenceSeqs(*a, rankOf, p.mech.WeaveEvidencePer) {
			if ev, ok := line(seq, 0); ok && !slices.ContainsFunc(lines, func(l WeaveEvidence) bool { return l.Citation.Seq == seq || body(l.Citation.Seq) == body(seq) }) {
				lines = append(lines, ev)
			}
		}
		c := EstimateTokens(inferredLine(*a, nil, p.mech.WeaveInferredChars)+"\n") + cost(lines)
		if spent+c > p.budget {
			w.Budget.Omitted++
			continue
		}
		spent += c
		take(lines)
		weave(a)
	}
	for _, r := range ranked {
		first, ok := line(r.seq, 0)
		if !ok {
			continue
		}
		lines := []WeaveEvidence{first}
		if next, ok := after[r.seq]; ok {
			if reply, ok := line(next, r.seq); ok && (asks(first.Text) || (p.statements && named.names(messageName(src[next])))) &&
				utf8.RuneCountInString(strings.TrimSpace(eventText(src[next], words))) <= p.mech.WeaveExcerptChars {
				lines = append(lines, reply)
			}
		}
		extra := 0
		if !woven[r.episode.ArtifactID] {
			extra = EstimateTokens(inferredLine(*r.episode, nil, p.mech.WeaveInferredChars) + "\n")
		}
		if spent+extra+cost(lines) > p.budget && len(lines) > 1 {
			lines = lines[:1] // the event alone, without its exchange
		}
		if c := extra + cost(lines); spent+c <= p.budget {
			spent += c
			take(lines)
			if !woven[r.episode.ArtifactID] {
				weave(r.episode)
			}
		}
	}
	for _, a := range episodes {
		if !woven[a.ArtifactID] {
			w.Budget.Omitted++
		}
	}
	// Evidence lists the artifacts citing each line; the woven artifacts keep their score order.
	slices.SortStableFunc(w.Inferred, func(a, b WeaveArtifact) int { return cmp.Compare(b.score, a.score) })
	w.ArtifactIDs = w.ArtifactIDs[:0]
	for _, a := range w.Inferred {
		w.ArtifactIDs = append(w.ArtifactIDs, a.ArtifactID)
	}
	evRef := map[int64]int{}
	for _, ev := range w.Evidence {
		evRef[ev.Citation.Seq] = ev.Ref
	}
	refs := map[int64]Citation{}
	for _, a := range w.Inferred {
		for _, c := range a.Citations {
			refs[c.Seq] = c
			if r, ok := evRef[c.Seq]; ok {
				ev := &w.Evidence[r-1]
				if !slices.Contains(ev.ArtifactIDs, a.ArtifactID) {
					ev.ArtifactIDs = append(ev.ArtifactIDs, a.ArtifactID)
				}
			}
		}
		switch {
		case len(a.contradicts) > 0:
			w.Warnings = append(w.Warnings, Warning{Code: WeaveWarnConflicted, ItemID: "artifact:" + a.ArtifactID,
				Message: fmt.Sprintf("%s artifact %s contradicts an earlier one; prefer the evidence lines", a.Type, a.ArtifactID[:12])})
		case a.Confidence < p.mech.WeaveLowConfidence:
			w.Warnings = append(w.Warnings, Warning{Code: WeaveWarnLowConfidence, ItemID: "artifact:" + a.ArtifactID,
				Message: fmt.Sprintf("%s artifact %s has confidence %.2f: a hypothesis, not a finding", a.Type, a.ArtifactID[:12], a.Confidence)})
		}
	}
	for _, c := range refs {
		w.SourceEventRefs = append(w.SourceEventRefs, c)
	}
	slices.SortFunc(w.SourceEventRefs, func(a, b Citation) int { return cmp.Compare(a.Seq, b.Seq) })
	w.Warnings = append(w.Warnings, missingEvidence(p, w)...)
	slices.SortStableFunc(w.Warnings, func(a, b Warning) int {
		return cmp.Or(cmp.Compare(a.Code, b.Code), cmp.Compare(a.ItemID, b.ItemID))
	})
	w.WeaveID = weaveID(p, w)
	if fixed > p.budget {
		// Too small a budget for even the header: nothing is woven into the text.
		w.Budget.Omitted += len(w.Inferred)
		return w, nil
	}
	w.Text = renderWeave(p, w, p.budget)
	w.Budget.Used = EstimateTokens(w.Text)
	return w, nil
}

// evidenceSeqs are the cited events a structured artifact shows as evidence: for a failure
// pattern that was fixed, one failure and how it was fixed (failureChain); otherwise those the
// lanes ranked, best first, then its other sources in seq order; at most per.
func evidenceSeqs(a WeaveArtifact, rankOf map[int64]int, per int) []int64 {
	if chain := failureChain(a, rankOf, per); len(chain) > 0 {
		return chain
	}
	var ranked, rest []int64
	for _, c := range a.Citations {
		if _, ok := rankOf[c.Seq]; ok {
			ranked = append(ranked, c.Seq)
		} else {
			rest = append(rest, c.Seq)
		}
	}
	slices.SortFunc(ranked, func(x, y int64) int { return cmp.Compare(rankOf[x], rankOf[y]) })
	out := append(ranked, rest...)
	return out[:min(len(out), per)]
}

// failureChain is the evidence of a failure pattern that was fixed: one of its failures, the
// calls that fixed it and the same tool's next success, in order, at most per (the
// fixing calls nearest the retry when there are more). The failure is the fixed one the lanes ranked best,
// else the latest fixed one. Its ranked failures alone would show the error again and again,
// and never the fix the pattern's summary names (the fix shares no word with a question about
// the error). Empty for another type, or when no failure was fixed.
func failureChain(a WeaveArtifact, rankOf map[int64]int, per int) []int64 {
	if a.Type != "failure" {
		return nil
	}
	occurrences, err := latent.FailureFixes(a.Payload)
	if err != nil {
		return nil
	}
	cited := map[int64]bool{}
	for _, c := range a.Citations {
		cited[c.Seq] = true
	}
	best, bestRank := -1, 0
	for i, o := range occurrences {
		if o.FixSeq == 0 || !cited[o.FailureSeq] || !cited[o.FixSeq] {
			continue
		}
		r := rankOrLast(rankOf, o.FailureSeq)
		if best < 0 || r < bestRank || (r == bestRank && o.FailureSeq > occurrences[best].FailureSeq) {
			best, bestRank = i, r
		}
	}
	if best < 0 {
		return nil
	}
	o := occurrences[best]
	var steps []int64 // the fixing calls: the cited events between the two
	for _, c := range a.Citations {
		if c.Seq > o.FailureSeq && c.Seq < o.FixSeq {
			steps = append(steps, c.Seq)
		}
	}
	// Those nearest the retry: an agent looks around first (reads, greps) and fixes last.
	steps = steps[max(0, len(steps)-(per-2)):]
	slices.Sort(steps)
	return append(append([]int64{o.FailureSeq}, steps...), o.FixSeq)
}

// replyAnswers are the events of the reply lane's best n hits among rk's fused candidates, each
// with its rank in that lane (1 is the best); nil when n is 0. The reply lane ranks an answer by
// the question before it, and fusion sets a hit only that lane ranks below events several
// lanes rank.
func replyAnswers(rk *ranking, n int) map[int64]int {
	if n <= 0 {
		return nil
	}
	out := map[int64]int{}
	for _, c := range rk.fused {
		reply, ok := c.components[LaneReply]
		it := rk.items[c.itemID]
		if !ok || reply.Rank > n || it == nil {
			continue
		}
		for _, ct := range it.ownCitations() {
			out[ct.Seq] = reply.Rank
		}
	}
	return out
}

// rankOrLast is seq's rank, or one past every rank for an event the lanes did not rank.
func rankOrLast(rankOf map[int64]int, seq int64) int {
	if r, ok := rankOf[seq]; ok {
		return r
	}
	return math.MaxInt
}

// rankedEvent is a ranked event an episode cites.
type rankedEvent struct {
	seq     int64
	episode *WeaveArtifact
}

// episodeExchanges returns the ranked events the episodes cite, in the lanes' rank order (each
// with the best scored episode citing it), and each one's exchange: the event after it among
// its episode's sources (an episode cites its session's events in order).
func episodeExchanges(episodes []*WeaveArtifact, rankOf map[int64]int) ([]rankedEvent, map[int64]int64) {
	var ranked []rankedEvent
	after := map[int64]int64{}
	seen := map[int64]bool{}
	for _, a := range episodes {
		for i, c := range a.Citations {
			if _, ok := rankOf[c.Seq]; !ok || seen[c.Seq] {
				continue
			}
			seen[c.Seq] = true
			ranked = append(ranked, rankedEvent{seq: c.Seq, episode: a})
			if i+1 < len(a.Citations) {
				after[c.Seq] = a.Citations[i+1].Seq
			}
		}
	}
	slices.SortStableFunc(ranked, func(x, y rankedEvent) int { return cmp.Compare(rankOf[x.seq], rankOf[y.seq]) })
	return ranked, after
}

// missingEvidence warns when the weave has no evidence, or the phase's kind of prior is absent.
func missingEvidence(p weaveParams, w *Weave) []Warning {
	var out []Warning
	if len(w.Evidence) == 0 {
		out = append(out, Warning{Code: WeaveWarnMissingEvidence, Message: "no cited event in latent memory bears on this step; verify before relying on memory"})
	}
	has := map[string]bool{}
	for _, a := range w.Inferred {
		has[a.Type] = true
	}
	switch {
	case p.phase == PhasePlan && !has["procedure"]:
		out = append(out, Warning{Code: WeaveWarnMissingEvidence, Message: "no recorded procedure fits this step: the plan has no precedent in memory"})
	case p.phase == PhaseAct && !has["failure"] && !has["procedure"]:
		out = append(out, Warning{Code: WeaveWarnMissingEvidence, Message: "no recorded procedure or failure fits this step"})
	}
	return out
}

// weaveID addresses a weave by what it was built for and from.
func weaveID(p weaveParams, w *Weave) string {
	var ev []int64
	for _, e := range w.Evidence {
		ev = append(ev, e.Citation.Seq)
	}
	b, _ := json.Marshal([]any{p.space, p.goal, p.phase, p.purpose, w.ArtifactIDs, ev})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

const (
	evidenceHeader = "### Evidence (log events: only these back claims)"
	inferredHeader = "### Inferred context (suggestive, not evidence)"
)

func weaveHeader(p weaveParams) string {
	return fmt.Sprintf("## Memory weave (%s, %s)\nGoal: %s\nExpected use: %s\nProhibited use: %s",
		p.phase, p.purpose, remembered(p.goal), WeaveExpectedUse, WeaveProhibitedUse)
}

// renderWeave is the weave's prompt text: header with expected and prohibited use, evidence
// lines ([W<n>] text (seq, hash)), inferred context (type, confidence, cited seqs, summary)
// and the warnings that fit budget.
func renderWeave(p weaveParams, w *Weave, budget int) string {
	var b strings.Builder
	b.WriteString(weaveHeader(p) + "\n")
	if len(w.Evidence) > 0 {
		b.WriteString(evidenceHeader + "\n")
		for _, ev := range w.Evidence {
			b.WriteString(evidenceLine(ev.Ref, ev) + "\n")
		}
	}
	if len(w.Inferred) > 0 {
		b.WriteString(inferredHeader + "\n")
		evRef := map[int64]int{}
		for _, ev := range w.Evidence {
			evRef[ev.Citation.Seq] = ev.Ref
		}
		for _, a := range w.Inferred {
			b.WriteString(inferredLine(a, evRef, p.mech.WeaveInferredChars) + "\n")
		}
	}
	// Warnings as fit the budget (all of them are in Warnings).
	header := "### Weave warnings\n"
	for i, wr := range w.Warnings {
		line := fmt.Sprintf("- %s: %s\n", wr.Code, remembered(wr.Message))
		extra := line
		if i == 0 {
			extra = header + line
		}
		if EstimateTokens(b.String()+extra) > budget {
			break
		}
		b.WriteString(extra)
	}
	return b.String()
}

func evidenceLine(ref int, ev WeaveEvidence) string {
	short := func(c Citation) string {
		return fmt.Sprintf("seq %d #%s", c.Seq, c.Hash.String()[:min(8, len(c.Hash)*2)])
	}
	if ev.LastRepeat != nil {
		return flatLine(fmt.Sprintf("[W%d] %s%s (%s; %s; %s)", ref, ev.whoWhen, remembered(ev.Text), repeatedLater(ev.Repeats), short(ev.Citation), short(*ev.LastRepeat)))
	}
	return flatLine(fmt.Sprintf("[W%d] %s%s (%s)", ref, ev.whoWhen, remembered(ev.Text), short(ev.Citation)))
}

// inferredLine renders an artifact, showing at most chars of its summary; evRef (nil when
// estimating) maps its cited seqs to evidence markers.
func inferredLine(a WeaveArtifact, evRef map[int64]int, chars int) string {
	var cites []string
	for _, c := range a.Citations {
		if r, ok := evRef[c.Seq]; ok {
			cites = append(cites, fmt.Sprintf("W%d", r))
		}
	}
	n := len(a.Citations)
	src := fmt.Sprintf("%d cited events", n)
	if evRef == nil || len(cites) > 0 {
		src += "; shown " + strings.Join(cites, ", ")
	}
	head, label, text := a.Type, "suggestive", a.Summary
	if a.Type == "episode" {
		// An episode orients in time: when it happened, which its evidence lines do not say.
		// Its extractive summary is sentences of the same session the lanes could rank; a cut of
		// it told a reader little, so the line shows it only as an LLM summary.
		text = ""
		if a.when != "" {
			head = "episode, " + a.when
		}
	}
	if a.LLMSummary != nil {
		label, text = "suggestive; llm-assisted summary by "+remembered(a.LLMSummary.Model), a.LLMSummary.Summary
	}
	line := fmt.Sprintf("- %s (%s; confidence %.2f; %s)", head, label, a.Confidence, src)
	if a.Type == "episode" && a.LLMSummary == nil {
		// An episode is a session's stretch: how many events it cites tells a reader nothing,
		// and its confidence only when revised below 1. Its line is its date and its evidence,
		// which leaves the budget another evidence line now and then.
		line = fmt.Sprintf("- %s (%s", head, label)
		if a.Confidence < 1 {
			line += fmt.Sprintf("; confidence %.2f", a.Confidence)
		}
		if len(cites) > 0 {
			line += "; shown " + strings.Join(cites, ", ")
		}
		line += ")"
	}
	if text != "" {
		line += ": " + remembered(clipTo(text, chars))
	}
	return flatLine(line) // one line, whatever the summary (or an LLM's) holds
}

// episodeWhen is an episode's time window (its validity: first and last event) as its
// inferred line shows it: the UTC date of its first event, and of its last when another day;
// empty when it has none.
func episodeWhen(from, to *time.Time) string {
	if from == nil {
		return ""
	}
	start := from.UTC().Format(time.DateOnly)
	if to == nil || to.UTC().Format(time.DateOnly) == start {
		return start
	}
	return start + " to " + to.UTC().Format(time.DateOnly)
}

// eventText is a cited event's text as evidence: its content (an excerpt around words when
// long, as an item's), or its type and data.
func eventText(e dbsqlc.WeaveEvidenceRow, words []string) string {
	it := eventItem(e.Seq, e.Type, "", e.Content, e.Data, e.Hash, words)
	return it.Text
}

// excerpt cuts text to width characters around the query's words (excerptWindow).
func excerpt(text string, words []string, width int) string {
	out, _, _ := cutAround([]rune(strings.TrimSpace(text)), words, width)
	return out
}

func clipTo(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func nonNilSeqs(s []int64) []int64 {
	if s == nil {
		return []int64{}
	}
	return s
}

// SurfacedWeave is how a checkout.surfaced event records the weave it surfaced: its id, phase,
// the woven artifacts and the evidence seqs shown. It sits beside the surfaced items and
// reinforces nothing: a derived artifact never reinforces the events it cites.
type SurfacedWeave struct {
	WeaveID        string   `json:"weave_id"`
	ReasoningPhase string   `json:"reasoning_phase"`
	ArtifactIDs    []string `json:"artifact_ids"`
	EvidenceSeqs   []int64  `json:"evidence_seqs"`
	SourceSeqs     []int64  `json:"source_seqs"`
}

// surfaced is w as a checkout.surfaced event records it (nil for no weave).
func (w *Weave) surfaced() *SurfacedWeave {
	if w == nil {
		return nil
	}
	sw := &SurfacedWeave{WeaveID: w.WeaveID, ReasoningPhase: w.ReasoningPhase, ArtifactIDs: w.ArtifactIDs, EvidenceSeqs: []int64{}, SourceSeqs: []int64{}}
	for _, e := range w.Evidence {
		sw.EvidenceSeqs = append(sw.EvidenceSeqs, e.Citation.Seq)
	}
	for _, c := range w.SourceEventRefs {
		sw.SourceSeqs = append(sw.SourceSeqs, c.Seq)
	}
	return sw
}

// asks reports whether an evidence line asks something: then the event after it in its
// episode is its answer, which often shares no word with a question about it.
func asks(text string) bool { return strings.Contains(text, "?") }

// messageName is who said a message event (data.name), or "" for another event.
func messageName(e dbsqlc.WeaveEvidenceRow) string {
	var d struct {
		Name string `json:"name"`
	}
	if e.Type != "message" || json.Unmarshal([]byte(e.Data), &d) != nil {
		return ""
	}
	return d.Name
}
