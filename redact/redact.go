package redact

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marker is how every replacement starts: a secret becomes "[REDACTED:<kind>]".
const Marker = "[REDACTED:"

// span is one secret found: [start, end) in the text the patterns ran on, and its kind.
type span struct {
	kind       string
	start, end int
	order      int
}

// secretPattern finds one kind of secret. When the expression has groups named "s", only
// the first of them that matched is redacted (the rest of the match is context, such as
// "password=" or the user and host of a URL); otherwise the whole match is.
type secretPattern struct {
	kind string
	re   *regexp.Regexp
	// keep, when set, must accept the secret's text for it to be redacted.
	keep func(secret string) bool
	// hints are lowercase literals one of which every match contains (Go's regexp engine
	// manages tens of MB/s, a literal search GB/s). Without hints the expression runs on the
	// whole text and may span lines. With them it runs only on lines where a hint occurs:
	// every match starts at a hint, so on lines up to maxAnchoredLine bytes it runs anchored
	// at each hint to the end of the line (an expression starting with \b also needs a
	// non-word character or nothing before the hint), on longer lines once over the line.
	hints []string
	// line, with hints, means matches may start before the hint: the expression runs on the
	// whole of each line where a hint occurs.
	line bool
	// anchored is re anchored at the start, compiled by init.
	anchored *regexp.Regexp
	// minLen is the fewest bytes any match of re has (minMatchLen), computed by init: a text
	// shorter than that is not searched. Most strings of a JSON document are short.
	minLen int
	// wordStart: re starts with \b.
	wordStart bool
}

// minSecretLen is the shortest any pattern matches (the least minLen), set by init: no
// shorter text holds a secret.
var minSecretLen int

func init() {
	for i := range patterns {
		p := &patterns[i]
		p.anchored = regexp.MustCompile(`^(?:` + p.re.String() + `)`)
		p.minLen = minMatchLen(syntax.Parse(p.re.String(), syntax.Perl))
		p.wordStart = strings.HasPrefix(p.re.String(), `\b`)
		if i == 0 || p.minLen < minSecretLen {
			minSecretLen = p.minLen
		}
	}
}

// Values of generic assignments: a double- or single-quoted string (the quotes are kept) or a
// bare word that stops at whitespace, quotes, separators and braces.
const assignedValue = `(?:"(?P<s>(?:[^"\\\n]|\\.)+)"|'(?P<s>[^'\n]+)'|(?P<s>[^\s"',;&{}()<>]+))`

// assign is the separator between a name and its value: "=", ":", ":=", "=>" with optional
// quotes around the name and spaces around the separator.
const assign = `["']?\s*(?::=|=>|[:=])\s*`

