package mcp

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docs/mcp.md counts the tools as the code defines them: those with an HTTP operation, and all
// of them with memory_capabilities.
func TestDocs_MCPCountsTheTools(t *testing.T) {
	page, err := os.ReadFile("../docs/mcp.md")
	require.NoError(t, err)
	withOperation := 0
	for _, tl := range tools {
		if tl.http() != "" {
			withOperation++
		}
	}
	want := fmt.Sprintf("%d tools with an HTTP operation, %d with `memory_capabilities`", withOperation, len(tools))
	if !strings.Contains(string(page), want) {
		t.Fatalf("docs/mcp.md does not say %q", want)
	}
}
