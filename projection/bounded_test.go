package projection_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/projection"
)

// indexedChars is how many characters of an item's text zaxy_tsv indexes (migration 000051).
const indexedChars = 65536

// The reproduction of issue 30: a note of "ghp_" × 225,000 (900 KB) held zaxy_tsv for minutes,
// because the text search parser read the rest of the run as a host from every "ghp", and
// lines of "hf_" × 341 took 13 s per event. Now an item is indexed on its first 65,536
// characters, parsed in chunks of at most 256, and an event's mentions are bounded: both events
// project (the deadline is only there so the old code fails instead of hanging), their tails
// are not indexed, the statistics are the items', the events after them project, and a
// rebuild gives the same projections.
func TestProject_AdversarialTextsProjectOnABoundedPrefix(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	const space = "flood"
	ghp := strings.Repeat("ghp_", 225000) + " floodtail"
	hf := strings.Repeat(strings.Repeat("hf_", 341)+"\n", 1000) + "linetail"
	var handles strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&handles, "@user%d ", i)
	}
	f.Append(t, space, ev("note", ghp, nil), ev("note", hf, nil),
		ev("message", handles.String(), map[string]any{"role": "user"}),
		ev("message", "the deploy after the flood is green", map[string]any{"role": "user"}))

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := f.Proj.ProjectSpace(ctx, space)
	require.NoError(t, err, "the adversarial events project")
	require.Equal(t, int64(4), res.ProjectedSeq)

	for _, c := range []struct {
		seq        int64
		head, tail string
		text       string
	}{{1, "ghp", "floodtail", ghp}, {2, "hf", "linetail", hf}} {
		var text string
		var head, tail, prefix bool
		require.NoError(t, f.DB.QueryRow(ctx, `SELECT coalesce(i.text, e.content), i.tsv @@ $2::tsquery, i.tsv @@ $3::tsquery,
			i.tsv = zaxy_path_tsv(i.ts_config, left(coalesce(i.text, e.content), $4))
			FROM memory_items i JOIN events e ON e.space_id = $1 AND e.seq = i.seq WHERE i.space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND i.seq = $5`, space, c.head, c.tail, indexedChars, c.seq).
			Scan(&text, &head, &tail, &prefix))
		require.Equal(t, c.text, text, "the item keeps its whole text")
		require.True(t, head, "seq %d: its beginning is indexed", c.seq)
		require.False(t, tail, "seq %d: what lies past the first %d characters is not", c.seq, indexedChars)
		require.True(t, prefix, "seq %d: the tsv is the bounded prefix's", c.seq)
	}
	var mentions int
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT count(*) FROM mentions WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND seq = 3`, space).Scan(&mentions))
	require.Equal(t, projection.MaxEventMentions, mentions, "an event's mentions are bounded")
	var green bool
	require.NoError(t, f.DB.QueryRow(ctx, `SELECT tsv @@ 'green'::tsquery FROM memory_items WHERE space_key = (SELECT space_key FROM spaces WHERE space_id = $1) AND seq = 4`, space).Scan(&green))
	require.True(t, green, "the projection went on")
	require.Equal(t, derivedTermStats(t, f, space), storedTermStats(t, f, space))

	incremental, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	_, err = f.Proj.Rebuild(ctx, space)
	require.NoError(t, err)
	rebuilt, err := f.Proj.Checksum(ctx, space)
	require.NoError(t, err)
	require.Equal(t, incremental, rebuilt, "a rebuild bounds the same work the same way")
}

// A text parsed in chunks has the lexemes it had parsed whole: words, paths, dotted names and
// identifiers shorter than 128 characters are never cut, whatever the text's length.
func TestZaxyTSV_ChunksKeepTheLexemesOfAWholeParse(t *testing.T) {
	f := newFixtureTx(t, projection.Config{})
	ctx := context.Background()
	line := "The deploy of cmd/deploy/push.go failed in parseConfig; see os.Getenv and https://example.com/runbook, e-mail ops@example.com. "
	for _, n := range []int{1, 2, 3, 7, 40, 200} {
		text := strings.Repeat(line, n)
		var same bool
		require.NoError(t, f.DB.QueryRow(ctx, `SELECT
			ARRAY(SELECT lexeme FROM unnest(zaxy_tsv('english', $1)) ORDER BY 1) =
			ARRAY(SELECT lexeme FROM unnest(zaxy_chunk_tsv('english', $1)) ORDER BY 1)`, text).Scan(&same))
		require.True(t, same, "%d lines", n)
	}
}
