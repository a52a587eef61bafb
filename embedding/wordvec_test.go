package embedding

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
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
	require.Equal(t, "a116306cc9894e357a129cfd944e5b607f9a379f6994d4440d8246c4498fd1af", vectorsDigest(vs),
		"the vectors changed: bump WordVecModel's version (and update this digest) if that is intended")
	// A few values pinned too, so a failure shows how far they moved.
	require.Equal(t, []float32{0.07492078, 0.07006837, -0.020634644}, []float32{vs[0][0], vs[1][1], vs[2][2]})
}

func TestWordVec_GoldenBytesInstalled(t *testing.T) {
	e, err := NewWordVec(installedWordVectors(t))
	require.NoError(t, err)
	vs, err := e.Embed(context.Background(), goldenSentences)
	require.NoError(t, err)
	require.Equal(t, "3248a59f8de0d40c7cd20c71ceeec43e20d312d2fe1d0c63f7e8c9363462872b", vectorsDigest(vs),
		"the vectors changed: bump WordVecModel's version (and update this digest) if that is intended")
	require.Equal(t, []float32{0.10673974, 0.056606967, 0.035958633}, []float32{vs[0][0], vs[1][1], vs[2][2]})
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

// oneHotWordVectors writes a vocabulary of fillers frequent filler words, all with the last
// unit vector, followed (less frequent) by words, the i-th with the i-th unit vector, and
// returns its path.
func oneHotWordVectors(t *testing.T, fillers int, words []string) string {
	t.Helper()
	var all []string
	var rows [][]float32
	for i := 0; i < fillers; i++ {
		all = append(all, fmt.Sprintf("filler%d", i))
		rows = append(rows, make([]float32, WordVecWordDimensions))
		rows[i][WordVecWordDimensions-1] = 1
	}
	for i, w := range words {
		all = append(all, w)
		row := make([]float32, WordVecWordDimensions)
		row[i] = 1
		rows = append(rows, row)
	}
	var buf bytes.Buffer
	require.NoError(t, writeWordVectors(&buf, WordVecWordDimensions, all, rows))
	path := filepath.Join(t.TempDir(), "onehot.bin")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

// semantic returns the semantic parts of texts, normalized (nil for a text without one).
func semantic(t *testing.T, e *WordVec, texts ...string) [][]float32 {
	t.Helper()
	vs, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	out := make([][]float32, len(vs))
	for i, v := range vs {
		sem := v[:WordVecWordDimensions]
		if n := math.Sqrt(dot(sem, sem)); n > 0 {
			out[i] = make([]float32, len(sem))
			for j, x := range sem {
				out[i][j] = float32(float64(x) / n)
			}
		}
	}
	return out
}

// The semantic part reads a contraction as the hashing part does: "I've" is the stopword
// "ive", not "i" and "ve". The vocabulary holds "ve", "don" and "ll" (as the real one does, at
// ranks where they would weigh almost fully), so reading them would give these texts a
// semantic part.
func TestWordVec_ContractionsAreOneWord(t *testing.T) {
	e, err := NewWordVec(oneHotWordVectors(t, 100, []string{"battery", "phone", "ve", "don", "ll", "users"}))
	require.NoError(t, err)
	for _, text := range []string{"I've", "I’ve", "don't", "I'll", "I've been, I don't"} {
		require.Nil(t, semantic(t, e, text)[0], "only stopwords once the apostrophe is dropped: %q", text)
	}
	vs := semantic(t, e, "I've got a phone", "phone", "the users' battery", "users battery")
	require.InDelta(t, 1, dot(vs[0], vs[1]), 1e-6, "\"I've\" adds nothing to the phone")
	require.InDelta(t, 1, dot(vs[2], vs[3]), 1e-6, "a trailing apostrophe ends the word")
}

// A common word (isCommon on its stem) weighs wordVecCommonWeight in the semantic part, as in
// the hashing part: "battery tips" stays about the battery, while "battery charger", whose
// second word is a content word of about the same frequency, moves toward chargers.
func TestWordVec_CommonWordsWeighLess(t *testing.T) {
	// "tips" is rarer than "charger", so by frequency alone it would weigh more.
	e, err := NewWordVec(oneHotWordVectors(t, 200, []string{"battery", "charger", "tips"}))
	require.NoError(t, err)
	vs := semantic(t, e, "battery", "battery tips", "battery charger", "any tips lately")
	tips, charger := dot(vs[0], vs[1]), dot(vs[0], vs[2])
	t.Logf("battery ~ battery tips %.3f, ~ battery charger %.3f", tips, charger)
	require.Greater(t, tips, charger+0.05)
	require.NotNil(t, vs[3], "a text of common words still has a semantic part")
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
