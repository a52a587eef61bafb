package ingest

import (
	"regexp"
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
}

// Values of generic assignments: a double- or single-quoted string (the quotes are kept) or a
// bare word that stops at whitespace, quotes, separators and brackets.
const assignedValue = `(?:"(?P<s>(?:[^"\\\n]|\\.)+)"|'(?P<s>[^'\n]+)'|(?P<s>[^\s"',;&{}()<>\[\]]+))`

// patterns are tried in this order; where two matches start at the same offset the longer
// wins, and at equal length the one listed first (so sk-ant-... is Anthropic, not OpenAI).
var patterns = []secretPattern{
	{kind: "private_key", re: regexp.MustCompile(
		`-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY-----|[A-Za-z0-9+/=\s:,.-]*)`)},
	{kind: "anthropic_api_key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{kind: "openai_api_key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
		keep: hasDigit},
	{kind: "aws_access_key_id", re: regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{kind: "aws_secret_access_key", re: regexp.MustCompile(
		`(?i:aws_?secret_?access_?key)["']?\s*(?::=|[:=])\s*["']?(?P<s>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`)},
	{kind: "github_token", re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`)},
	{kind: "slack_token", re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), keep: hasDigit},
	{kind: "google_api_key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35,}`)},
	{kind: "stripe_key", re: regexp.MustCompile(`\b(?:sk|rk)_live_[0-9A-Za-z]{16,}`)},
	{kind: "authorization_header", re: regexp.MustCompile(
		`(?i:authorization)["']?\s*[:=]\s*["']?(?i:bearer|basic|token|bot)\s+(?P<s>[^\s"',;]+)`)},
	{kind: "bearer_token", re: regexp.MustCompile(`\b(?i:bearer)\s+(?P<s>[A-Za-z0-9._~+/-]{16,}=*)`),
		keep: hasDigit},
	{kind: "url_password", re: regexp.MustCompile(
		`\b[A-Za-z][A-Za-z0-9+.-]*://[^:/?#@\s]+:(?P<s>[^@/?#\s]+)@[^\s/?#@]`)},
	{kind: "password", re: regexp.MustCompile(
		`(?i:[A-Za-z0-9_.-]*(?:password|passwd|passphrase))["']?\s*(?::=|[:=])\s*` + assignedValue)},
	{kind: "secret", re: regexp.MustCompile(
		`(?i:[A-Za-z0-9_.-]*(?:secret|secret_?key|api_?key|token|private_?key))["']?\s*(?::=|[:=])\s*` + assignedValue),
		keep: func(s string) bool { return len(s) >= 8 }},
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// Redact replaces the secrets it recognises in s with "[REDACTED:<kind>]" and reports what it
// replaced, in order, with offsets into s. It recognises API keys (OpenAI sk-/sk-proj-,
// Anthropic sk-ant-, AWS access key ids and aws_secret_access_key values, GitHub
// ghp_/gho_/ghu_/ghs_/ghr_/github_pat_, Slack xox?-, Google AIza, Stripe sk_live_/rk_live_),
// Authorization header credentials and bearer tokens, PEM private key blocks, passwords in
// URLs (the user and host are kept), and values assigned to password-like and secret-like
// names. All patterns are RE2 expressions, so Redact runs in time linear in len(s).
func Redact(s string) (string, []Redaction) {
	var found []Redaction
	order := map[Redaction]int{}
	for pi, p := range patterns {
		names := p.re.SubexpNames()
		for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[0], m[1]
			for g, name := range names {
				if name == "s" && m[2*g] >= 0 {
					start, end = m[2*g], m[2*g+1]
					break
				}
			}
			if end <= start || (p.keep != nil && !p.keep(s[start:end])) {
				continue
			}
			r := Redaction{Kind: p.kind, Start: start, End: end}
			if _, seen := order[r]; !seen {
				order[r] = pi
				found = append(found, r)
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
		if r.Start < prev {
			continue // overlaps a secret already replaced
		}
		b.WriteString(s[prev:r.Start])
		b.WriteString("[REDACTED:" + r.Kind + "]")
		prev = r.End
		kept = append(kept, r)
	}
	b.WriteString(s[prev:])
	return b.String(), kept
}
