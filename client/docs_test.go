package client_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExample_RunsAgainstARealServer runs the example of docs/client.md against a real server.
func TestExample_RunsAgainstARealServer(t *testing.T) {
	srv := newServer(t)
	var out bytes.Buffer
	require.NoError(t, remember(context.Background(), &out, srv.url, srv.token))
	require.Contains(t, out.String(), "appended seq 1\n")
	require.Contains(t, out.String(), "blue cluster")
}

// TestExample_IsTheOneInTheDocs fails when docs/client.md no longer shows example_test.go as
// it is.
func TestExample_IsTheOneInTheDocs(t *testing.T) {
	example, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	doc, err := os.ReadFile(filepath.Join("..", "docs", "client.md"))
	require.NoError(t, err)
	require.True(t, strings.Contains(string(doc), "```go\n"+string(example)+"```\n"),
		"docs/client.md must show client/example_test.go verbatim in a ```go block")
}

// TestDocs_ListsEveryMethod fails when docs/client.md's table misses an operation or method.
func TestDocs_ListsEveryMethod(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "client.md"))
	require.NoError(t, err)
	for id, method := range operations {
		require.Contains(t, string(doc), "| `"+id+"` | `"+method+"` |", "docs/client.md's methods table")
	}
}
