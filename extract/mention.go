package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mention is a span of text that names something.
type Mention struct {
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// Text is the mention as written in the text.
	Text string `json:"text"`
	// Key is the normalized form used as the entity key (docs/extraction.md).
	Key string `json:"key"`
	// Start is the byte offset of the first byte in the text.
	Start int `json:"start"`
	// End is the byte offset just past the last byte: text[Start:End] == Text.
	End int `json:"end"`
}

// Mention kinds. Person names, organisations, places and product names cannot be told apart
// without a model, so they share one kind, KindName.
const (
	// KindName is a capitalized name or phrase: "Alice", "Alice Smith", "Apache AGE",
	// "Project Falcon", "New York", "AWS". Key: lowercased, whitespace collapsed.
	KindName = "name"
	// KindHandle is an @handle: "@alice", "@org/team". Key: lowercased, with the "@".
	KindHandle = "handle"
	// KindPath is a file system path or file name: "src/foo/bar.go", "./x.yaml",
	// "/etc/hosts", `C:\x\y.txt`, "go.mod". Key: as written (paths are case-sensitive)
	// without a leading "./", a trailing separator or a ":line:col" suffix.
	KindPath = "path"
	// KindURL is a URL with a scheme ("https://example.com/a") or a bare web address
	// ("example.com", "github.com/zaxy/zaxy"). Key: scheme and host lowercased, user
	// information dropped, path and query as written.
	KindURL = "url"
	// KindEmail is an e-mail address. Key: lowercased.
	KindEmail = "email"
	// KindIdentifier is a code identifier: camelCase, PascalCase, snake_case, pkg.Func,
	// Foo::bar, func(), or any single word in `backticks`. Key: lowercased, without "()".
	KindIdentifier = "identifier"
)

const (
	// maxChunk bounds a whitespace-delimited chunk; longer ones (base64 blobs, minified
	// code) are skipped whole.
	maxChunk = 4096
	// maxNameWords bounds the words of a name; longer capitalized runs are titles.
	maxNameWords = 6
	// maxToken bounds a path, identifier, handle or e-mail address.
	maxToken = 512
)

// Mentions returns the mentions in text in order of Start, without overlaps: every byte
// belongs to at most one mention and the most specific reading wins (a URL is not also a
// path, an e-mail address not also a handle). Every occurrence is returned; nothing is
// deduplicated. It is deterministic and runs in time linear in len(text).
func Mentions(text string) []Mention {
	s := scanner{text: text, sentenceStart: true, runStart: -1, out: make([]candidate, 0, len(text)/48+1)}
	s.scan()
	return s.finish()
}

// candidate is a mention with what the final pass needs to judge names.
type candidate struct {
	Mention
	initial bool // a name that starts a sentence
	words   int  // words in a name
	allCaps bool // a one-word name written in capitals (AWS, AGE)
}

// scanner walks the text once, chunk by chunk, keeping the state of the capitalized run that
// may become a name.
type scanner struct {
	text string
	out  []candidate

	// sentenceStart is true when the next word begins a sentence.
	sentenceStart bool
	// The pending run of capitalized words: [runStart, runEnd), runStart < 0 when empty.
	runStart, runEnd int
	runWords         int
	runInitial       bool
	runAllCaps       bool
	// connectors counts lowercase connectors ("of", "van") seen since the run's last word.
	connectors int
}

func (s *scanner) scan() {
	t := s.text
	for i := 0; i < len(t); {
		r, size := decodeRune(t, i)
		if isSpace(r) {
			if isLineBreak(r) {
				s.flush()
				s.sentenceStart = true
			}
			i += size
			continue
		}
		j := i + size
		for j < len(t) {
			r, size := decodeRune(t, j)
			if isSpace(r) {
				break
			}
			j += size
		}
		s.chunk(i, j)
		i = j
	}
	s.flush()
}

// chunk handles a maximal run of non-space bytes [a, b). URLs are found first because they
// may sit inside punctuation ("[docs](https://x.dev/a).").
func (s *scanner) chunk(a, b int) {
	if b-a > maxChunk {
		s.flush()
		s.sentenceStart = false
		return
	}
	t := s.text
	for a < b {
		k := strings.Index(t[a:b], "://")
		if k < 0 {
			s.piece(a, b)
			return
		}
		k += a
		st := k
		for st > a && isSchemeByte(t[st-1]) {
			st--
		}
		for st < k && !isASCIILetter(t[st]) {
			st++
		}
		e := urlEnd(t, k+3, b)
		if k-st < 2 || e <= k+3 {
			s.piece(a, b)
			return
		}
		if st > a {
			s.piece(a, st)
		}
		s.flush()
		s.emit(KindURL, st, e, urlKey(t[st:e]))
		s.sentenceStart = false
		a = e
	}
}

