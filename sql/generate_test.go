package sql_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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

// TestGeneratedCodeHasNoOrphans fails when a generated file outlives its query (sqlc
// generate writes files but never deletes one whose .sql was moved or removed).
func TestGeneratedCodeHasNoOrphans(t *testing.T) {
	files, err := filepath.Glob("../*/internal/dbsqlc/*.sql.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("found no generated files: the pattern no longer matches the layout")
	}
	for _, f := range files {
		pkg := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))
		src := filepath.Join(pkg, strings.TrimSuffix(filepath.Base(f), ".go"))
		if _, err := os.Stat(src); err != nil {
			t.Errorf("%s has no query sql/%s: delete it and run make generate", f, src)
		}
	}
}
