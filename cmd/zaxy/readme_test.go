package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestREADME_CLIWalkthroughWorksAgainstTheServer runs README's CLI walkthrough as a user
// would, with bash, against zaxy serve with tokens required: `make -s db` is a shell function
// printing the test database's URL as make db does, bin/zaxy is this package built, and the
// server's address replaces 127.0.0.1:8080. Every line must succeed and the facts must read as
// the README's comments say.
func TestREADME_CLIWalkthroughWorksAgainstTheServer(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	const marker = "<!-- TestREADME_CLIWalkthroughWorksAgainstTheServer runs the next block -->\n```sh\n"
	_, rest, ok := strings.Cut(string(b), marker)
	require.True(t, ok, "README.md lost the walkthrough's marker")
	block, _, ok := strings.Cut(rest, "\n```\n")
	require.True(t, ok)
	require.Contains(t, block, "http://127.0.0.1:8080")

	srv := startLiveServer(t)
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "bin"), 0o755))
	require.NoError(t, os.Rename(buildZaxy(t), filepath.Join(dir, "bin", "zaxy")))
	script := "set -eu\nmake() { echo \"export ZAXY_ADMIN_DATABASE_URL='unused'\"; echo \"export ZAXY_DATABASE_URL='$TEST_DATABASE_URL'\"; }\n" +
		strings.ReplaceAll(block, "http://127.0.0.1:8080", srv.url) + "\n"
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TEST_DATABASE_URL=" + srv.db.AppURL}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	text := string(out)
	require.Contains(t, text, "appended 2, already present 0, seq 2-3")
	require.Contains(t, text, "Alice works at Globex  [v2")
	require.Contains(t, text, "Alice works at Acme  [v1")
	require.Contains(t, text, "ok: space demo, 4 events") // the checkout recorded what it surfaced
	require.Contains(t, text, `"content":"hello"`)
}
