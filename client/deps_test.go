package client_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// clientDatabaseImports are the packages the client still imports for their request and answer
// types although they (or what they import) hold database code. Each one's wire types move to
// a leaf and it leaves this list; once the list is empty the client builds without pgx.
var clientDatabaseImports = []string{
	"github.com/zaxy/zaxy/checkout",
	"github.com/zaxy/zaxy/policy",
}

// TestClient_ImportsNoDatabaseCode lists the client's imports with go list and checks which
// of them pull in pgx: exactly the packages of clientDatabaseImports, and no pgx at all once
// that list is empty. A new import that brings database code into the client fails it, and so
// does a package that became a leaf but is still listed.
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
	slices.Sort(heavy)
	require.Equal(t, clientDatabaseImports, heavy, "the client's imports that bring in database code")
	if len(clientDatabaseImports) == 0 {
		require.False(t, pgx("github.com/zaxy/zaxy/client"), "the client depends on pgx")
	}
}

// directImports are the client's own imports (not its tests').
func directImports(t *testing.T) []string {
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \"\\n\"}}", ".").CombinedOutput()
	require.NoError(t, err, string(out))
	return strings.Fields(string(out))
}
