package release

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/vocab"
)

// numberWords spells the counts the docs write out in words.
var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
	"nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen"}

func spell(t *testing.T, n int) string {
	t.Helper()
	require.Less(t, n, len(numberWords), "spell %d", n)
	return numberWords[n]
}

// readDoc returns a page of docs/ with every run of white space made one space, so a check does
// not depend on where a line wraps.
// requireMentions fails when page (docs/name) does not contain want, without printing the page.
func requireMentions(t *testing.T, page, name, want string) {
	t.Helper()
	if !strings.Contains(page, want) {
		t.Fatalf("docs/%s does not say %q", name, want)
	}
}

func readDoc(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", name))
	require.NoError(t, err)
	return strings.Join(strings.Fields(string(b)), " ")
}

// The repository's docs and code cite only what the repository holds: no DESIGN.md outside it
// (docs/design.md holds the rules and formats they need).
func TestDocs_CiteNoDesignFileOutsideTheRepository(t *testing.T) {
	root := repoRoot(t)
	_, err := os.Stat(filepath.Join(root, "docs", "design.md"))
	require.NoError(t, err)
	var citing []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		// This file names what it looks for.
		if strings.Contains(string(b), "DESIGN.md") && rel != filepath.Join("internal", "release", "docs_test.go") {
			citing = append(citing, rel)
		}
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, citing, "cite docs/design.md instead")
}

// docs/architecture.md's table of background jobs has a row for every River job kind in jobs/,
// and counts them and the checkout lanes as the code has them.
func TestDocs_ArchitectureListsEveryJobAndLane(t *testing.T) {
	root := repoRoot(t)
	page := readDoc(t, root, "architecture.md")

	kindRe := regexp.MustCompile(`\) Kind\(\) string \{ return "([a-z_]+)" \}`)
	files, err := filepath.Glob(filepath.Join(root, "jobs", "*.go"))
	require.NoError(t, err)
	var kinds []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range kindRe.FindAllStringSubmatch(string(b), -1) {
			kinds = append(kinds, m[1])
		}
	}
	require.Contains(t, kinds, "project_space", "the job kinds were not found")
	for _, k := range kinds {
		requireMentions(t, page, "architecture.md", "| `"+k+"` |")
	}
	requireMentions(t, page, "architecture.md", spell(t, len(kinds))+" kinds")

	lanes, err := filepath.Glob(filepath.Join(root, "checkout", "lane_*.go"))
	require.NoError(t, err)
	lanes = slices.DeleteFunc(lanes, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
	requireMentions(t, page, "architecture.md", "The "+spell(t, len(lanes))+" lanes")
	for _, f := range lanes {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "lane_"), ".go")
		requireMentions(t, page, "architecture.md", "*"+name+"*")
	}
}

// docs/checkout.md counts the built-in retrieval policies and names the default as vocab does,
// and docs/benchmarks.md calls no other version the default now.
func TestDocs_BuiltinPolicies(t *testing.T) {
	root := repoRoot(t)
	page := readDoc(t, root, "checkout.md")
	n := len(vocab.BuiltinPolicyVersions)
	requireMentions(t, page, "checkout.md", "There are "+spell(t, n)+" built-in versions, `"+vocab.FirstBuiltinPolicyVersion+"` to `"+vocab.DefaultBuiltinPolicyVersion+"`")
	requireMentions(t, page, "checkout.md", "the default is `"+vocab.DefaultBuiltinPolicyVersion+"`")

	bench := readDoc(t, root, "benchmarks.md")
	stale := regexp.MustCompile("`(builtin-[0-9]+)` stays the default")
	for _, m := range stale.FindAllStringSubmatch(bench, -1) {
		require.Equal(t, vocab.DefaultBuiltinPolicyVersion, m[1], "docs/benchmarks.md: %s", m[0])
	}
}