// piece handles a part of a chunk that holds no URL with a scheme.
func (s *scanner) piece(a, b int) {
	t := s.text
	ls, te := a, b
	for ls < te {
		r, size := decodeRune(t, ls)
		if !isLeadPunct(r) {
			break
		}
		ls += size
	}
	if ls > a {
		s.flush()
	}
	// Closing brackets are trimmed only when unbalanced, so "Foo()" keeps its parentheses.
	var opens, closes [3]int
	for i := ls; i < te; i++ {
		if k := openBracket(rune(t[i])); k >= 0 {
			opens[k]++
		} else if k := closeBracket(rune(t[i])); k >= 0 {
			closes[k]++
		}
	}
	for te > ls {
		r, size := utf8.DecodeLastRuneInString(t[ls:te])
		if k := closeBracket(r); k >= 0 && closes[k] > opens[k] {
			closes[k]--
			te -= size
			continue
		}
		if k := openBracket(r); k >= 0 {
			opens[k]--
			te -= size
			continue
		}
		if isTrailPunct(r) {
			te -= size
			continue
		}
		break
	}
	// A possessive ends the mention: "Alice's", "README.md's".
	possessive := false
	if te-ls > 2 && strings.HasSuffix(t[ls:te], "'s") {
		te, possessive = te-2, true
	} else if te-ls > 4 && strings.HasSuffix(t[ls:te], "’s") {
		te, possessive = te-4, true
	}
	if ls >= te {
		s.flush()
		if s.ends(t[a:b], b) {
			s.sentenceStart = true
		}
		return
	}
	lead, trail := t[a:ls], t[te:b]
	code := strings.Contains(lead, "`") && strings.Contains(trail, "`")
	if kind, start, end, key, ok := special(t[ls:te], code); ok {
		s.flush()
		s.emit(kind, ls+start, ls+end, key)
		s.sentenceStart = false
	} else if strings.ContainsAny(t[ls:te], splitters) {
		// "KEY=value", {"json":"text"}, a,b: the parts are read on their own.
		for i := ls; i < te; {
			j := i + strings.IndexAny(t[i:te], splitters)
			if j < i {
				j = te
			}
			if j > i {
				s.piece(i, j)
			}
			if j < te {
				s.flush()
			}
			i = j + 1
		}
	} else {
		s.words(ls, te)
		if possessive && s.runStart >= 0 && s.runEnd == te && s.runWords == 1 {
			s.runInitial = false // "Alice's review" names Alice even at a sentence start
		}
	}
	if te < b {
		s.flush()
		if s.ends(trail, b) && !isAbbreviation(t[ls:te]) {
			s.sentenceStart = true
		}
	}
}

// separators between two words inside one piece.
const (
	sepSpace  = iota // whitespace, or the start of the piece
	sepHyphen        // "Jean-Luc", "GPT-4"
)

// words feeds the words of [a, b) to the name run. Punctuation other than a hyphen between
// two words ends the run.
func (s *scanner) words(a, b int) {
	t := s.text
	sep := sepSpace
	for i := a; i < b; {
		r, size := decodeRune(t, i)
		if !isWordRune(r) {
			sep = sepSpace
			joins := false
			if r == '-' && i > a && i+size < b {
				prev, _ := utf8.DecodeLastRuneInString(t[a:i])
				next, _ := decodeRune(t, i+size)
				joins = isWordRune(prev) && isWordRune(next)
			}
			if joins {
				sep = sepHyphen
			} else {
				s.flush()
			}
			i += size
			continue
		}
		j := i + size
		for j < b {
			r, size := decodeRune(t, j)
			if isWordRune(r) {
				j += size
				continue
			}
			if isApostrophe(r) && j+size < b {
				if next, _ := decodeRune(t, j+size); unicode.IsLetter(next) {
					j += size
					continue
				}
			}
			break
		}
		s.word(i, j, sep)
		sep = sepSpace
		i = j
	}
}

