package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// Values of generic assignments: a JSON-escaped double-quoted string (\"...\", as in a JSON
// document embedded in a string), a double- or single-quoted string (the quotes are kept) or
// a bare word that stops at whitespace, quotes, separators and braces.
const assignedValue = `(?:\\+"(?P<s>(?:[^"\\\n]|\\+[^"\\\n])+)\\+"|"(?P<s>(?:[^"\\\n]|\\.)+)"|'(?P<s>[^'\n]+)'|(?P<s>[^\s"',;&{}()<>]+))`

// assign is the separator between a name and its value: "=", ":", ":=", "=>" with optional
// quotes (escaped or not) around the name and spaces around the separator.
const assign = `(?:\\*["'])?\s*(?::=|=>|[:=])\s*`

// cliValue is the value of a command-line option: quoted (the quotes are kept) or a word.
const cliValue = `(?:'(?P<s>[^'\n]+)'|"(?P<s>[^"\n]+)"|(?P<s>[^\s"'|;&]+))`

// containerCLI names the tools whose "login" takes a registry password.
const containerCLI = `(?:docker|podman|nerdctl|buildah|skopeo|helm\s+registry)`

// patterns are tried in this order; where two matches start at the same offset the longer
// wins, and at equal length the one listed first (so sk-ant-... is Anthropic, not OpenAI).
// Every pattern but private_key has hints and is matched from each hint (see find).
var patterns = []secretPattern{
	// The body is base64 (or base64url), whitespace (or "\n" escapes, as in JSON) and
	// "Name: value" header lines (PGP armour has Version: and Comment: lines). A block
	// without its END line ends where such text ends: scanning on to a distant END would be
	// quadratic and would swallow the text between.
	{kind: "private_key", re: regexp.MustCompile(
		`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z-]+: [^\n\\]*|[A-Za-z0-9+/=_\s\\])*(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)?`),
		hints: []string{"-----begin"}, multiline: true},
	{kind: "anthropic_api_key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), hints: []string{"sk-ant-"}},
	{kind: "openai_api_key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
		keep: hasDigit, hints: []string{"sk-"}},
	{kind: "aws_access_key_id", re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`), hints: []string{"akia", "asia", "abia", "acca"}},
	{kind: "aws_secret_access_key", re: regexp.MustCompile(
		`(?i:aws_?secret_?access_?key)` + assign + `["']?(?P<s>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`),
		hints: []string{"aws"}},
	// A secret access key written near its key id: "aws key AKIA... secret wJalr...": a
	// 40-character base64 word with upper and lower case, within 100 bytes after the id.
	{kind: "aws_secret_access_key", re: regexp.MustCompile(
		`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b[^\n]{0,100}?[^A-Za-z0-9/+=](?P<s>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
		keep: mixedCase, hints: []string{"akia", "asia", "abia", "acca"}},
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
		hints: []string{"hooks.slack.com"}, main: `hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{16,}`, pre: regexp.MustCompile(`(?i:https?://)$`), preOptional: true},
	{kind: "google_api_key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35,}`), hints: []string{"aiza"}},
	{kind: "stripe_key", re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}|\bwhsec_[A-Za-z0-9+/=]{24,}`),
		hints: []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"}},
	{kind: "huggingface_token", re: regexp.MustCompile(`\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`), hints: []string{"hf_", "api_org_"}},
	{kind: "npm_token", re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{30,}\b`), hints: []string{"npm_"}},
	{kind: "sendgrid_api_key", re: regexp.MustCompile(`\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}`), hints: []string{"sg."}},
	{kind: "zaxy_token", re: regexp.MustCompile(`\bzx_[A-Za-z0-9_-]{24,}`), hints: []string{"zx_"}},
	{kind: "pypi_token", re: regexp.MustCompile(`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`), hints: []string{"pypi-ageichlwas5vcmc"}},
	{kind: "digitalocean_token", re: regexp.MustCompile(`\bdo[opr]_v1_[a-f0-9]{64}\b`), hints: []string{"dop_v1_", "doo_v1_", "dor_v1_"}},
	{kind: "shopify_token", re: regexp.MustCompile(`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`), hints: []string{"shpat_", "shpca_", "shppa_", "shpss_"}},
	{kind: "age_secret_key", re: regexp.MustCompile(`\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b`), hints: []string{"age-secret-key-1"}},
	{kind: "discord_webhook", re: regexp.MustCompile(`(?i:https?://)?(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}`),
		hints: []string{"discord"}, main: `discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{20,}`, pre: regexp.MustCompile(`(?i:https?://)?(?:ptb\.|canary\.)?$`), preOptional: true},
	{kind: "telegram_bot_token", re: regexp.MustCompile(`\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\b`), hints: []string{":aa"}, main: `:AA[A-Za-z0-9_-]{33}\b`,
		pre: regexp.MustCompile(`(?:^|[^0-9A-Za-z_])([0-9]{8,10})$`), preLast: classOf("0-9")},
	{kind: "azure_key", re: regexp.MustCompile(
		`(?i:AccountKey|AccessKey)\s*=\s*(?P<s>[A-Za-z0-9+/]{20,}=*)`), hints: []string{"accountkey", "accesskey"}},
	{kind: "azure_sas_signature", re: regexp.MustCompile(`[?&]sig=(?P<s>[A-Za-z0-9%+/=]{20,})`), hints: []string{"sig="}, main: `sig=(?P<s>[A-Za-z0-9%+/=]{20,})`,
		pre: regexp.MustCompile(`[?&]$`), preLast: classOf("?&")},
	{kind: "authorization_header", re: regexp.MustCompile(
		`(?i:authorization)(?:\\*["'])?\s*[:=]\s*(?:\\*["'])?(?i:bearer|basic|token|bot)\s+(?P<s>[^\s"',;\\]+)`),
		hints: []string{"authorization"}},
	{kind: "bearer_token", re: regexp.MustCompile(`\b(?i:bearer)\s+(?P<s>[A-Za-z0-9._~+/-]{16,}=*)`),
		keep: hasDigit, hints: []string{"bearer"}},
	// A bare "Basic dXNlcjpwYXNz": base64 that decodes to "user:password".
	{kind: "basic_auth", re: regexp.MustCompile(`\b(?i:basic)\s+(?P<s>[A-Za-z0-9+/]{4,}={0,2})(?:[^A-Za-z0-9+/=]|$)`),
		keep: isBasicCredential, hints: []string{"basic"}},
	// The third part (the signature) may be missing: an unsigned token is still a secret.
	{kind: "jwt", re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?`), hints: []string{"eyj"},
		failRun: classOf("A-Za-z0-9_-")},
	// The password runs to the last "@" before the host, so "p@ss@w0rd" is replaced whole,
	// and may contain "/" (matched by matchURLPassword, which re describes). A URL whose
	// user part is itself a long token is covered too.
	{kind: "url_password", re: regexp.MustCompile(
		`://[^:/?#@\s\[\]]*:(?P<s>[^\s]+)@[^\s/?#@:]`),
		keep: notPortAndPath, hints: []string{"://"}, custom: matchURLPassword},
	{kind: "url_token", re: regexp.MustCompile(`://(?P<s>[A-Za-z0-9_-]{32,})@[^\s/?#@:]`),
		keep: hasDigit, hints: []string{"://"}},
	// mysql -uroot -pS3cret (no space: with one, -p prompts and the next word is a database).
	{kind: "password", re: regexp.MustCompile(
		`\b(?:mysql|mysqldump|mysqladmin|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p(?:'(?P<s>[^'\n]+)'|"(?P<s>[^"\n]+)"|(?P<s>[^\s"'|;&]+))`),
		hints: []string{"mysql", "mariadb"}, failSegment: true},
	// docker login -p S3cret / --password S3cret / --password=S3cret (and podman, ...).
	{kind: "password", re: regexp.MustCompile(
		`\b` + containerCLI + `\s+(?:[a-z-]+\s+)?login\b[^\n|;&]*?\s(?:-p|--password)(?:\s+|=)` + cliValue),
		keep: notVariable, hints: []string{"docker", "podman", "nerdctl", "buildah", "skopeo", "helm"}, failSegment: true},
	// echo S3cret | docker login --password-stdin; docker login --password-stdin <<< S3cret.
	{kind: "password", re: regexp.MustCompile(
		`\becho\s+(?:-[neE]+\s+)?` + cliValue + `\s*\|\s*(?:sudo\s+)?` + containerCLI + `\s+(?:[a-z-]+\s+)?login\b[^\n|;&]*\s--password-stdin\b`),
		keep: notVariable, hints: []string{"echo"}, failSegment: true},
	{kind: "password", re: regexp.MustCompile(`--password-stdin\s*<<<\s*` + cliValue),
		keep: notVariable, hints: []string{"--password-stdin"}},
	// curl -u admin:S3cret / --user admin:S3cret (the user is kept).
	{kind: "password", re: regexp.MustCompile(
		`\bcurl\b[^\n|;&]*?\s(?:-u\s*|--user(?:\s+|=))(?:'[^':\n]*:(?P<s>[^'\n]+)'|"[^":\n]*:(?P<s>[^"\n]+)"|[^\s:"'|;&]*:(?P<s>[^\s"'|;&]+))`),
		keep: notVariable, hints: []string{"curl"}, failSegment: true},
	{kind: "password", re: regexp.MustCompile(`(?i:password|passwd|passphrase)` + assign + assignedValue),
		hints: []string{"pass"}},
	// DB_PWD=..., MYSQL_PASS: ... (a bare PWD= is the shell's working directory).
	{kind: "password", re: regexp.MustCompile(`(?i:[A-Za-z0-9][_.-](?:pwd|pass|pw))` + assign + assignedValue),
		hints: []string{"_pwd", "-pwd", ".pwd", "_pass", "-pass", ".pass", "_pw", "-pw", ".pw"},
		main:  `(?i:[_.-](?:pwd|pass|pw))` + assign + assignedValue, pre: regexp.MustCompile(`[A-Za-z0-9]$`), preLast: classOf("A-Za-z0-9")},
	// Prose: "my password is hunter2", "the passphrase was 'a b c'".
	{kind: "password", re: regexp.MustCompile(
		`\b(?i:password|passwd|passphrase|passcode)(?:\s+(?i:for|of|to)\s+[^\s]+)?\s+(?i:is|was|=|:)\s+(?:"(?P<s>[^"\n]+)"|'(?P<s>[^'\n]+)'|(?P<s>[^\s"']*[^\s"'.,;:!?)]))`),
		keep: notProseWord, hints: []string{"pass"}},
	{kind: "secret", re: regexp.MustCompile(
		`(?i:secret|secret[_-]?key|api[_-]?key|apikey|token|private[_-]?key|access[_-]?key|account[_-]?key|credentials?)` + assign + assignedValue),
		keep: func(s string) bool { return len(s) >= 8 }, hints: []string{"secret", "api", "token", "private", "access", "account", "credential"}},
}

// portAndPath is what "host:8080/a@b" would offer as a URL password.
var portAndPath = regexp.MustCompile(`^[0-9]{1,5}(?:/|$)`)

func notPortAndPath(s string) bool { return !portAndPath.MatchString(s) }

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// mixedCase: s has an upper and a lower case letter (a random base64 key does; a hex digest,
// a path of one case, a word does not).
func mixedCase(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return 'a' <= r && r <= 'z' }) >= 0 &&
		strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) >= 0
}

// notVariable: s is not a shell variable ("$PASSWORD", "${TOKEN}"), which names a secret
// without holding it.
func notVariable(s string) bool { return !strings.HasPrefix(s, "$") }

// isBasicCredential: s is base64 of printable "user:password" (so "basic understanding" or a
// base64 word that is not a credential is kept).
func isBasicCredential(s string) bool {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if raw, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "=")); err != nil {
			return false
		}
	}
	colon := strings.IndexByte(string(raw), ':')
	if colon <= 0 || colon == len(raw)-1 {
		return false
	}
	for _, c := range raw {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

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

// classOf returns the byte set of a character class written as in a regexp ("A-Za-z0-9_-").
func classOf(spec string) *[256]bool {
	var set [256]bool
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				set[c] = true
			}
			i += 2
			continue
		}
		set[spec[i]] = true
	}
	return &set
}
