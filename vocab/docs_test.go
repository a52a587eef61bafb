package vocab_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/vocab"
)

// jsonBlock finds the fenced JSON examples of a Markdown page.
var jsonBlock = regexp.MustCompile("(?s)```json\n(.*?)```")

// TestDocs_ExamplesAreValid keeps docs/events.md honest: every request body on the page is
// accepted exactly as the append API would decode and validate it, and every documented type
// has an example.
func TestDocs_ExamplesAreValid(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("../docs/events.md")
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, m := range jsonBlock.FindAllStringSubmatch(string(page), -1) {
		body := m[1]
		if !strings.Contains(body, `"events"`) {
			continue // the error example
		}
		events, err := eventloom.DecodeAppendBody([]byte(body))
		require.NoError(t, err, body)
		require.NoError(t, eventloom.ValidateBatch(events), body)
		for _, e := range events {
			require.True(t, vocab.Known(e.Type), e.Type)
			seen[e.Type] = true
		}
	}
	for typ := range decoders {
		require.True(t, seen[typ], "docs/events.md has no example of %s", typ)
	}
}
