package ingest_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/ingest"
)

// requireCovers checks the invariants every chunking must keep.
func requireCovers(t testing.TB, text string, chunks []ingest.TextChunk, maxBytes int) {
	t.Helper()
	if maxBytes < utf8.UTFMax {
		maxBytes = utf8.UTFMax
	}
	var b strings.Builder
	pos := 0
	for i, c := range chunks {
		require.Equal(t, i, c.Index)
		require.Equal(t, pos, c.Start, "chunk %d does not start where the previous ended", i)
		require.Greater(t, c.End, c.Start, "chunk %d is empty", i)
		require.LessOrEqual(t, c.End-c.Start, maxBytes, "chunk %d is too long", i)
		require.Equal(t, text[c.Start:c.End], c.Text)
		if utf8.ValidString(text) {
			require.True(t, utf8.ValidString(c.Text), "chunk %d splits a rune", i)
		}
		b.WriteString(c.Text)
		pos = c.End
	}
	require.Equal(t, len(text), pos)
	require.Equal(t, text, b.String())
}

func texts(chunks []ingest.TextChunk) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = c.Text
	}
	return out
}

func TestChunk_Boundaries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		text     string
		opts     ingest.ChunkOptions
		expected []string
	}{
		{"empty text has no chunks", "", ingest.ChunkOptions{}, nil},
		{"short text is one chunk", "hello world", ingest.ChunkOptions{}, []string{"hello world"}},
		{"markdown splits before the last heading that fits",
			"# A\n\nalpha alpha.\n\n## B\n\nbeta beta beta.\n\n## C\n\ngamma gamma gamma gamma.\n",
			ingest.ChunkOptions{MaxBytes: 45, Markdown: true},
			[]string{"# A\n\nalpha alpha.\n\n## B\n\nbeta beta beta.\n\n", "## C\n\ngamma gamma gamma gamma.\n"}},
		{"heading stays with its section rather than ending a chunk",
			"intro text here.\n\n## Section\nbody of the section.\n",
			ingest.ChunkOptions{MaxBytes: 45, Markdown: true},
			[]string{"intro text here.\n\n", "## Section\nbody of the section.\n"}},
		{"heading in a fenced code block is not a heading",
			"para one is here.\n\n```sh\n# comment\necho hi\n```\nmore text after it.",
			ingest.ChunkOptions{MaxBytes: 45, Markdown: true},
			[]string{"para one is here.\n\n", "```sh\n# comment\necho hi\n```\nmore text after ", "it."}},
		{"setext heading",
			"some words here.\nTitle\n=====\nsection body.",
			ingest.ChunkOptions{MaxBytes: 30, Markdown: true},
			[]string{"some words here.\n", "Title\n=====\nsection body."}},
		{"plain text ignores headings and prefers blank lines",
			"# not a heading here\nline two.\n\nsecond paragraph.",
			ingest.ChunkOptions{MaxBytes: 40},
			[]string{"# not a heading here\nline two.\n\n", "second paragraph."}},
		{"sentence end before whitespace",
			"First sentence. Second sentence is long",
			ingest.ChunkOptions{MaxBytes: 30},
			[]string{"First sentence. ", "Second sentence is long"}},
		{"sentence end after a closing quote",
			`He said "stop." Then he left the room`,
			ingest.ChunkOptions{MaxBytes: 30},
			[]string{`He said "stop." `, "Then he left the room"}},
		{"CJK full stop",
			"これは文です。これも文です。",
			ingest.ChunkOptions{MaxBytes: 24},
			[]string{"これは文です。", "これも文です。"}},
		{"whitespace when there is no sentence end",
			"alpha beta gamma delta epsilon",
			ingest.ChunkOptions{MaxBytes: 12},
			[]string{"alpha beta ", "gamma delta ", "epsilon"}},
		{"hard cut never splits a rune",
			strings.Repeat("é", 5),
			ingest.ChunkOptions{MaxBytes: 5},
			[]string{"éé", "éé", "é"}},
		{"a tiny max still holds a 4-byte rune",
			"😀😀",
			ingest.ChunkOptions{MaxBytes: 1},
			[]string{"😀", "😀"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ingest.Chunk(tc.text, tc.opts)
			limit := tc.opts.MaxBytes
			if limit == 0 {
				limit = ingest.DefaultMaxChunkBytes
			}
			requireCovers(t, tc.text, got, limit)
			if tc.expected == nil {
				require.Empty(t, got)
				return
			}
			require.Equal(t, tc.expected, texts(got))
		})
	}
}

func TestChunk_DefaultSizeIs2000Bytes(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("word ", 1000) // 5000 bytes
	chunks := ingest.Chunk(text, ingest.ChunkOptions{})
	requireCovers(t, text, chunks, 2000)
	require.Len(t, chunks, 3)
	require.Equal(t, 2000, chunks[0].End)
}

// randomDoc builds markdown-ish text from pieces that exercise every boundary kind,
// multi-byte runes and invalid bytes.
func randomDoc(r *rand.Rand, n int) string {
	pieces := []string{"# Heading\n", "## Sub\n", "Title\n===\n", "```\n# code\n```\n", "\n\n", "\n", " ", "\t",
		"word", "sentence.", "Why?", "Yes!", "\"quoted.\" ", "é", "日本語。", "😀", "\r\n", "-", "====\n", "~~~\n",
		"long" + strings.Repeat("x", 50)}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func TestChunk_RandomDocumentsAreCoveredExactly(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		text := randomDoc(r, r.IntN(3000))
		opts := ingest.ChunkOptions{MaxBytes: 1 + r.IntN(300), Markdown: r.IntN(2) == 0}
		requireCovers(t, text, ingest.Chunk(text, opts), opts.MaxBytes)
	}
	// Arbitrary bytes, valid UTF-8 or not.
	for i := 0; i < 500; i++ {
		buf := make([]byte, r.IntN(2000))
		for j := range buf {
			buf[j] = byte(r.IntN(256))
		}
		opts := ingest.ChunkOptions{MaxBytes: 1 + r.IntN(100), Markdown: r.IntN(2) == 0}
		requireCovers(t, string(buf), ingest.Chunk(string(buf), opts), opts.MaxBytes)
	}
}

func FuzzChunk(f *testing.F) {
	f.Add("# A\n\ntext. More text!\n\n## B\nbody", 16, true)
	f.Add("日本語の文です。次の文。", 7, false)
	f.Add("```\n# x\n```\n\n\n  \n", 5, true)
	f.Add("\xff\xfe\x80abc def", 4, false)
	f.Fuzz(func(t *testing.T, text string, maxBytes int, markdown bool) {
		if maxBytes < 0 || maxBytes > 1<<16 {
			return
		}
		opts := ingest.ChunkOptions{MaxBytes: maxBytes, Markdown: markdown}
		want := maxBytes
		if want == 0 {
			want = ingest.DefaultMaxChunkBytes
		}
		requireCovers(t, text, ingest.Chunk(text, opts), want)
	})
}
