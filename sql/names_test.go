package sql_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	zsql "github.com/zaxy/zaxy/sql"
)

// queryName finds hand-written query names given as literals to sql.Query.
var queryName = regexp.MustCompile(`\bz?sql\.Query(?:Ident)?\("([^"]+)"`)

// TestQuery_EveryNamedQueryExists reads every Go file of the module and resolves each literal
// query name, so that a misspelt or moved query fails here rather than as a panic when its
// code path first runs.
func TestQuery_EveryNamedQueryExists(t *testing.T) {
	found := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range queryName.FindAllStringSubmatch(string(src), -1) {
			found++
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s: %v", path, r)
					}
				}()
				zsql.Query(m[1])
			}()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("found no sql.Query calls: the pattern no longer matches the code")
	}
}
