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

// special reads core (a piece without its surrounding punctuation) as an e-mail address,
// handle, URL without a scheme, path or identifier, in that order. It returns the span
// [start, end) of core that is the mention.
func special(core string, code bool) (kind string, start, end int, key string, ok bool) {
	if len(core) > maxToken {
		return "", 0, 0, "", false
	}
	if strings.IndexAny(core, "/\\.@") < 0 {
		// Most words: neither an address nor a path, perhaps an identifier.
		if n, key, ok := identifier(core, code); ok {
			return KindIdentifier, 0, n, key, true
		}
		return "", 0, 0, "", false
	}
	if at := strings.IndexByte(core, '@'); at == 0 {
		if n := handleLen(core); n > 0 {
			return KindHandle, 0, n, strings.ToLower(core[:n]), true
		}
	} else if at > 0 {
		off := 0
		if len(core) > 7 && strings.EqualFold(core[:7], "mailto:") {
			off = 7
		}
		if isEmail(core[off:]) {
			return KindEmail, off, len(core), strings.ToLower(core[off:]), true
		}
	}
	if kind, n, key, ok := pathLike(core, code); ok {
		return kind, 0, n, key, true
	}
	if n, key, ok := identifier(core, code); ok {
		return KindIdentifier, 0, n, key, true
	}
	return "", 0, 0, "", false
}

// handleLen is the length of the @handle at the start of s ("@alice", "@org/team"), or 0.
func handleLen(s string) int {
	i := 1
	if i >= len(s) || !(isASCIILetter(s[i]) || s[i] == '_') {
		return 0
	}
	for i < len(s) && (isASCIIAlnum(s[i]) || s[i] == '_' || s[i] == '-') {
		i++
	}
	if i+1 < len(s) && s[i] == '/' && (isASCIIAlnum(s[i+1]) || s[i+1] == '_') {
		i++
		for i < len(s) && (isASCIIAlnum(s[i]) || strings.IndexByte("_.-", s[i]) >= 0) {
			i++
		}
	}
	for i > 1 && (s[i-1] == '.' || s[i-1] == '-') {
		i--
	}
	return i
}

// isEmail reports whether s is exactly one e-mail address.
func isEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	if at <= 0 || strings.IndexByte(s[at+1:], '@') >= 0 {
		return false
	}
	local := s[:at]
	if local[0] == '.' || local[len(local)-1] == '.' {
		return false
	}
	for i := 0; i < len(local); i++ {
		if !isASCIIAlnum(local[i]) && strings.IndexByte("._%+-", local[i]) < 0 {
			return false
		}
	}
	return isHostname(s[at+1:], false)
}

// isHostname reports whether s is a dotted host name whose last label is alphabetic; with
// knownTLD, that label must also be a common top-level domain.
func isHostname(s string, knownTLD bool) bool {
	labels := 0
	last := ""
	for len(s) > 0 {
		label := s
		if k := strings.IndexByte(s, '.'); k >= 0 {
			label, s = s[:k], s[k+1:]
			if s == "" {
				return false
			}
		} else {
			s = ""
		}
		if label == "" || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if !isASCIIAlnum(label[i]) && label[i] != '-' {
				return false
			}
		}
		labels++
		last = label
	}
	if labels < 2 || len(last) < 2 {
		return false
	}
	for i := 0; i < len(last); i++ {
		if !isASCIILetter(last[i]) {
			return false
		}
	}
	return !knownTLD || lookupLower(topLevelDomains, last)
}

