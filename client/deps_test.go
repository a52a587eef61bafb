package client_test

import (
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClient_ImportsNoDatabaseCode lists the client's dependencies with go list and fails when
// one of them is pgx, naming the client's imports that bring it in: the client imports only
// the wire leaves (<domain>/<domain>wire) and other leaves, never a package with database code.
func TestClient_ImportsNoDatabaseCode(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", ".").CombinedOutput()
	require.NoError(t, err, string(out))
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		deps[f[0]] = f[1:]
	}
	pgx := func(pkg string) bool {
		return slices.ContainsFunc(append([]string{pkg}, deps[pkg]...), func(d string) bool {
			return strings.HasPrefix(d, "github.com/jackc/pgx/")
		})
	}
	var heavy []string
	for _, d := range directImports(t) {
		if strings.HasPrefix(d, "github.com/zaxy/zaxy/") && pgx(d) {
			heavy = append(heavy, d)
		}
	}
	require.Empty(t, heavy, "the client's imports that bring in database code")
	require.False(t, pgx("github.com/zaxy/zaxy/client"), "the client depends on pgx")
}

// directImports are the client's own imports (not its tests').
func directImports(t *testing.T) []string {
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", ".").CombinedOutput()
	require.NoError(t, err, string(out))
	return strings.Fields(string(out))
}

// leaves are the packages of Zaxy besides the wire leaves that a wire leaf may depend on: they
// import nothing of Zaxy but each other.
var leaves = []string{
	"github.com/zaxy/zaxy/internal/strictjson",
	"github.com/zaxy/zaxy/memoryitem",
	"github.com/zaxy/zaxy/validation",
	"github.com/zaxy/zaxy/vocab",
}

// TestWireLeaves_DependOnlyOnLeaves fails when a wire leaf (<domain>/<domain>wire, the home of
// a domain's request and answer types) depends on a package of Zaxy other than another wire
// leaf or one of leaves, or on anything outside the standard library: the client imports
// them, so what they import every client program links.
func TestWireLeaves_DependOnlyOnLeaves(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", "github.com/zaxy/zaxy/...").CombinedOutput()
	require.NoError(t, err, string(out))
	var wires []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, _, _ := strings.Cut(line, " ")
		if isWireLeaf(pkg) {
			wires = append(wires, pkg)
		}
	}
	require.NotEmpty(t, wires)
	out, err = exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}"}, wires...)...).CombinedOutput()
	require.NoError(t, err, string(out))
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, std, _ := strings.Cut(line, " ")
		if std == "true" || isWireLeaf(pkg) || slices.Contains(leaves, pkg) {
			continue
		}
		t.Errorf("a wire leaf depends on %s", pkg)
	}
}

// isWireLeaf reports whether pkg is a wire leaf: github.com/zaxy/zaxy/.../<domain>/<domain>wire.
func isWireLeaf(pkg string) bool {
	rest, ok := strings.CutPrefix(pkg, "github.com/zaxy/zaxy/")
	dir, leaf := path.Split(rest)
	return ok && leaf == path.Base(dir)+"wire"
}
