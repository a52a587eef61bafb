package ingest

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// DefaultMaxChunkBytes is the chunk size used when ChunkOptions.MaxBytes is zero.
const DefaultMaxChunkBytes = 2000

// ChunkOptions controls Chunk.
type ChunkOptions struct {
	// MaxBytes caps a chunk's length in bytes. Defaults to DefaultMaxChunkBytes (2000); values
	// below 4 (utf8.UTFMax) are raised to 4 so a chunk always holds at least one rune.
	MaxBytes int
	// Markdown prefers splitting before headings (ATX "# ..." and setext underlines, not
	// inside fenced code blocks) over the plain-text boundaries.
	Markdown bool
}

// TextChunk is one contiguous piece of a document. (The type is not named Chunk because the
// function that produces it is.)
type TextChunk struct {
	// Index is the chunk's position, counting from 0.
	Index int `json:"index"`
	// Start and End are byte offsets into the document; Text == doc[Start:End].
	Start int `json:"start"`
	End   int `json:"end"`
	// Text is the chunk's text.
	Text string `json:"text"`
}

// Chunk splits text into contiguous chunks of at most opts.MaxBytes bytes: concatenating the
// chunks' texts gives text back exactly, and no chunk is empty. Each cut is made at the
// best boundary inside the size limit: before a heading (markdown only), after a run of
// blank lines, after a sentence end, after whitespace, and only when none exists at a rune
// boundary (never inside a UTF-8 sequence of valid input). Lower-ranked boundaries are not
// used to cut off less than a quarter of the limit while a higher-ranked one further on
// exists, which keeps a heading together with the start of its section. An empty text has
// no chunks.
func Chunk(text string, opts ChunkOptions) []TextChunk {
	maxBytes := opts.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxChunkBytes
	}
	if maxBytes < utf8.UTFMax {
		maxBytes = utf8.UTFMax
	}
	c := chunker{text: text, max: maxBytes, paragraphs: paragraphStarts(text)}
	if opts.Markdown {
		c.headings = headingStarts(text)
	}
	var out []TextChunk
	for pos := 0; pos < len(text); {
		end := len(text)
		if end-pos > maxBytes {
			end = c.cut(pos)
		}
		out = append(out, TextChunk{Index: len(out), Start: pos, End: end, Text: text[pos:end]})
		pos = end
	}
	return out
}

type chunker struct {
	text       string
	max        int
	headings   []int // sorted offsets where a heading line starts
	paragraphs []int // sorted offsets where a line follows one or more blank lines
}

// cut returns the end of the chunk starting at pos, which is followed by more than max bytes.
func (c *chunker) cut(pos int) int {
	limit := pos + c.max
	if h := lastIn(c.headings, pos, limit); h > 0 {
		return h
	}
	for _, lo := range []int{pos + c.max/4, pos} {
		if p := lastIn(c.paragraphs, lo, limit); p > 0 {
			return p
		}
		if s := c.lastSentenceEnd(lo, limit); s > 0 {
			return s
		}
		if w := c.lastSpace(lo, limit); w > 0 {
			return w
		}
	}
	end := limit
	for end > pos && !utf8.RuneStart(c.text[end]) {
		end--
	}
	if end == pos { // invalid UTF-8: any cut is as good as another
		end = limit
	}
	return end
}

// lastIn returns the largest offset in sorted that lies in (lo, hi], or 0.
func lastIn(sorted []int, lo, hi int) int {
	i := sort.SearchInts(sorted, hi+1) - 1
	if i >= 0 && sorted[i] > lo {
		return sorted[i]
	}
	return 0
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// lastSpace returns the largest cut in (lo, hi] that follows whitespace and starts a word, or 0.
func (c *chunker) lastSpace(lo, hi int) int {
	for i := hi; i > lo; i-- {
		if isSpace(c.text[i-1]) && !isSpace(c.text[i]) {
			return i
		}
	}
	return 0
}

// cjkStops end a sentence without a following space.
var cjkStops = []string{"。", "！", "？"}

// lastSentenceEnd returns the largest cut in (lo, hi] that starts a new sentence: after
// [.!?] (and closing quotes or brackets) and the whitespace after them, or right after a CJK
// full stop, exclamation or question mark; 0 when there is none.
func (c *chunker) lastSentenceEnd(lo, hi int) int {
	t := c.text
	for i := hi; i > lo; i-- {
		for _, stop := range cjkStops {
			if strings.HasSuffix(t[:i], stop) {
				return i
			}
		}
		if !isSpace(t[i-1]) || isSpace(t[i]) {
			continue
		}
		j := i - 1
		for j > 0 && isSpace(t[j-1]) {
			j--
		}
		for j > 0 && strings.IndexByte(`"')]}*_`, t[j-1]) >= 0 {
			j--
		}
		if j > 0 && strings.IndexByte(".!?", t[j-1]) >= 0 {
			return i
		}
	}
	return 0
}

// lines calls fn for each line of text with its start offset and its text without the "\n".
func lines(text string, fn func(start int, line string)) {
	for start := 0; start < len(text); {
		n := strings.IndexByte(text[start:], '\n')
		if n < 0 {
			fn(start, text[start:])
			return
		}
		fn(start, text[start:start+n])
		start += n + 1
	}
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// paragraphStarts returns the offsets of non-blank lines that follow at least one blank line.
func paragraphStarts(text string) []int {
	var out []int
	prevBlank := false
	lines(text, func(start int, line string) {
		blank := isBlank(line)
		if !blank && prevBlank && start > 0 {
			out = append(out, start)
		}
		prevBlank = blank
	})
	return out
}

// headingStarts returns the offsets of markdown heading lines outside fenced code blocks: ATX
// headings ("# Title", up to 3 spaces of indent, 1-6 #s) and setext headings (a paragraph's
// single line underlined with = or -).
func headingStarts(text string) []int {
	var out []int
	fence := "" // the fence marker while inside a fenced code block
	prevStart, prevLine, prevPrevBlank := -1, "", true
	lastBlank := true
	lines(text, func(start int, line string) {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		if fence != "" {
			if indent <= 3 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t\r") == "" {
				fence = ""
			}
			prevStart, prevLine, prevPrevBlank, lastBlank = -1, "", true, true
			return
		}
		if indent <= 3 {
			if f := fenceMarker(trimmed); f != "" {
				fence = f
				prevStart, prevLine, prevPrevBlank, lastBlank = -1, "", true, true
				return
			}
			if isATX(trimmed) && start > 0 {
				out = append(out, start)
			}
			if prevStart > 0 && prevPrevBlank && !isBlank(prevLine) && !isATX(strings.TrimLeft(prevLine, " ")) && isSetextUnderline(trimmed) {
				out = append(out, prevStart)
			}
		}
		prevPrevBlank = lastBlank
		prevStart, prevLine, lastBlank = start, line, isBlank(line)
	})
	sort.Ints(out)
	return out
}

// fenceMarker returns "```" or "~~~" (as long as written) when line opens a fenced code block.
func fenceMarker(line string) string {
	for _, ch := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, ch))
		if n >= 3 {
			return strings.Repeat(ch, n)
		}
	}
	return ""
}

func isATX(line string) bool {
	n := len(line) - len(strings.TrimLeft(line, "#"))
	if n < 1 || n > 6 {
		return false
	}
	rest := strings.TrimRight(line[n:], "\r")
	return rest == "" || rest[0] == ' ' || rest[0] == '\t'
}

func isSetextUnderline(line string) bool {
	t := strings.TrimRight(line, " \t\r")
	return t != "" && (strings.Trim(t, "=") == "" || strings.Trim(t, "-") == "")
}
