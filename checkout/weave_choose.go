package checkout

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
)

// buildWeave weaves the precomputed artifacts bearing on rk's ranked events (and those serving
// the phase) into a section of at most p.budget tokens. It reads two indexed queries and
// derives nothing: every artifact comes from latent_current, and each of its sources is
// verified against the log (hash, erasure, invalidation, supersession) before it is woven.
func (s *Service) buildWeave(ctx context.Context, p weaveParams, rk *ranking) (*Weave, error) {
	w := &Weave{Goal: p.goal, ReasoningPhase: p.phase, Purpose: p.purpose, ArtifactIDs: []string{},
		SourceEventRefs: []Citation{}, Evidence: []WeaveEvidence{}, Inferred: []WeaveArtifact{}, Warnings: []Warning{},
		Rejected: []RejectedArtifact{}, Budget: WeaveBudget{Tokens: p.budget, Tokenizer: rk.tok.Name()}, ExpectedUse: WeaveExpectedUse, ProhibitedUse: WeaveProhibitedUse}
	// The ranked events, best first, and the place of each among them.
	p.mech, p.question, p.woven, p.count = mechanismOf(rk.usedPolicy()), rk.usedQuestion(), newWovenState(), rk.count
	seqs, rankOf := rk.rankedEvents(p.mech.WeaveCandidateItems)
	rows, err := queries.WeaveArtifacts(ctx, s.pool, dbsqlc.WeaveArtifactsParams{SpaceID: p.space, Seqs: nonNilSeqs(seqs),
		CitedLimit: int32(p.mech.WeaveCitedLimit), Types: weavePhaseTypes, Phase: p.phase, PhaseLimit: int32(p.mech.WeavePhaseLimit)})
	if err != nil {
		return nil, fmt.Errorf("read weave artifacts: %w", err)
	}
	arts, err := s.pickArtifacts(ctx, p, rows, rankOf, w)
	if err != nil {
		return nil, err
	}
	p.statements = rk.usedPolicy().ReplyAfterStatements > 0
	p.replyAnswers = rk.replyAnswers(rk.usedPolicy().WeaveReplyAnswers)
	return s.packWeave(ctx, p, w, arts, rankOf, rk.fetchedItems())
}

// pickArtifacts rejects the stale rows, those rejected in review and those withdrawn (revised
// to confidence 0) (each with a diagnostic and a stale warning), scores the current ones by the ranked events they cite (the best
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
			rejectArtifact(w, r.ArtifactID, r.ArtifactType, reason, deref(r.StaleSeq), fmt.Sprintf("a cited event was %s by seq %d", *r.StaleReason, deref(r.StaleSeq)))
		case r.ReviewStatus == "rejected":
			rejectArtifact(w, r.ArtifactID, r.ArtifactType, "rejected_in_review", 0, "its proposal was rejected in review")
		case r.Confidence == 0:
			rejectArtifact(w, r.ArtifactID, r.ArtifactType, "withdrawn", 0, "its confidence was revised to 0 (withdrawn)")
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
	arts, err := s.verifyArtifacts(ctx, p.space, ids, p.asOf, w, p.woven)
	if err != nil {
		return nil, err
	}
	for i := range arts {
		c := picked[arts[i].ArtifactID]
		p.woven.score[arts[i].ArtifactID], arts[i].Confidence = c.score, roundConfidence(c.confidence) // as revised
	}
	slices.SortStableFunc(arts, func(a, b WeaveArtifact) int {
		return cmp.Or(cmp.Compare(p.woven.score[b.ArtifactID], p.woven.score[a.ArtifactID]), cmp.Compare(a.ArtifactID, b.ArtifactID))
	})
	return arts, nil
}

// roundConfidence rounds c to three decimals, as the weave reports confidences.
func roundConfidence(c float64) float64 { return math.Round(c*1000) / 1000 }

// rejectArtifact records an artifact the weave refused, with a warning naming it: after_as_of when it
// cites an event that had not occurred by the checkout's as_of, else stale.
func rejectArtifact(w *Weave, id, typ, reason string, seq int64, detail string) {
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

// deref is *p, or 0 for nil.
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
