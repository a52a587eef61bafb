package embedding

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goldenSentences are embedded by the golden-bytes tests.
var goldenSentences = []string{
	"I adopted a kitten from the shelter last week.",
	"The council will vote on the budget.",
	"My phone's battery life is terrible; I need a portable charger!",
}

// fixtureWordVectors converts testdata/wordvec_fixture.json (41 real vectors of the npm
// package, in the package's JSON layout, plus one hyphenated word the converter must drop)
// into a binary file and returns its path.
func fixtureWordVectors(t *testing.T) string {
	t.Helper()
	in, err := os.Open("testdata/wordvec_fixture.json")
	require.NoError(t, err)
	defer in.Close()
	path := filepath.Join(t.TempDir(), "wordvec.bin")
	out, err := os.Create(path)
	require.NoError(t, err)
	n, err := ConvertWinkJSON(in, out, 0)
	require.NoError(t, err)
	require.NoError(t, out.Close())
	require.Equal(t, 41, n, "the hyphenated word is dropped")
	return path
}

// installedWordVectors is the path of the real weights in the model cache (ZAXY_MODEL_DIR,
// default /var/cache/zaxy/models). When ZAXY_REQUIRE_MODELS=1 (make test sets it after
// make models has installed them) their absence fails the test; otherwise it skips.
func installedWordVectors(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("ZAXY_MODEL_DIR")
	if dir == "" {
		dir = "/var/cache/zaxy/models"
	}
	path := filepath.Join(dir, WordVecPackage, "wordvec.bin")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("ZAXY_REQUIRE_MODELS") == "1" {
			t.Fatalf("ZAXY_REQUIRE_MODELS=1 but the word vectors are not installed: %v (run make models)", err)
		}
		t.Skipf("word vectors not installed at %s (make models installs them; make test requires them)", path)
	}
	return path
}

// dot is the dot product (the cosine for unit vectors).
func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestWordVec_GoldenBytesFixture(t *testing.T) {
	e, err := NewWordVec(fixtureWordVectors(t))
	require.NoError(t, err)
	require.Equal(t, WordVecModel, e.Model())
	require.Equal(t, 484, e.Dimensions())
	vs, err := e.Embed(context.Background(), goldenSentences)
	require.NoError(t, err)
	for i, v := range vs {
		require.Len(t, v, WordVecDimensions)
		require.InDelta(t, 1, dot(v, v), 1e-5, "unit length: %q", goldenSentences[i])
		require.NotZero(t, dot(v[:WordVecWordDimensions], v[:WordVecWordDimensions]), "known words give a semantic part: %q", goldenSentences[i])
	}
	require.Equal(t, "5ea69d8eb20ff20b41d5ee06377bfcbaa7a541b91df63ed7d863eb2f628c4eff", vectorsDigest(vs),
		"the vectors changed: bump WordVecModel's version (and update this digest) if that is intended")
	// A few values pinned too, so a failure shows how far they moved.
	require.Equal(t, []float32{0.07492078, 0.07006837, -0.017595846}, []float32{vs[0][0], vs[1][1], vs[2][2]})
}

func TestWordVec_GoldenBytesInstalled(t *testing.T) {
	e, err := NewWordVec(installedWordVectors(t))
	require.NoError(t, err)
	vs, err := e.Embed(context.Background(), goldenSentences)
	require.NoError(t, err)
	require.Equal(t, "d42f7c9e74904efc16b3f370e9d126094010bfeef3a20fab5b5e3c3baf79b31f", vectorsDigest(vs),
		"the vectors changed: bump WordVecModel's version (and update this digest) if that is intended")
	require.Equal(t, []float32{0.113570124, 0.056606967, 0.037853606}, []float32{vs[0][0], vs[1][1], vs[2][2]})
}

// paraphrase checks that the pair sharing no word is closer than either is to an unrelated
// sentence, with e; it returns the three similarities.
func paraphrase(t *testing.T, e Embedder) (pair, unrelatedA, unrelatedB float64) {
	t.Helper()
	vs, err := e.Embed(context.Background(), []string{
		"battery life on my phone", "portable power bank", "I adopted a cat from the shelter last week"})
	require.NoError(t, err)
	return cosine(vs[0], vs[1]), cosine(vs[0], vs[2]), cosine(vs[1], vs[2])
}

func TestWordVec_BridgesParaphraseWithNoSharedWord(t *testing.T) {
	for name, path := range map[string]func(*testing.T) string{"fixture": fixtureWordVectors, "installed": installedWordVectors} {
		t.Run(name, func(t *testing.T) {
			e, err := NewWordVec(path(t))
			require.NoError(t, err)
			pair, ua, ub := paraphrase(t, e)
			t.Logf("pair %.3f, unrelated %.3f / %.3f", pair, ua, ub)
			require.Greater(t, pair, ua+0.1)
			require.Greater(t, pair, ub+0.1)
		})
	}
	// The hashing embedder alone cannot: the pair shares no word and no useful n-gram.
	pair, ua, ub := paraphrase(t, NewOffline())
	require.Less(t, pair, max(ua, ub)+0.1, "hashing: pair %.3f, unrelated %.3f / %.3f", pair, ua, ub)
}

