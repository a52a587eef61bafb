package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

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
