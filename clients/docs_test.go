package clients_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDocs_ShowTheExamples fails when docs/clients.md no longer shows the examples that the
// clients' suites run against a live server (TestClients) as they are.
func TestDocs_ShowTheExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "clients.md"))
	require.NoError(t, err)
	for lang, file := range map[string]string{
		"ts":     filepath.Join("typescript", "examples", "remember.ts"),
		"python": filepath.Join("python", "examples", "remember.py"),
	} {
		example, err := os.ReadFile(file)
		require.NoError(t, err)
		require.True(t, strings.Contains(string(doc), "```"+lang+"\n"+string(example)+"```\n"),
			"docs/clients.md must show clients/%s verbatim in a ```%s block", file, lang)
	}
}
