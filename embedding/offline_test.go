package embedding

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

func embedOne(t testing.TB, e Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	require.NoError(t, err)
	require.Len(t, v, 1)
	return v[0]
}

// goldenTexts and goldenSHA256 pin the exact bytes of zaxy-offline@1: if this test fails,
// the algorithm changed and OfflineModel's version must be bumped.
var goldenTexts = []string{
	"I bought a new Honda Civic last week and I'm working on a model of it.",
	"Café au lait, naïve résumé — ÜBER straße 東京 2024!",
	"",
	"the and of", // stopwords only
	"Running runners ran; the runner's run is running.",
	longText(), // more distinct features than the initial table holds
}

// longText is about 9,000 characters with a few thousand distinct features.
func longText() string {
	var b strings.Builder
	for i := range 600 {
		fmt.Fprintf(&b, "item%d costs %d dollars; ", i, i*7%113)
	}
	return b.String()
}

const goldenSHA256 = "19b258442bc73476660785d5146002e6c7af46130b6b6d66c0ae109745de20a3"

func vectorsDigest(vs [][]float32) string {
	h := sha256.New()
	var b [4]byte
	for _, v := range vs {
		for _, x := range v {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestOffline_GoldenBytes(t *testing.T) {
	e := NewOffline()
	require.Equal(t, "zaxy-offline@1", e.Model())
	require.Equal(t, 384, e.Dimensions())
	vs, err := e.Embed(context.Background(), goldenTexts)
	require.NoError(t, err)
	require.Equal(t, goldenSHA256, vectorsDigest(vs),
		"offline vectors changed: bump OfflineModel's version and update this digest")
}

func TestOffline_UnitLengthOrZero(t *testing.T) {
	e := NewOffline()
	tests := []struct {
		name string
		text string
		zero bool
	}{
		{"sentence", "We adopted a rescue dog named Biscuit in March.", false},
		{"single word", "Biscuit", false},
		{"short token", "a1", false},
		{"non-latin", "東京タワー", false},
		{"empty", "", true},
		{"punctuation only", "?!... --- ;;", true},
		{"stopwords only", "and the of to it", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := embedOne(t, e, tt.text)
			require.Len(t, v, e.Dimensions())
			var n float64
			for _, x := range v {
				require.False(t, math.IsNaN(float64(x)) || math.IsInf(float64(x), 0))
				n += float64(x) * float64(x)
			}
			if tt.zero {
				require.Zero(t, n)
				return
			}
			require.InDelta(t, 1, n, 1e-5)
		})
	}
}

func TestOffline_RelatedTextsAreCloser(t *testing.T) {
	e := NewOffline()
	tests := []struct {
		name, anchor, near, far string
	}{
		{"shared words", "I bought a new Honda Civic last week",
			"What car do I drive? A Honda Civic.", "The weather in Lisbon was sunny all week"},
		{"inflections", "She was running marathons in the mountains",
			"marathon runner who runs mountain races", "baking sourdough bread at home"},
		{"typo", "my favourite restaurant downtown",
			"favorite restuarant", "quarterly tax filing deadline"},
		{"case and punctuation", "GRANDMA'S SILVER NECKLACE!!!",
			"my grandma's silver necklace", "a new laptop charger"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, n, f := embedOne(t, e, tt.anchor), embedOne(t, e, tt.near), embedOne(t, e, tt.far)
			require.Greater(t, cosine(a, n), cosine(a, f)+0.1, "near %.3f far %.3f", cosine(a, n), cosine(a, f))
		})
	}
}

func TestOffline_SameTextSameVectorInAnyBatch(t *testing.T) {
	e := NewOffline()
	ctx := context.Background()
	texts := []string{"alpha beta gamma", "", "the quick brown fox jumps over the lazy dog", "alpha beta gamma"}
	batch, err := e.Embed(ctx, texts)
	require.NoError(t, err)
	require.Len(t, batch, len(texts))
	for i, text := range texts {
		require.Equal(t, embedOne(t, e, text), batch[i], "text %d", i)
	}
	require.Equal(t, batch[0], batch[3])
}

func TestOffline_ConcurrentUseGivesSameVectors(t *testing.T) {
	e := NewOffline()
	texts := make([]string, 200)
	for i := range texts {
		texts[i] = goldenTexts[i%len(goldenTexts)] + " " + benchText200[:i%len(benchText200)]
	}
	want, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	digests := make([]string, 8)
	var wg sync.WaitGroup
	for g := range digests {
		wg.Go(func() {
			got, err := e.Embed(context.Background(), texts)
			if err != nil {
				digests[g] = err.Error()
				return
			}
			digests[g] = vectorsDigest(got)
		})
	}
	wg.Wait()
	for g, d := range digests {
		require.Equal(t, vectorsDigest(want), d, "goroutine %d", g)
	}
}

func TestOffline_SameVectorsAfterTableGrowth(t *testing.T) {
	e := NewOffline()
	short, long := embedOne(t, e, benchText200), embedOne(t, e, longText())
	for range 3 {
		require.Equal(t, short, embedOne(t, e, benchText200))
		require.Equal(t, long, embedOne(t, e, longText()))
	}
	vs, err := e.Embed(context.Background(), []string{longText(), benchText200, longText()})
	require.NoError(t, err)
	require.Equal(t, [][]float32{long, short, long}, vs)
}

func TestOffline_CanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewOffline().Embed(ctx, []string{"hello"})
	require.ErrorIs(t, err, context.Canceled)
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"running", "run"}, {"runs", "run"}, {"run", "run"},
		{"makes", "mak"}, {"making", "mak"}, {"make", "mak"},
		{"tried", "try"}, {"tries", "try"}, {"stopped", "stop"},
		{"falling", "fall"}, {"quickly", "quick"}, {"boxes", "box"},
		{"cooked", "cook"}, {"classes", "class"}, {"bus", "bus"}, {"is", "is"},
		{"café", "café"}, {"sing", "sing"}, {"red", "red"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			require.Equal(t, tt.want, string(stem([]byte(tt.in))))
		})
	}
}

// benchText200 is a typical ~200-character memory.
const benchText200 = "I finally picked up the new espresso machine from the store on Saturday; " +
	"the barista course starts next Tuesday at 6 pm and my sister Maya wants to join me for the first two sessions."

// BenchmarkOffline_Embed200 embeds ~200-character texts one per call (the embedding job's
// worst case) and reports ns/text.
func BenchmarkOffline_Embed200(b *testing.B) {
	e := NewOffline()
	ctx := context.Background()
	texts := []string{benchText200}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/text")
}

// BenchmarkOffline_Embed200Batch64 embeds batches of 64 ~200-character texts and reports
// ns/text.
func BenchmarkOffline_Embed200Batch64(b *testing.B) {
	e := NewOffline()
	ctx := context.Background()
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = benchText200
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/text")
}
