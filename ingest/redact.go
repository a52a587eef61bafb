package ingest

import (
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Redaction is one secret that Redact replaced.
type Redaction struct {
	// Kind names the pattern, e.g. "openai_api_key" or "url_password"; the replacement text is
	// "[REDACTED:<kind>]".
	Kind string `json:"kind"`
	// Start and End are byte offsets of the secret in Redact's input.
	Start int `json:"start"`
	End   int `json:"end"`
}

// secretPattern finds one kind of secret. When the expression has groups named "s", only
// the first of them that matched is redacted (the rest of the match is context, such as
// "password=" or the user and host of a URL); otherwise the whole match is.
type secretPattern struct {
	kind string
	re   *regexp.Regexp
	// keep, when set, must accept the secret's text for it to be redacted.
	keep func(secret string) bool
	// hints are lowercase literals one of which every match contains; the expression runs
	// only on the lines where one occurs (Go's regexp engine manages tens of MB/s, a literal
	// search GB/s). Without hints it runs on the whole text and may span lines.
	hints []string
}

// Values of generic assignments: a double- or single-quoted string (the quotes are kept) or a
// bare word that stops at whitespace, quotes, separators and brackets.
const assignedValue = `(?:"(?P<s>(?:[^"\\\n]|\\.)+)"|'(?P<s>[^'\n]+)'|(?P<s>[^\s"',;&{}()<>\[\]]+))`

// patterns are tried in this order; where two matches start at the same offset the longer
// wins, and at equal length the one listed first (so sk-ant-... is Anthropic, not OpenAI).
var patterns = []secretPattern{
	// The body is base64 (or base64url), whitespace (or "\n" escapes, as in JSON) and
	// "Name: value" header lines. A block without its END line ends where such text ends: scanning on to a distant
	// END would be quadratic and would swallow the text between.
	{kind: "private_key", re: regexp.MustCompile(
		`-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?:[A-Za-z0-9+/=_\s\\]|[A-Za-z-]+: [^\n\\]*)*(?:-----END[A-Z0-9 ]*PRIVATE KEY-----)?`)},
	{kind: "anthropic_api_key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), hints: []string{"sk-ant-"}},
	{kind: "openai_api_key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
		keep: hasDigit, hints: []string{"sk-"}},
	{kind: "aws_access_key_id", re: regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), hints: []string{"akia", "asia"}},
	{kind: "aws_secret_access_key", re: regexp.MustCompile(
		`(?i:aws_?secret_?access_?key)["']?\s*(?::=|[:=])\s*["']?(?P<s>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`),
		hints: []string{"aws"}},
	{kind: "github_token", re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`),
		hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}},
	{kind: "slack_token", re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), keep: hasDigit, hints: []string{"xox"}},
	{kind: "google_api_key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35,}`), hints: []string{"aiza"}},
	{kind: "stripe_key", re: regexp.MustCompile(`\b(?:sk|rk)_live_[0-9A-Za-z]{16,}`), hints: []string{"_live_"}},
	{kind: "authorization_header", re: regexp.MustCompile(
		`(?i:authorization)["']?\s*[:=]\s*["']?(?i:bearer|basic|token|bot)\s+(?P<s>[^\s"',;]+)`),
		hints: []string{"authorization"}},
	{kind: "bearer_token", re: regexp.MustCompile(`\b(?i:bearer)\s+(?P<s>[A-Za-z0-9._~+/-]{16,}=*)`),
		keep: hasDigit, hints: []string{"bearer"}},
	{kind: "url_password", re: regexp.MustCompile(
		`\b[A-Za-z][A-Za-z0-9+.-]*://[^:/?#@\s]+:(?P<s>[^@/?#\s]+)@[^\s/?#@]`),
		hints: []string{"://"}},
	{kind: "password", re: regexp.MustCompile(
		`(?i:[A-Za-z0-9_.-]*(?:password|passwd|passphrase))["']?\s*(?::=|[:=])\s*` + assignedValue),
		hints: []string{"pass"}},
	{kind: "secret", re: regexp.MustCompile(
		`(?i:[A-Za-z0-9_.-]*(?:secret|secret_?key|api_?key|token|private_?key))["']?\s*(?::=|[:=])\s*` + assignedValue),
		keep: func(s string) bool { return len(s) >= 8 }, hints: []string{"secret", "api", "token", "private"}},
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// Redact replaces the secrets it recognises in s with "[REDACTED:<kind>]" and reports what it
// replaced, in order, with offsets into s. It recognises API keys (OpenAI sk-/sk-proj-,
// Anthropic sk-ant-, AWS access key ids and aws_secret_access_key values, GitHub
// ghp_/gho_/ghu_/ghs_/ghr_/github_pat_, Slack xox?-, Google AIza, Stripe sk_live_/rk_live_),
// Authorization header credentials and bearer tokens, PEM private key blocks, passwords in
// URLs (the user and host are kept), and values assigned to password-like and secret-like
// names. All patterns are RE2 expressions, so Redact runs in time linear in len(s); all but
// the private key block match within one line.
func Redact(s string) (string, []Redaction) {
	var found []Redaction
	order := map[Redaction]int{}
	lower := asciiLower(s)
	for pi, p := range patterns {
		for _, span := range searchSpans(s, lower, p.hints) {
			sub := s[span[0]:span[1]]
			names := p.re.SubexpNames()
			for _, m := range p.re.FindAllStringSubmatchIndex(sub, -1) {
				start, end := m[0], m[1]
				for g, name := range names {
					if name == "s" && m[2*g] >= 0 {
						start, end = m[2*g], m[2*g+1]
						break
					}
				}
				secret := sub[start:end]
				if end <= start || strings.HasPrefix(secret, "[REDACTED:") || (p.keep != nil && !p.keep(secret)) {
					continue
				}
				r := Redaction{Kind: p.kind, Start: span[0] + start, End: span[0] + end}
				if _, seen := order[r]; !seen {
					order[r] = pi
					found = append(found, r)
				}
			}
		}
	}
	if len(found) == 0 {
		return s, nil
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.End != b.End {
			return a.End > b.End
		}
		return order[a] < order[b]
	})
	var kept []Redaction
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, r := range found {
		if r.End <= prev {
			continue // inside a secret already replaced
		}
		if r.Start < prev {
			r.Start = prev // runs on past a secret already replaced: replace the rest too
		}
		b.WriteString(s[prev:r.Start])
		b.WriteString("[REDACTED:" + r.Kind + "]")
		prev = r.End
		kept = append(kept, r)
	}
	b.WriteString(s[prev:])
	return b.String(), kept
}

// searchSpans returns the [start, end) spans of s to run a pattern on: the whole of s without
// hints, otherwise each line (without its "\n") that contains a hint, in order.
func searchSpans(s, lower string, hints []string) [][2]int {
	if len(hints) == 0 {
		return [][2]int{{0, len(s)}}
	}
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
