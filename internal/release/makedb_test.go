package release

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// makeEnv is the test's environment without the variables a parent make passes down, so the
// child make behaves as when a user types it.
func makeEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "MAKELEVEL" || k == "MAKEFLAGS" || k == "MFLAGS" || strings.HasPrefix(k, "ZAXY_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// `eval "$(make -s db)"` exports the URLs make db prints, whatever their characters, and make db
// writes nothing else to stdout. With ZAXY_DATABASE_URL set, make db uses that database as is
// (nothing is built or started), which is what lets this run anywhere.
func TestMakeDB_OutputIsEvalable(t *testing.T) {
	for _, tool := range []string{"make", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	root := repoRoot(t)
	app := "postgres://zaxy:it's a $secret@127.0.0.1:5/zaxy?sslmode=disable&x=`id`"
	admin := "postgres://postgres:p\"w@127.0.0.1:5/zaxy?sslmode=disable"

	out, err := runIn(root, makeEnv("ZAXY_DATABASE_URL="+app, "ZAXY_ADMIN_DATABASE_URL="+admin), "make", "-s", "db")
	require.NoError(t, err, out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 2, "make -s db prints exactly two lines: %q", out)
	require.True(t, strings.HasPrefix(lines[0], "export ZAXY_ADMIN_DATABASE_URL="), lines[0])
	require.True(t, strings.HasPrefix(lines[1], "export ZAXY_DATABASE_URL="), lines[1])

	// A child of the shell sees both, exported and unchanged.
	// The outer shell has neither variable: only what eval exports reaches the child.
	script := `eval "$(ZAXY_DATABASE_URL="$APP" ZAXY_ADMIN_DATABASE_URL="$ADMIN" make -s db)" && ` +
		`bash -c 'printf "%s\n%s\n" "$ZAXY_ADMIN_DATABASE_URL" "$ZAXY_DATABASE_URL"'`
	out, err = runIn(root, makeEnv("APP="+app, "ADMIN="+admin), "bash", "-c", script)
	require.NoError(t, err, out)
	require.Equal(t, admin+"\n"+app+"\n", out)
}

// runIn runs a command in dir and returns its stdout (its stderr with the error).
func runIn(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out) + stderr.String(), err
	}
	return string(out), nil
}
