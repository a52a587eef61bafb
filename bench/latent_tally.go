package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/zaxy/zaxy/checkout"
)

// tokenTally is a token lane's report while its questions are asked, with the packets' token
// and time sums (plain, woven, plain at the weave's budget).
type tokenTally struct {
	l       *latentBench
	tr      *TokenReport
	tok, ms [3]float64
}

// newTokenTally starts a token lane's report on dataset.
func (l *latentBench) newTokenTally(dataset string) *tokenTally {
	return &tokenTally{l: l, tr: &TokenReport{Dataset: dataset, Plain: TokenSide{Budget: l.p.PlainTokens},
		Weave: TokenSide{Budget: l.p.WeaveTokens}, PlainSame: TokenSide{Budget: l.p.WeaveTokens}, Artifacts: map[string]int{}}}
}

// ask asks req's query in its space three ways: a plain packet at PlainTokens, a packet with a
// weave at WeaveTokens and a plain one at WeaveTokens. A hit is the question's evidence (hit
// says) among the events whose text a packet shows: its tier items, and the weave's evidence
// lines (an artifact's summary is not evidence). Every claim of the weave is checked.
func (t *tokenTally) ask(ctx context.Context, id string, req checkout.Request, hit func([]int64) bool) error {
	var packets [3]*checkout.Packet
	for i, side := range []struct {
		tokens int
		weave  bool
		name   string
	}{{t.l.p.PlainTokens, false, "plain packet"}, {t.l.p.WeaveTokens, true, "weave packet"}, {t.l.p.WeaveTokens, false, "plain packet at the weave's budget"}} {
		r := req
		r.MaxTokens, r.Weave, r.NoRecord, r.WhoWhen = side.tokens, side.weave, true, t.l.p.WhoWhen
		t0 := time.Now()
		p, err := t.l.svc.Checkout(ctx, &r)
		if err != nil {
			return fmt.Errorf("%s: %w", side.name, err)
		}
		t.ms[i] += float64(time.Since(t0).Microseconds()) / 1000
		t.tok[i] += float64(p.Budget.Used)
		packets[i] = p
	}
	plain, woven, same := packets[0], packets[1], packets[2]
	t.tr.Questions++
	q := TokenQuestion{ID: id, Tokens: [3]int{plain.Budget.Used, woven.Budget.Used, same.Budget.Used}}
	if hit(tierSeqs(plain)) {
		t.tr.Plain.Hits++
		q.Hits[0] = true
	}
	if hit(tierSeqs(same)) {
		t.tr.PlainSame.Hits++
		q.Hits[2] = true
	}
	var lines []int64
	for _, e := range woven.Weave.Evidence {
		lines = append(lines, e.Seqs()...)
	}
	if tiers := tierSeqs(woven); hit(tiers) || hit(lines) {
		t.tr.Weave.Hits++
		q.Hits[1] = true
		if !hit(tiers) {
			t.tr.WeaveEvidenceOnly++
		}
	}
	t.tr.Asked = append(t.tr.Asked, q)
	return t.l.checkWeave(ctx, req.SpaceID, woven.Weave, nil)
}

// report computes the rates, the means and the ratio.
func (t *tokenTally) report() *TokenReport {
	tr := t.tr
	if n := float64(tr.Questions); n > 0 {
		for i, side := range []*TokenSide{&tr.Plain, &tr.Weave, &tr.PlainSame} {
			side.EvidenceRate, side.MeanTokens, side.MeanMS = float64(side.Hits)/n, t.tok[i]/n, t.ms[i]/n
		}
	}
	if tr.Plain.EvidenceRate > 0 {
		tr.Ratio = tr.Weave.EvidenceRate / tr.Plain.EvidenceRate
	}
	return tr
}