// pathLike reads core as a path, a file name, or a web address without a scheme. A
// ":line[:col]" suffix is left out of the mention.
func pathLike(core string, code bool) (kind string, n int, key string, ok bool) {
	p := stripLineSuffix(core)
	if p == "" {
		return "", 0, "", false
	}
	letters := false
	for _, r := range p {
		switch {
		case unicode.IsLetter(r):
			letters = true
		case unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune("._-~@+%{}$*/\\:", r):
		default:
			return "", 0, "", false
		}
	}
	if !letters {
		return "", 0, "", false
	}
	win := len(p) >= 3 && isASCIILetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
	unc := strings.HasPrefix(p, `\\`)
	abs := p[0] == '/'
	rel := strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "~/") ||
		strings.HasPrefix(p, `.\`) || strings.HasPrefix(p, `..\`)
	if strings.IndexByte(p[min(len(p), 2):], ':') >= 0 || (!win && strings.IndexByte(p, ':') >= 0) {
		return "", 0, "", false
	}
	// Split on separators; empty segments are allowed only where a separator leads
	// (absolute, UNC) or trails ("docs/").
	var segs []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' || p[i] == '\\' {
			segs = append(segs, p[start:i])
			start = i + 1
		}
	}
	for i, seg := range segs {
		if seg != "" {
			continue
		}
		leading := (i == 0 && (abs || unc)) || (i == 1 && unc)
		if !leading && (i != len(segs)-1 || i == 0) {
			return "", 0, "", false
		}
	}
	first, last := segs[0], segs[len(segs)-1]
	seps := len(segs) - 1
	isPath := false
	switch {
	case win || unc || rel:
		isPath = true
	case abs:
		isPath = len(segs) > 1 && segs[1] != ""
	case seps == 0:
		if p[0] == '.' && len(p) > 1 && isASCIILetter(p[1]) {
			isPath = true // .env, .gitignore
			break
		}
		if dot := strings.LastIndexByte(p, '.'); dot > 0 && knownExt(p[dot+1:]) {
			if strings.EqualFold(p[dot+1:], "js") && isCapitalizedWord(p[:dot]) {
				return KindName, len(p), nameKey(p), true // Node.js, Vue.js
			}
			isPath = true
			break
		}
		if isHostname(p, true) {
			return KindURL, len(p), strings.ToLower(p), true
		}
	default:
		if isHostname(first, true) {
			return KindURL, len(p), strings.ToLower(first) + p[len(first):], true
		}
		switch {
		case seps >= 2:
			isPath = true
		case last == "":
			isPath = utf8.RuneCountInString(first) >= 2 // docs/
		default:
			dot := strings.LastIndexByte(last, '.')
			isPath = (dot > 0 && knownExt(last[dot+1:])) || commonDirs[first] ||
				(first[0] == '.' && len(first) > 1) || code
		}
	}
	if !isPath {
		return "", 0, "", false
	}
	key = p
	for strings.HasPrefix(key, "./") || strings.HasPrefix(key, `.\`) {
		key = key[2:]
	}
	if len(key) > 1 && (key[len(key)-1] == '/' || key[len(key)-1] == '\\') {
		key = key[:len(key)-1]
	}
	return KindPath, len(p), key, key != ""
}

// stripLineSuffix removes up to two ":digits" suffixes ("main.go:12:5" → "main.go").
func stripLineSuffix(s string) string {
	for range 2 {
		k := strings.LastIndexByte(s, ':')
		if k <= 0 || k == len(s)-1 {
			return s
		}
		for i := k + 1; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return s
			}
		}
		s = s[:k]
	}
	return s
}

// identifier reads core as a code identifier: camelCase, PascalCase, snake_case, pkg.Func,
// Foo::bar, a call (func(), Foo(x) → Foo), or any identifier in backticks.
func identifier(core string, code bool) (n int, key string, ok bool) {
	cand, n, call := core, len(core), false
	if k := strings.IndexByte(core, '('); k >= 0 {
		rest := core[k:]
		if k == 0 || strings.HasPrefix(rest, "(s)") || strings.HasPrefix(rest, "(es)") {
			return 0, "", false
		}
		cand, n, call = core[:k], k, true
		if strings.HasPrefix(rest, "()") {
			n = k + 2
		}
	}
	segs, colons, underscore, letter, long := 0, false, false, false, false
	for i := 0; ; {
		segStart := i
		for i < len(cand) {
			r, size := decodeRune(cand, i)
			if r == '_' {
				underscore = true
			} else if unicode.IsLetter(r) {
				letter = true
			} else if !(i > segStart && (unicode.IsDigit(r) || unicode.IsMark(r))) {
				break
			}
			i += size
		}
		if i == segStart {
			return 0, "", false
		}
		segs++
		if utf8.RuneCountInString(cand[segStart:i]) > 1 {
			long = true
		}
		if i == len(cand) {
			break
		}
		switch {
		case strings.HasPrefix(cand[i:], "::"):
			colons = true
			i += 2
		case cand[i] == '.':
			i++
		default:
			return 0, "", false
		}
	}
	if !letter {
		return 0, "", false
	}
	switch {
	case colons || call || code:
		ok = true
	case segs > 1:
		ok = long
	default:
		ok = underscore || hasHump(cand)
	}
	if !ok {
		return 0, "", false
	}
	return n, strings.ToLower(cand), true
}

// hasHump reports a case change inside a word: camelCase, PascalCase, iPhone, HTTPServer,
// but not a plural acronym (APIs, PRs).
func hasHump(w string) bool {
	var prev2, prev rune
	i := 0
	for _, r := range w {
		if i >= 1 && unicode.IsLower(prev) && unicode.IsUpper(r) {
			return true
		}
		if i >= 2 && unicode.IsUpper(prev2) && unicode.IsUpper(prev) && unicode.IsLower(r) {
			if !(r == 's' && i == utf8.RuneCountInString(w)-1) {
				return true
			}
		}
		prev2, prev = prev, r
		i++
	}
	return false
}

// urlEnd is where a URL whose authority starts at from ends, at most b: at a space, a quote,
// an angle bracket or a closing bracket it did not open, minus trailing punctuation.
func urlEnd(t string, from, b int) int {
	parens, brackets := 0, 0
	e := from
scan:
	for e < b {
		switch t[e] {
		case '<', '>', '"', '`':
			break scan
		case '(':
			parens++
		case ')':
			if parens == 0 {
				break scan
			}
			parens--
		case '[':
			brackets++
		case ']':
			if brackets == 0 {
				break scan
			}
			brackets--
		}
		e++
	}
	for e > from {
		if strings.IndexByte(".,;:!?'*", t[e-1]) >= 0 {
			e--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(t[from:e])
		if r == '”' || r == '’' || r == '…' {
			e -= size
			continue
		}
		break
	}
	return e
}

