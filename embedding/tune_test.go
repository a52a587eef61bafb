package embedding

import (
	"cmp"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOffline_Variants measures alternatives to the offline algorithm on the LongMemEval dev
// set (the numbers in docs/embeddings.md). It is slow and only informative, so it runs only
// with ZAXY_EMBED_VARIANTS=1. The keyword lane comes from Postgres as in
// TestOffline_FusionBeatsKeywordOnLongMemEval; the vector lane is the same exact cosine
// ranking, computed in Go.
func TestOffline_Variants(t *testing.T) {
	if os.Getenv("ZAXY_EMBED_VARIANTS") == "" {
		t.Skip("set ZAXY_EMBED_VARIANTS=1 to measure the offline embedder's alternatives")
	}
	ctx := context.Background()
	ds := loadLongMemEval(t)
	base := NewOffline()
	texts := make([]string, len(ds.rows))
	for i, r := range ds.rows {
		texts[i] = r.text
	}
	lme := loadLMEDatabase(ctx, t, ds, base, embedAll(ctx, t, base, texts))
	conn, err := lme.pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()

	keyword := map[int][]int{}
	var kw lmeRecall
	for qi, q := range ds.questions {
		if strings.HasSuffix(q.QuestionID, "_abs") {
			continue
		}
		k, err := lme.keyword(ctx, conn.Conn(), qi)
		require.NoError(t, err)
		keyword[qi] = k
		kw.score(ds, qi, k)
	}
	t.Logf("%-34s %v", "keyword only", kw)
	for _, v := range offlineVariants() {
		e := &Offline{p: v.p}
		vecs := embedAll(ctx, t, e, texts)
		var vec, fused lmeRecall
		for qi, k := range keyword {
			qv, err := e.Embed(ctx, []string{ds.questions[qi].Question})
			require.NoError(t, err)
			r := exactTop(vecs, ds.first[qi], ds.first[qi+1], qv[0], 50)
			vec.score(ds, qi, r)
			fused.score(ds, qi, rrf(60, k, r))
		}
		t.Logf("%-34s vector %v\n%-34s fused  %v", v.name, vec, "", fused)
	}
}

// exactTop ranks rows lo..hi-1 by cosine similarity to q (vectors are unit length or zero),
// ties to the lower ord, and returns the best k ords.
func exactTop(vecs [][]float32, lo, hi int, q []float32, k int) []int {
	type scored struct {
		ord int
		sim float64
	}
	all := make([]scored, 0, hi-lo)
	for o := lo; o < hi; o++ {
		var d float64
		for i, x := range vecs[o] {
			d += float64(x) * float64(q[i])
		}
		all = append(all, scored{o, d})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(b.sim, a.sim) })
	out := make([]int, 0, k)
	for _, s := range all[:min(k, len(all))] {
		out = append(out, s.ord)
	}
	return out
}

type offlineVariant struct {
	name string
	p    offlineParams
}

func offlineVariants() []offlineVariant {
	var out []offlineVariant
	add := func(name string, f func(p *offlineParams)) {
		p := defaultOfflineParams
		f(&p)
		out = append(out, offlineVariant{name, p})
	}
	add("zaxy-offline@1 (default)", func(*offlineParams) {})
	add("256 dimensions", func(p *offlineParams) { p.dims = 256 })
	add("512 dimensions", func(p *offlineParams) { p.dims = 512 })
	add("no character n-grams", func(p *offlineParams) { p.char = 0 })
	add("n-grams share weight linearly", func(p *offlineParams) { p.charNorm = normLinear; p.char = 0.5 })
	add("n-grams 4-5 only", func(p *offlineParams) { p.charMin = 4 })
	add("no bigrams", func(p *offlineParams) { p.bi = 0 })
	add("bigram weight 1", func(p *offlineParams) { p.bi = 1 })
	add("no common-word down-weighting", func(p *offlineParams) { p.common = 1 })
	add("common words dropped", func(p *offlineParams) { p.common = 0 })
	add("no stemming", func(p *offlineParams) { p.stem = false })
	add("no stopword list", func(p *offlineParams) { p.stop = false })
	add("linear tf", func(p *offlineParams) { p.tf = tfLinear })
	add("sqrt tf", func(p *offlineParams) { p.tf = tfSqrt })
	return out
}
