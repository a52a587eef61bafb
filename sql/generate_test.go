package sql_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestGeneratedCodeIsFresh fails when a query under sql/ or a migration changed without
// `make generate`: sqlc (pinned in go.mod as a tool) compares what it would generate with the
// committed <package>/internal/dbsqlc files and reports every difference.
func TestGeneratedCodeIsFresh(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goBin, "tool", "sqlc", "diff")
	cmd.Dir = ".." // sqlc.yaml is at the module root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("generated code is stale or sqlc failed (run `make generate` and commit): %v\n%s", err, out)
	}
}