// urlKey normalizes a URL: scheme and host lowercased, user information dropped, a lone "/"
// path dropped, the rest as written.
func urlKey(u string) string {
	k := strings.Index(u, "://")
	scheme, rest := strings.ToLower(u[:k]), u[k+3:]
	auth := rest
	if e := strings.IndexAny(rest, "/?#"); e >= 0 {
		auth, rest = rest[:e], rest[e:]
	} else {
		rest = ""
	}
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		auth = auth[at+1:]
	}
	if rest == "/" {
		rest = ""
	}
	return scheme + "://" + strings.ToLower(auth) + rest
}

// nameKey lowercases a name and collapses its whitespace, like graph.Key.
func nameKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// isCapitalizedWord reports an uppercase letter followed by lowercase letters only.
func isCapitalizedWord(w string) bool {
	for i, r := range w {
		if (i == 0 && !unicode.IsUpper(r)) || (i > 0 && !unicode.IsLower(r)) {
			return false
		}
	}
	return w != ""
}

func letterCount(w string) int {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// isAllCaps reports a word of at least two letters, all of them capitals (AWS, AGE, GPT-4).
func isAllCaps(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters >= 2
}

// isContraction reports a word with an apostrophe not followed by a capital ("don't",
// "we're"); "O'Brien" is not one.
func isContraction(w string) bool {
	for i, r := range w {
		if isApostrophe(r) {
			next, _ := utf8.DecodeRuneInString(w[i+utf8.RuneLen(r):])
			return !unicode.IsUpper(next)
		}
	}
	return false
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

func isAbbreviation(core string) bool {
	if utf8.RuneCountInString(core) == 1 {
		return true // an initial: "J. Smith"
	}
	return lookupLower(abbreviations, core)
}

func isStopword(w string) bool  { return lookupLower(stopwords, w) }
func isConnector(w string) bool { return connectors[w] }
func knownExt(ext string) bool  { return lookupLower(extensions, ext) }

// lookupLower looks w up in m by its lowercase form without allocating for short ASCII words.
func lookupLower(m map[string]bool, w string) bool {
	var buf [24]byte
	if len(w) > len(buf) {
		return m[strings.ToLower(w)]
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return m[strings.ToLower(w)]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return m[string(buf[:len(w)])]
}
func isApostrophe(r rune) bool  { return r == '\'' || r == '’' }
func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func isASCIIAlnum(c byte) bool  { return isASCIILetter(c) || (c >= '0' && c <= '9') }
func isSchemeByte(c byte) bool  { return isASCIIAlnum(c) || c == '+' || c == '-' || c == '.' }

func isLeadPunct(r rune) bool {
	switch r {
	case '(', '[', '{', '<', '"', '\'', '*', '`', '“', '‘', '«', '¡', '¿', '|', '>':
		return true
	}
	return false
}

func isTrailPunct(r rune) bool {
	switch r {
	case '.', ',', ';', ':', '!', '?', '"', '\'', '*', '`', '”', '’', '»', '|', '>', '…':
		return true
	}
	return false
}

func openBracket(r rune) int {
	switch r {
	case '(':
		return 0
	case '[':
		return 1
	case '{':
		return 2
	}
	return -1
}

func closeBracket(r rune) int {
	switch r {
	case ')':
		return 0
	case ']':
		return 1
	case '}':
		return 2
	}
	return -1
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }
func isLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || (r >= '\t' && r <= '\r')
	}
	return unicode.IsSpace(r)
}

func decodeRune(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// stopwords are capitalized words that are not names on their own: function words,
// sentence openers common in agent work, log levels, weekdays and months (dates are not
// mentions).
var stopwords = set(`
a an the this that these those there here it its i me my mine we our ours us you your yours
he him his she her hers they them their theirs who whom whose what which when where why how
whether if then than else so but and or nor not no yes yeah yep ok okay also just only even
still yet as at by for from in into of on onto off out over under up down with within without
about above after before again all any both each every few more most other others some such
same own very much many everyone everything someone something nobody nothing anyone
anything can could should would will shall may might must do does did done is
are was were be been being am has have had get got let please thanks thank hi hey hello dear
sure great good nice fine cool see maybe perhaps now today tomorrow yesterday tonight once
while because since until though although however therefore thus otherwise instead
meanwhile anyway well oh sorry
mr mrs ms dr prof st jr sr
add added adds adding fix fixed fixes update updated updates remove removed use used using run
running ran make made move moved merge merged refactor refactored implement implemented bump
revert reverted check checked try tried look looks seems note todo fixme xxx fyi lgtm nit wip
set ask tell read install open call send ping show keep put start stop wait write create delete
running fixing updating removing deploying testing checking looking trying working moving
merging building reviewing waiting investigating debugging going getting having
select insert where join grant revoke begin commit rollback values limit exists load
tbd btw imo imho asap eta
error warning warn info debug trace fatal panic fail failed failure pass passed success
true false none null nil utc gmt am pm
monday tuesday wednesday thursday friday saturday sunday
january february march april june july august september october november december
`)

// subjectVerbs follow a person's name far more often than a capitalized sentence opener.
var subjectVerbs = set(`
said says asked asks wants wanted thinks thought wrote writes suggested suggests approved
approves reviewed reviews merged merges pushed pushes fixed fixes mentioned mentions agreed
agrees replied replies noted notes prefers preferred likes liked decided decides owns owned
leads led joined left reported reports confirmed confirms shipped ships explained proposed
moved deployed opened filed created added removed built
`)

// connectors may join the capitalized words of one name: "Bank of America", "Ludwig van
// Beethoven".
var connectors = set(`of de da di du del della der den van von la le`)

// abbreviations end with a period that does not end the sentence.
var abbreviations = set(`e.g i.e etc vs cf mr mrs ms dr prof st jr sr approx incl esp al fig no`)

// extensions mark "name.ext" as a file name.
var extensions = set(`
go mod sum py pyi ipynb js mjs cjs ts tsx jsx json jsonl yaml yml toml ini cfg conf md mdx rst
txt csv tsv sql sh bash zsh fish ps1 bat rs c h cc cpp hpp cs java kt kts swift rb php pl lua
scala ex exs erl hs ml html htm css scss less xml svg png jpg jpeg gif webp pdf zip tar gz tgz
bz2 xz lock env proto graphql tf hcl dockerfile wasm so dll exe jar db sqlite parquet patch diff
`)

// topLevelDomains mark "name.tld" as a web address.
var topLevelDomains = set(`com org net io dev ai app co edu gov info me us uk de eu cloud tech xyz`)

// commonDirs mark "dir/name" as a path even without a file extension.
var commonDirs = set(`
src cmd internal pkg lib docs doc test tests api app apps bin etc usr var home tmp opt scripts
config configs migrations vendor node_modules build dist public static assets web examples
tools testdata deploy infra charts sql
`)