func TestWordVec_DeterministicAndFallsBackToHashing(t *testing.T) {
	e, err := NewWordVec(fixtureWordVectors(t))
	require.NoError(t, err)
	ctx := context.Background()
	texts := append([]string{"", "the of and", "zorblax quux frobnicate"}, goldenSentences...)
	batch, err := e.Embed(ctx, texts)
	require.NoError(t, err)
	for i, text := range texts {
		one, err := e.Embed(ctx, []string{text})
		require.NoError(t, err)
		require.Equal(t, batch[i], one[0], "one at a time = in a batch: %q", text)
	}
	require.Equal(t, make([]float32, WordVecDimensions), batch[0], "no words: the zero vector")
	require.Equal(t, make([]float32, WordVecDimensions), batch[1], "only stopwords: the zero vector")
	// Only unknown words: the semantic part is zero and the rest is the hashing vector.
	h, err := NewOffline().Embed(ctx, texts[2:3])
	require.NoError(t, err)
	require.Equal(t, make([]float32, WordVecWordDimensions), batch[2][:WordVecWordDimensions])
	for j, x := range h[0] {
		require.InDelta(t, x, batch[2][WordVecWordDimensions+j], 1e-6)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = e.Embed(cancelled, texts)
	require.ErrorIs(t, err, context.Canceled)
}

func TestLoadWordVectors_ErrorsSayWhatIsWrong(t *testing.T) {
	good, err := os.ReadFile(fixtureWordVectors(t))
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	var fifty bytes.Buffer
	require.NoError(t, writeWordVectors(&fifty, 50, []string{"cat", "dog"}, [][]float32{make([]float32, 50), make([]float32, 50)}))
	nan := bytes.Clone(good)
	binary.LittleEndian.PutUint32(nan[len(nan)-4:], math.Float32bits(float32(math.NaN())))
	for _, c := range []struct {
		path string
		want string
	}{
		{filepath.Join(dir, "missing.bin"), "no such file"},
		{write("short.bin", good[:10]), "truncated header"},
		{write("magic.bin", append([]byte("GGUF0000"), good[8:]...)), "not a word-vector file"},
		{write("vocab.bin", good[:200]), "truncated in the vocabulary after"},
		{write("truncated.bin", good[:len(good)-7]), "truncated: "},
		{write("trailing.bin", append(bytes.Clone(good), 0)), "1 bytes after the last vector"},
		{write("fifty.bin", fifty.Bytes()), "vectors have 50 dimensions, 100 needed"},
		{write("nan.bin", nan), "has a non-finite value"},
	} {
		_, err := NewWordVec(c.path)
		require.ErrorIs(t, err, ErrWordVectors, c.path)
		require.ErrorContains(t, err, c.want)
		require.True(t, strings.Contains(err.Error(), c.path), "the error names the file: %v", err)
	}
}

func TestConvertWinkJSON_RejectsMalformedInput(t *testing.T) {
	for in, want := range map[string]string{
		`[]`: `want "{", got [`,
		`{"words":["cat"],"vectors":{"cat":[1,2]}}`:                 `"dimensions" must come before "vectors"`,
		`{"dimensions":3,"words":["cat"],"vectors":{"cat":[1,2]}}`:  `vector of "cat" has 2 values, want 3`,
		`{"dimensions":3,"vectors":{"cat":[1,2,3]}}`:                `no "dimensions" or no "words"`,
		`{"dimensions":3,"words":["cat"],"vectors":{"cat":[1,2,3]}`: `EOF`,
	} {
		_, err := ConvertWinkJSON(strings.NewReader(in), &bytes.Buffer{}, 0)
		require.ErrorContains(t, err, want, in)
	}
	var out bytes.Buffer
	n, err := ConvertWinkJSON(strings.NewReader(`{"dimensions":2,"words":["the","cat","Dog","the"],"vectors":{"cat":[1,2,0.5,9],"the":[3,4],"Dog":[5,6]}}`), &out, 0)
	require.NoError(t, err)
	require.Equal(t, 2, n, "upper case dropped, a repeated word written once")
}

func TestWordVecPackage_MatchesMakefile(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	require.NoError(t, err)
	name, version, _ := strings.Cut(WordVecPackage, "@")
	require.Contains(t, string(mk), "WORDVEC_PKG := "+name+"\n")
	require.Contains(t, string(mk), "WORDVEC_VERSION := "+version+"\n")
}

func BenchmarkWordVec(b *testing.B) {
	dir := os.Getenv("ZAXY_MODEL_DIR")
	if dir == "" {
		dir = "/var/cache/zaxy/models"
	}
	e, err := NewWordVec(filepath.Join(dir, WordVecPackage, "wordvec.bin"))
	if err != nil {
		b.Skip(err)
	}
	text := []string{strings.Repeat("My phone's battery life is terrible; I need a portable charger for the trip. ", 3)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Embed(context.Background(), text); err != nil {
			b.Fatal(err)
		}
	}
}
