package release

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// repoRoot returns the repository's root: the nearest directory above the test with a go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test")
		dir = parent
	}
}

// dockerfiles lists every Dockerfile in the repository (Dockerfile, Dockerfile.*, *.Dockerfile),
// relative to its root.
func dockerfiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == ".git" || name == "node_modules" || (name == "testdata" && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if name == "Dockerfile" || strings.HasPrefix(name, "Dockerfile.") || strings.HasSuffix(name, ".Dockerfile") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// checkSyntax parses script with the shell it runs under, without running it: dash -n for
// /bin/sh (Debian's /bin/sh, the base of every image here, is dash), bash -n for bash.
func checkSyntax(ctx context.Context, script string, shell []string) (string, error) {
	var checker string
	switch filepath.Base(shell[0]) {
	case "sh", "dash":
		checker = "dash"
	case "bash":
		checker = "bash"
	default:
		return "", &exec.Error{Name: shell[0], Err: exec.ErrNotFound}
	}
	cmd := exec.CommandContext(ctx, checker, "-n")
	cmd.Stdin = strings.NewReader(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return strings.TrimSpace(stderr.String()), err
}

// shellErrors checks every shell-form RUN of a Dockerfile and returns one message per RUN its
// shell cannot parse.
func shellErrors(t *testing.T, name string, src []byte) []string {
	t.Helper()
	instrs, err := ParseDockerfile(src)
	require.NoError(t, err, name)
	var errs []string
	for _, in := range instrs {
		script, shell, ok := in.ShellScript()
		if !ok {
			continue
		}
		msg, err := checkSyntax(t.Context(), script, shell)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s:%d: RUN does not parse under %s: %s (%v)", name, in.Line, strings.Join(shell, " "), msg, err))
		}
	}
	return errs
}

func requireDash(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dash"); err != nil {
		t.Fatalf("dash is needed to check the Dockerfiles' RUN lines (apt-get install dash): %v", err)
	}
}

// Every RUN of every Dockerfile in the repository parses under the shell it runs in: images are
// not built here (no container runtime), so this is where a bash-only construct under /bin/sh
// is caught.
func TestDockerfiles_RunLinesParseUnderTheirShell(t *testing.T) {
	requireDash(t)
	root := repoRoot(t)
	files := dockerfiles(t, root)
	require.Contains(t, files, "Dockerfile")
	require.Contains(t, files, filepath.Join("testcontainers", "Dockerfile"))
	require.Contains(t, files, filepath.Join("deploy", "postgres", "Dockerfile"))
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		require.NoError(t, err)
		instrs, err := ParseDockerfile(src)
		require.NoError(t, err)
		runs := 0
		for _, in := range instrs {
			if _, _, ok := in.ShellScript(); ok {
				runs++
			}
		}
		require.Positive(t, runs, "%s has no shell-form RUN: the parser missed them", f)
		require.Empty(t, shellErrors(t, f, src))
	}
}

// The check catches bash's process substitution under /bin/sh, the construct the database
// image's initdb line once used, and passes the same line under a bash SHELL.
func TestShellErrors_ProcessSubstitutionUnderSh(t *testing.T) {
	requireDash(t)
	bad := "FROM debian:trixie-slim\nUSER postgres\n" +
		"RUN initdb -U postgres \\\n      --pwfile=<(echo postgres) 2>/dev/null || true \\\n && echo done\n"
	errs := shellErrors(t, "bad", []byte(bad))
	require.Len(t, errs, 1)
	require.Contains(t, errs[0], "bad:3:")
	require.Contains(t, errs[0], "Syntax error")

	good := "FROM debian:trixie-slim\nSHELL [\"/bin/bash\", \"-c\"]\n" +
		"RUN initdb -U postgres --pwfile=<(echo postgres)\n"
	require.Empty(t, shellErrors(t, "bash", []byte(good)))
}

func TestParseDockerfile(t *testing.T) {
	src := strings.Join([]string{
		"# syntax=docker/dockerfile:1",
		"ARG V=1",
		"FROM golang:1.26 AS build",
		"RUN --mount=type=cache,target=/go/pkg/mod \\",
		"    # a comment inside the continuation",
		"",
		"    go build \\",
		"    ./cmd/zaxy",
		"RUN [\"/bin/true\"]",
		"RUN <<EOF",
		"set -e",
		"echo one",
		"EOF",
		"RUN cat <<-'END' >/etc/x && echo two",
		"\tline",
		"\tEND",
		"FROM debian:trixie-slim",
		"SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]",
		"RUN <<EOF",
		"#!/bin/sh",
		"echo three",
		"EOF",
		"USER 10001:10001",
	}, "\n")
	instrs, err := ParseDockerfile([]byte(src))
	require.NoError(t, err)
	var cmds []string
	for _, in := range instrs {
		cmds = append(cmds, in.Cmd)
	}
	require.Equal(t, []string{"ARG", "FROM", "RUN", "RUN", "RUN", "RUN", "FROM", "SHELL", "RUN", "USER"}, cmds)

	build := instrs[2]
	require.Equal(t, 4, build.Line)
	require.Equal(t, 0, build.Stage)
	script, shell, ok := build.ShellScript()
	require.True(t, ok)
	require.Equal(t, []string{"/bin/sh", "-c"}, shell)
	require.Equal(t, "go build     ./cmd/zaxy\n", script)

	_, _, ok = instrs[3].ShellScript()
	require.False(t, ok, "exec form runs no shell")

	script, _, ok = instrs[4].ShellScript()
	require.True(t, ok)
	require.Equal(t, "set -e\necho one\n", script)

	script, _, ok = instrs[5].ShellScript()
	require.True(t, ok)
	require.Equal(t, "cat <<-'END' >/etc/x && echo two\n\tline\n\tEND\n", script)

	script, shell, ok = instrs[8].ShellScript()
	require.True(t, ok)
	require.Equal(t, 1, instrs[8].Stage)
	require.Equal(t, []string{"/bin/sh"}, shell, "a here-document's #! line picks its interpreter")
	require.Equal(t, "#!/bin/sh\necho three\n", script)
	require.Equal(t, []string{"/bin/bash", "-o", "pipefail", "-c"}, instrs[8].Shell)

	require.Equal(t, "10001:10001", instrs[9].Args)

	_, err = ParseDockerfile([]byte("FROM x\nRUN <<EOF\necho\n"))
	require.ErrorContains(t, err, "no terminator")
}