// patterns are tried in this order; where two matches start at the same offset the longer
// wins, and at equal length the one listed first (so sk-ant-... is Anthropic, not OpenAI).
var patterns = []secretPattern{
	// The body is base64 (or base64url), whitespace (or "\n" escapes, as in JSON) and
	// "Name: value" header lines (PGP armour has Version: and Comment: lines). A block
	// without its END line ends where such text ends: scanning on to a distant END would be
	// quadratic and would swallow the text between.
	{kind: "private_key", re: regexp.MustCompile(
		`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z-]+: [^\n\\]*|[A-Za-z0-9+/=_\s\\])*(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)?`)},
	{kind: "anthropic_api_key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), hints: []string{"sk-ant-"}},
	{kind: "openai_api_key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
		keep: hasDigit, hints: []string{"sk-"}},
	{kind: "aws_access_key_id", re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`), hints: []string{"akia", "asia", "abia", "acca"}},
	{kind: "aws_secret_access_key", re: regexp.MustCompile(
		`(?i:aws_?secret_?access_?key)` + assign + `["']?(?P<s>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`),
		hints: []string{"aws"}},
	{kind: "github_token", re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`),
		hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}},
	// Classic GitHub OAuth tokens are 40 hex digits, like a commit SHA: only in a token context
	// ("GH_TOKEN=", "github oauth token: ", "github token is ...").
	{kind: "github_token", re: regexp.MustCompile(
		`\b(?i:github[ _.-]?|gh[ _.-])(?i:(?:[a-z_]+[ .-]){0,2}[a-z_]*(?:token|pat|oauth|key|secret|auth|password|credential)s?)["']?\s*(?:(?::=|[:=])|\s(?i:is|was)\s|\s)\s*["']?(?P<s>[0-9a-fA-F]{40})\b`),
		hints: []string{"github", "gh_", "gh-", "gh ", "gh."}},
	{kind: "gitlab_token", re: regexp.MustCompile(`\bgl(?:pat|dt|rt|ptt|oas)-[A-Za-z0-9_-]{20,}`), hints: []string{"glpat-", "gldt-", "glrt-", "glptt-", "gloas-"}},
	{kind: "slack_token", re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-[0-9]-[A-Za-z0-9-]{10,}`), keep: hasDigit, hints: []string{"xox", "xapp-"}},
	{kind: "slack_webhook", re: regexp.MustCompile(`(?i:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{16,}`),
		hints: []string{"hooks.slack.com"}, line: true},
	{kind: "google_api_key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35,}`), hints: []string{"aiza"}},
	{kind: "stripe_key", re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|\bwhsec_[A-Za-z0-9+/=]{24,}`), hints: []string{"_live_", "_test_", "whsec_"}, line: true},
	{kind: "huggingface_token", re: regexp.MustCompile(`\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`), hints: []string{"hf_", "api_org_"}},
	{kind: "npm_token", re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{30,}\b`), hints: []string{"npm_"}},
	{kind: "sendgrid_api_key", re: regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}`), hints: []string{"sg."}},
	{kind: "zaxy_token", re: regexp.MustCompile(`\bzx_[A-Za-z0-9_-]{24,}`), hints: []string{"zx_"}},
	{kind: "pypi_token", re: regexp.MustCompile(`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`), hints: []string{"pypi-ageichlwas5vcmc"}},
	{kind: "digitalocean_token", re: regexp.MustCompile(`\bdo[opr]_v1_[a-f0-9]{64}\b`), hints: []string{"dop_v1_", "doo_v1_", "dor_v1_"}},
	{kind: "shopify_token", re: regexp.MustCompile(`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`), hints: []string{"shpat_", "shpca_", "shppa_", "shpss_"}},
	{kind: "age_secret_key", re: regexp.MustCompile(`\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b`), hints: []string{"age-secret-key-1"}},
	{kind: "discord_webhook", re: regexp.MustCompile(`(?i:https?://)?(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}`),
		hints: []string{"discord"}, line: true},
	{kind: "telegram_bot_token", re: regexp.MustCompile(`\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\b`), hints: []string{":aa"}, line: true},
	{kind: "azure_key", re: regexp.MustCompile(
		`(?i:AccountKey|SharedAccessKey|AccessKey)\s*=\s*(?P<s>[A-Za-z0-9+/]{20,}=*)`), hints: []string{"accountkey", "accesskey"}, line: true},
	{kind: "azure_sas_signature", re: regexp.MustCompile(`[?&]sig=(?P<s>[A-Za-z0-9%+/=]{20,})`), hints: []string{"sig="}, line: true},
	{kind: "authorization_header", re: regexp.MustCompile(
		`(?i:authorization)["']?\s*[:=]\s*["']?(?i:bearer|basic|token|bot)\s+(?P<s>[^\s"',;]+)`),
		hints: []string{"authorization"}},
	{kind: "bearer_token", re: regexp.MustCompile(`\b(?i:bearer)\s+(?P<s>[A-Za-z0-9._~+/-]{16,}=*)`),
		keep: hasDigit, hints: []string{"bearer"}},
	{kind: "jwt", re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`), hints: []string{"eyj"}},
	// The password runs to the last "@" before the host, so "p@ss@w0rd" is replaced whole,
	// and may contain "/". A URL whose user part is itself a long token is covered too.
	{kind: "url_password", re: regexp.MustCompile(
		`://[^:/?#@\s\[\]]*:(?P<s>[^\s]+)@[^\s/?#@:]`),
		keep: notPortAndPath, hints: []string{"://"}},
	{kind: "url_token", re: regexp.MustCompile(`://(?P<s>[A-Za-z0-9_-]{32,})@[^\s/?#@:]`),
		keep: hasDigit, hints: []string{"://"}},
	// mysql -uroot -pS3cret (no space: with one, -p prompts and the next word is a database).
	{kind: "password", re: regexp.MustCompile(
		`\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p(?:'(?P<s>[^'\n]+)'|"(?P<s>[^"\n]+)"|(?P<s>[^\s"'|;&]+))`),
		hints: []string{"mysql", "mariadb"}},
	{kind: "password", re: regexp.MustCompile(`(?i:password|passwd|passphrase)` + assign + assignedValue),
		hints: []string{"pass"}},
	// DB_PWD=..., MYSQL_PASS: ... (a bare PWD= is the shell's working directory).
	{kind: "password", re: regexp.MustCompile(`(?i:[A-Za-z0-9][_.-](?:pwd|pass|pw))` + assign + assignedValue),
		hints: []string{"_pwd", "-pwd", ".pwd", "_pass", "-pass", ".pass", "_pw", "-pw", ".pw"}, line: true},
	// Prose: "my password is hunter2", "the passphrase was 'a b c'".
	{kind: "password", re: regexp.MustCompile(
		`\b(?i:password|passwd|passphrase|passcode)(?:\s+(?i:for|of|to)\s+[^\s]+)?\s+(?i:is|was|=|:)\s+(?:"(?P<s>[^"\n]+)"|'(?P<s>[^'\n]+)'|(?P<s>[^\s"']*[^\s"'.,;:!?)]))`),
		keep: notProseWord, hints: []string{"pass"}},
	{kind: "secret", re: regexp.MustCompile(
		`(?i:secret|secret_?key|api_?key|apikey|token|private_?key|access_?key|account_?key|credentials?)` + assign + assignedValue),
		keep: func(s string) bool { return len(s) >= 8 }, hints: []string{"secret", "api", "token", "private", "access", "account", "credential"}},
}

// isMarker reports whether s is exactly one replacement, "[REDACTED:<kind>]".
func isMarker(s string) bool {
	kind, ok := strings.CutPrefix(s, Marker)
	if !ok {
		return false
	}
	if kind, ok = strings.CutSuffix(kind, "]"); !ok || kind == "" {
		return false
	}
	for i := 0; i < len(kind); i++ {
		if c := kind[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// portAndPath is what "host:8080/a@b" would offer as a URL password.
var portAndPath = regexp.MustCompile(`^[0-9]{1,5}(?:/|$)`)

func notPortAndPath(s string) bool { return !portAndPath.MatchString(s) }

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// proseWords are words that follow "password is" in prose about passwords rather than in
// a disclosure of one.
var proseWords = map[string]bool{
	"a": true, "an": true, "the": true, "not": true, "set": true, "empty": true, "required": true,
	"wrong": true, "incorrect": true, "correct": true, "invalid": true, "expired": true, "missing": true,
	"too": true, "still": true, "being": true, "now": true, "stored": true, "saved": true, "hashed": true,
	"changed": true, "reset": true, "unknown": true, "hidden": true, "in": true, "on": true, "at": true,
	"weak": true, "strong": true, "long": true, "short": true, "valid": true, "needed": true, "optional": true,
	"redacted": true, "never": true, "only": true, "used": true, "shown": true, "encrypted": true, "same": true,
}

func notProseWord(s string) bool {
	return !proseWords[strings.ToLower(strings.TrimRight(s, ".,;:!?)"))]
}

// maxAnchoredLine is the longest line on which a pattern runs anchored at each hint; on a
// longer line (minified JSON) it runs once over the line, so many hints on one line cost
// linear time, not quadratic.
const maxAnchoredLine = 1024

// maxPasses bounds the passes String makes until nothing more is found.
const maxPasses = 3

// String replaces the secrets it recognises in s with "[REDACTED:<kind>]" and returns the
// result and how many it replaced. The whole value of a secret is replaced, never a prefix.
// Matching sees through full-width forms (e.g. "＝" for "="), other Unicode spaces and
// invisible format characters (zero-width spaces, joiners, soft hyphens, bidi controls),
// which are normalised for matching only: what is replaced is the original span. All
// patterns are RE2 expressions, so String runs in time linear in len(s); all but the private
// key block match within one line. Invalid UTF-8 is left as it is (Postgres text cannot
// hold it, so callers reject it first). String(String(s)) == String(s).
func String(s string) (string, int) {
	if len(s) < minSecretLen {
		return s, 0
	}
	out, total := pass(s)
	if total == 0 {
		return s, 0
	}
	// A replacement can only make a new match on its own line (the one pattern that spans
	// lines starts with a literal no replacement contains), so later passes look only there.
	for range maxPasses - 1 {
		var b strings.Builder
		b.Grow(len(out))
		n := 0
		for rest := out; rest != ""; {
			line, tail, cut := strings.Cut(rest, "\n")
			if strings.Contains(line, Marker) {
				var k int
				line, k = pass(line)
				n += k
			}
			b.WriteString(line)
			if cut {
				b.WriteByte('\n')
			}
			rest = tail
		}
		if n == 0 {
			break
		}
		out, total = b.String(), total+n
	}
	return out, total
}

// pass finds and replaces secrets once.
func pass(s string) (string, int) {
	norm, idx := normalize(s)
	found := find(norm)
	if len(found) == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	prev, n := 0, 0
	for _, r := range found {
		start, end := r.start, r.end
		if idx != nil {
			start, end = idx[start], idx[end]
		}
		if end <= prev {
			continue // inside a secret already replaced
		}
		if start < prev {
			start = prev // runs on past a secret already replaced: replace the rest too
		}
		b.WriteString(s[prev:start])
		b.WriteString(Marker + r.kind + "]")
		prev = end
		n++
	}
	b.WriteString(s[prev:])
	return b.String(), n
}

// find returns the secrets in s, ordered by start (longer first, then pattern order).
func find(s string) []span {
	var found []span
	seen := map[[2]int]bool{}
	lower := asciiLower(s)
	add := func(p *secretPattern, pi, base int, sub string, m []int) {
		start, end := m[0], m[1]
		for g, name := range p.re.SubexpNames() {
			if name == "s" && m[2*g] >= 0 {
				start, end = m[2*g], m[2*g+1]
				break
			}
		}
		secret := sub[start:end]
		if end <= start || isMarker(secret) || (p.keep != nil && !p.keep(secret)) {
			return
		}
		key := [2]int{base + start, base + end}
		if !seen[key] {
			seen[key] = true
			found = append(found, span{kind: p.kind, start: key[0], end: key[1], order: pi})
		}
	}
	for pi := range patterns {
		p := &patterns[pi]
		switch {
		case len(s) < p.minLen:
		case len(p.hints) == 0:
			for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
				add(p, pi, 0, s, m)
			}
		default:
			for _, sp := range hintLines(s, lower, p.hints) {
				line := s[sp[0]:sp[1]]
				if p.line || len(line) > maxAnchoredLine {
					for _, m := range p.re.FindAllStringSubmatchIndex(line, -1) {
						add(p, pi, sp[0], line, m)
					}
					continue
				}
				for _, h := range p.hints {
					lowerLine := lower[sp[0]:sp[1]]
					for from := 0; ; {
						i := strings.Index(lowerLine[from:], h)
						if i < 0 {
							break
						}
						i += from
						from = i + 1
						if p.wordStart && sp[0]+i > 0 && isWordByte(s[sp[0]+i-1]) {
							continue
						}
						if m := p.anchored.FindStringSubmatchIndex(line[i:]); m != nil {
							add(p, pi, sp[0]+i, line[i:], m)
						}
					}
				}
			}
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return a.order < b.order
	})
	return found
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// hintLines returns the [start, end) spans (without "\n") of the lines of s that contain
// a hint, in order.
func hintLines(s, lower string, hints []string) [][2]int {
	var starts []int
	for _, h := range hints {
		for from := 0; from < len(lower); {
			i := strings.Index(lower[from:], h)
			if i < 0 {
				break
			}
			i += from
			start := strings.LastIndexByte(s[:i], '\n') + 1
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s)
			} else {
				end += i
			}
			starts = append(starts, start)
			from = end + 1
		}
	}
	sort.Ints(starts)
	starts = slices.Compact(starts)
	spans := make([][2]int, len(starts))
	for i, start := range starts {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s) - start
		}
		spans[i] = [2]int{start, start + end}
	}
	return spans
}

// asciiLower lowercases ASCII letters only, so byte offsets stay the same.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// normalize returns the text the patterns match against: full-width ASCII forms (U+FF01 to
// U+FF5E) become ASCII, Unicode spaces other than "\n" become " ", and format characters
// (category Cf: zero-width spaces and joiners, soft hyphens, bidi controls, BOM) are dropped.
// idx maps each byte offset of the result (and its length) to the offset in s where that
// character starts; it is nil when nothing changed (the result is s).
func normalize(s string) (string, []int) {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) || !needsNormalizing(s[i:]) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	idx := make([]int, 0, len(s)+1)
	for j := 0; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[j])
			idx = append(idx, j)
		case r >= 0xFF01 && r <= 0xFF5E:
			b.WriteByte(byte(r - 0xFEE0))
			idx = append(idx, j)
		case r >= utf8.RuneSelf && unicode.IsSpace(r):
			b.WriteByte(' ')
			idx = append(idx, j)
		case r >= utf8.RuneSelf && unicode.Is(unicode.Cf, r):
			// dropped
		default:
			b.WriteString(s[j : j+size])
			for k := range size {
				idx = append(idx, j+k)
			}
		}
		j += size
	}
	idx = append(idx, len(s))
	// A span ends at idx[end], where the next kept character starts, so invisible characters
	// just after a secret are replaced with it.
	return b.String(), idx
}

// needsNormalizing reports whether s has a character normalize changes.
func needsNormalizing(s string) bool {
	for _, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		if (r >= 0xFF01 && r <= 0xFF5E) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return true
		}
	}
	return false
}
