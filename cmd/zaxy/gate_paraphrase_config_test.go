package main

import (
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/embedding"
)

// ZAXY_GATE_PARAPHRASE is off by default, names the gate's paraphrase embedder otherwise, and
// without the word vectors it is an error, never a silent fallback.
func TestProjectionConfig_GateParaphrase(t *testing.T) {
	t.Parallel()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	models := fixtureModelDir(t)
	empty := t.TempDir()
	for _, c := range []struct {
		env   map[string]string
		model string // "" when off
		fail  string
	}{
		{env: map[string]string{}},
		{env: map[string]string{"ZAXY_GATE_PARAPHRASE": "offline"}, model: embedding.OfflineModel},
		{env: map[string]string{"ZAXY_GATE_PARAPHRASE": "wordvec", "ZAXY_MODEL_DIR": models}, model: embedding.WordVecModel},
		{env: map[string]string{"ZAXY_GATE_PARAPHRASE": "wordvec", "ZAXY_MODEL_DIR": empty}, fail: "make models"},
	} {
		cfg, err := readConfig(func(k string) string { return c.env[k] })
		require.NoError(t, err)
		p, err := cfg.memory.projection(logger)
		if c.fail != "" {
			require.ErrorContains(t, err, c.fail, c.env)
			continue
		}
		require.NoError(t, err, c.env)
		if c.model == "" {
			require.Nil(t, p.GateParaphrase, c.env)
			continue
		}
		require.Equal(t, c.model, p.GateParaphrase.Model(), c.env)
	}
	_, err := readConfig(func(k string) string { return map[string]string{"ZAXY_GATE_PARAPHRASE": "use"}[k] })
	require.ErrorContains(t, err, "ZAXY_GATE_PARAPHRASE must be off, wordvec or offline")
}