// word adds one word [a, b) to the name run or closes the run. sep says how it is joined to
// the word before it.
func (s *scanner) word(a, b, sep int) {
	w := s.text[a:b]
	r0, _ := utf8.DecodeRuneInString(w)
	if unicode.IsDigit(r0) {
		// "GPT-4" keeps its number; a number elsewhere ends the run but not the sentence
		// start ("1. Alice").
		if sep == sepHyphen && s.runStart >= 0 && s.connectors == 0 {
			s.runEnd = b
			return
		}
		s.flush()
		return
	}
	if isContraction(w) {
		// "don't", "It'd", "we're" are never names; "O'Brien" is not a contraction.
		s.flush()
		s.sentenceStart = false
		return
	}
	upper := unicode.IsUpper(r0) || unicode.IsTitle(r0)
	if !upper {
		if s.runStart >= 0 && sep == sepSpace && s.connectors < 2 && isConnector(w) {
			s.connectors++
			return
		}
		s.flush()
		s.sentenceStart = false
		s.subjectOf(a, w)
		return
	}
	if letterCount(w) < 2 || isStopword(w) {
		s.flush()
		s.sentenceStart = false
		return
	}
	if sep == sepHyphen && s.connectors > 0 {
		s.flush()
	}
	switch {
	case s.runStart < 0:
		s.runStart = a
		s.runWords = 1
		s.runInitial = s.sentenceStart
		s.runAllCaps = isAllCaps(w)
	case sep == sepSpace:
		s.runWords++
	}
	s.runEnd = b
	s.connectors = 0
	s.sentenceStart = false
}

// subjectOf keeps a one-word name at a sentence start when the word right after it, w at a,
// is a verb people do: "Alice fixed the test", "Priya said so".
func (s *scanner) subjectOf(a int, w string) {
	n := len(s.out)
	if n == 0 || !lookupLower(subjectVerbs, w) {
		return
	}
	c := &s.out[n-1]
	if c.Kind != KindName || !c.initial || c.words != 1 || c.End >= a {
		return
	}
	for _, r := range s.text[c.End:a] {
		if !isSpace(r) || isLineBreak(r) {
			return
		}
	}
	c.initial = false
}

// flush closes the pending name run, if any, and emits it.
func (s *scanner) flush() {
	s.connectors = 0
	if s.runStart < 0 {
		return
	}
	if s.runWords > maxNameWords {
		// A long run of capitalized words is a title or shouting, not a name.
		s.runStart, s.runEnd, s.runWords = -1, -1, 0
		return
	}
	text := s.text[s.runStart:s.runEnd]
	s.out = append(s.out, candidate{
		Mention: Mention{Kind: KindName, Text: text, Key: nameKey(text), Start: s.runStart, End: s.runEnd},
		initial: s.runInitial,
		words:   s.runWords,
		allCaps: s.runAllCaps && s.runWords == 1,
	})
	s.runStart, s.runEnd, s.runWords = -1, -1, 0
}

func (s *scanner) emit(kind string, start, end int, key string) {
	if end <= start || key == "" {
		return
	}
	s.out = append(s.out, candidate{Mention: Mention{Kind: kind, Text: s.text[start:end], Key: key, Start: start, End: end}})
}

// finish drops the names that are probably just a capitalized sentence opener: a single
// word at the start of a sentence counts only when it is written in capitals or the same word
// is used as a name somewhere else in the text.
func (s *scanner) finish() []Mention {
	known := map[string]bool{}
	for _, c := range s.out {
		if c.Kind == KindName && (!c.initial || c.words > 1) {
			for _, w := range strings.Fields(c.Key) {
				known[w] = true
			}
		}
	}
	out := make([]Mention, 0, len(s.out))
	for _, c := range s.out {
		if c.Kind == KindName && c.initial && c.words == 1 && !c.allCaps && !known[c.Key] {
			continue
		}
		out = append(out, c.Mention)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// splitters separate parts of a chunk that is not one mention as a whole; none of them can
// occur inside a mention other than a URL.
const splitters = "\",;=|<>[]()"

// ends reports whether punctuation p, which ends at b, ends a sentence (or a Markdown table
// cell). A colon does only before a space ("Error: Connection refused"), not inside {"a":"B"}.
func (s *scanner) ends(p string, b int) bool {
	if strings.ContainsAny(p, ".!?…|") {
		return true
	}
	if !strings.Contains(p, ":") {
		return false
	}
	if b == len(s.text) {
		return true
	}
	r, _ := decodeRune(s.text, b)
	return isSpace(r)
}
