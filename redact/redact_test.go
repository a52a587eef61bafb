package redact_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/redact"
)

// Fake credentials shaped like real ones (none of them is valid anywhere).
const (
	fakeOpenAI      = "sk-abcdefghij0123456789ABCDEFGHIJ0123456789abcdefgh"
	fakeOpenAIPrj   = "sk-proj-Ab3_dEf-9hIjKlMnOpQrStUvWxYz0123456789"
	fakeAnthropic   = "sk-ant-api03-abcDEF123456_ghiJKL789012-mnoPQR"
	fakeAWSID       = "AKIAIOSFODNN7EXAMPLE"
	fakeAWSSecret   = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	fakeGitHub      = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	fakeGitHubPAT   = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"
	fakeGitHubHex   = "0a1b2c3d4e5f67890a1b2c3d4e5f67890a1b2c3d"
	fakeSlack       = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp"
	fakeSlackApp    = "xapp-1-A0123456789-0123456789012-abcdef0123456789abcdef0123456789"
	fakeSlackHook   = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
	fakeGoogle      = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	fakeStripe      = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	fakeStripeTest  = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"
	fakeHF          = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"
	fakeNPM         = "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
	fakeSendGrid    = "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"
	fakeAzureKey    = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	fakeZaxy        = "zx_1f2e3d4c5b6a7988_fiMir8WQf9LEn30AYuMQbdTgI1BP4yWGJXUDBwhSVeg"
	fakeJWT         = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.abc123DEF456"
	fakeGitLab      = "glpat-AbCdEf0123456789xYzW"
	fakeURLPassword = "p@ss/w0rd@x"
)

const fakePEM = `-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun
VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK
-----END RSA PRIVATE KEY-----`

const fakePGP = `-----BEGIN PGP PRIVATE KEY BLOCK-----
Version: GnuPG v2
Comment: test key

lQOYBF0AAAABCADLm5VqkXzv2b6Yg0nH5qXGxJ8gJb4cQqK0mKj2zV4F6d0nZKJd
=Ab3d
-----END PGP PRIVATE KEY BLOCK-----`

var markers = regexp.MustCompile(`\[REDACTED:([a-z0-9_]+)\]`)

func kindsOf(s string) []string {
	var kinds []string
	for _, m := range markers.FindAllStringSubmatch(s, -1) {
		kinds = append(kinds, m[1])
	}
	return kinds
}

// patternCases are the positives (with the secret that must not survive) and near misses
// (want "": unchanged) of every pattern.
var patternCases = []struct {
	name   string
	input  string
	want   string // expected output; "" means unchanged
	secret string // must not survive
}{
	// OpenAI, Anthropic
	{"openai key", "key: " + fakeOpenAI + " end", "key: [REDACTED:openai_api_key] end", fakeOpenAI},
	{"openai project key", "OPENAI_API_KEY=" + fakeOpenAIPrj, "OPENAI_API_KEY=[REDACTED:openai_api_key]", fakeOpenAIPrj},
	{"near miss: sk- inside a word or too short", "risk-assessment-framework-v2 and sk-short1", "", ""},
	{"anthropic key", "use " + fakeAnthropic, "use [REDACTED:anthropic_api_key]", fakeAnthropic},
	{"near miss: sk-ant- too short", "sk-ant-abc123", "", ""},
	// AWS
	{"aws access key id", "id " + fakeAWSID + ".", "id [REDACTED:aws_access_key_id].", fakeAWSID},
	{"aws access key id with a zero-width space inside", "id AKIAIOSF\u200bODNN7EXAMPLE.", "id [REDACTED:aws_access_key_id].", "ODNN7EXAMPLE"},
	{"aws access key id in full-width letters", "id ＡＫＩＡIOSFODNN7EXAMPLE.", "id [REDACTED:aws_access_key_id].", "IOSFODNN7EXAMPLE"},
	{"near miss: AKIA too short or lowercase", "AKIAIOSFODNN7EXAMPL akiaiosfodnn7example", "", ""},
	{"aws secret access key", "aws_secret_access_key = " + fakeAWSSecret + "\n", "aws_secret_access_key = [REDACTED:aws_secret_access_key]\n", fakeAWSSecret},
	{"aws secret env var quoted", `AWS_SECRET_ACCESS_KEY="` + fakeAWSSecret + `"`, `AWS_SECRET_ACCESS_KEY="[REDACTED:aws_secret_access_key]"`, fakeAWSSecret},
	{"aws secret of another length is still a secret", "aws_secret_access_key=tooShortValue123", "aws_secret_access_key=[REDACTED:secret]", "tooShortValue123"},
	{"near miss: aws names without secrets", "aws_region=us-east-1 aws_secret_access_key_id_rotation: 90d", "", ""},
	// GitHub, GitLab
	{"github classic token", "token " + fakeGitHub, "token [REDACTED:github_token]", fakeGitHub},
	{"github oauth and server tokens", "gho_" + strings.Repeat("a1", 18) + " ghs_" + strings.Repeat("B2", 18),
		"[REDACTED:github_token] [REDACTED:github_token]", "a1a1a1"},
	{"github fine-grained pat", fakeGitHubPAT, "[REDACTED:github_token]", fakeGitHubPAT},
	{"github 40-hex token assigned", "export GH_TOKEN=" + fakeGitHubHex, "export GH_TOKEN=[REDACTED:github_token]", fakeGitHubHex},
	{"github 40-hex token in prose", "my github oauth token is " + fakeGitHubHex + ".", "my github oauth token is [REDACTED:github_token].", fakeGitHubHex},
	{"github 40-hex token as a URL user", "git clone https://" + fakeGitHubHex + "@github.com/acme/app", "git clone https://[REDACTED:url_token]@github.com/acme/app", fakeGitHubHex},
	{"near miss: commit SHAs in git log and links", "commit " + fakeGitHubHex + "\nsee https://github.com/acme/app/commit/" + fakeGitHubHex +
		" and GitHub commit " + fakeGitHubHex + "; sha256 " + strings.Repeat("ab", 32), "", ""},
	{"near miss: ghp_ too short", "ghp_abc123 and github_pat_short", "", ""},
	{"gitlab token", "GITLAB=" + fakeGitLab, "GITLAB=[REDACTED:gitlab_token]", fakeGitLab},
	// Slack
	{"slack bot token", "SLACK=" + fakeSlack, "SLACK=[REDACTED:slack_token]", fakeSlack},
	{"slack app token", "app token " + fakeSlackApp, "app token [REDACTED:slack_token]", fakeSlackApp},
	{"slack webhook", "post to " + fakeSlackHook + " now", "post to [REDACTED:slack_webhook] now", "XXXXXXXXXXXXXXXXXXXXXXXX"},
	{"near miss: xoxo hugs and slack docs", "xoxo-hugs-and-kisses-for-you; see https://api.slack.com/messaging/webhooks and xapp-store", "", ""},
	// Google, Stripe, Hugging Face, npm, SendGrid
	{"google api key", "k=" + fakeGoogle, "k=[REDACTED:google_api_key]", fakeGoogle},
	{"near miss: AIza too short", "AIzaSyShort123", "", ""},
	{"stripe live key", "stripe " + fakeStripe, "stripe [REDACTED:stripe_key]", fakeStripe},
	{"stripe test key", "stripe " + fakeStripeTest, "stripe [REDACTED:stripe_key]", fakeStripeTest},
	{"near miss: stripe short or publishable", "sk_live_short sk_test_ pk_test_4eC39HqLyjWDarjtT1zdp7dc", "", ""},
	{"hugging face token", "HF=" + fakeHF, "HF=[REDACTED:huggingface_token]", fakeHF},
	{"near miss: hf_ identifiers", "from huggingface_hub import hf_hub_download; hf_transfer", "", ""},
	{"npm token", "//registry.npmjs.org/:_authToken=" + fakeNPM, "//registry.npmjs.org/:_authToken=[REDACTED:npm_token]", fakeNPM},
	{"near miss: npm_ config names", "npm_config_cache npm_package_version=1.2.3", "", ""},
	{"sendgrid key", "SENDGRID " + fakeSendGrid, "SENDGRID [REDACTED:sendgrid_api_key]", fakeSendGrid},
	{"near miss: SG. in prose", "SG.Group is a company. SG.x.y", "", ""},
	// Azure
	{"azure connection string", "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + fakeAzureKey + ";EndpointSuffix=core.windows.net",
		"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=[REDACTED:azure_key];EndpointSuffix=core.windows.net", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1"},
	{"azure sas signature", "https://acme.blob.core.windows.net/c?sv=2022-11-02&sig=AbCdEf0123456789%2BabcdEFGH%3D",
		"https://acme.blob.core.windows.net/c?sv=2022-11-02&sig=[REDACTED:azure_sas_signature]", "AbCdEf0123456789"},
	{"near miss: AccountName and short keys", "AccountName=acme;AccessKey=short;sig=abc", "", ""},
	// Zaxy's own tokens, JWTs
	{"zaxy token", "ZAXY_MCP_TOKEN=" + fakeZaxy, "ZAXY_MCP_TOKEN=[REDACTED:zaxy_token]", fakeZaxy},
	{"near miss: zx_ identifiers", "zx_spectrum and zx_81", "", ""},
	{"pypi token", "password = pypi-AgEIcHlwaS5vcmc" + strings.Repeat("Ab1_", 15), "password = [REDACTED:pypi_token]", "AgEIcHlwaS5vcmcAb1_"},
	{"pypi token alone", "TWINE: pypi-AgEIcHlwaS5vcmc" + strings.Repeat("Ab1_", 15), "TWINE: [REDACTED:pypi_token]", "AgEIcHlwaS5vcmcAb1_"},
	{"near miss: pypi names", "pip install pypi-simple; pypi-AgEIcHlwaS5vcmc too short", "", ""},
	{"digitalocean token", "DO " + "dop_v1_" + strings.Repeat("0a", 32), "DO [REDACTED:digitalocean_token]", strings.Repeat("0a", 32)},
	{"near miss: dop_v1_ short", "dop_v1_abc", "", ""},
	{"shopify token", "shpat_" + strings.Repeat("a1", 16) + " ok", "[REDACTED:shopify_token] ok", strings.Repeat("a1", 16)},
	{"near miss: shpat_ not hex", "shpat_" + strings.Repeat("zz", 16), "", ""},
	{"age secret key", "AGE-SECRET-KEY-1" + strings.Repeat("QZ", 29), "[REDACTED:age_secret_key]", strings.Repeat("QZ", 29)},
	{"near miss: age public key", "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p", "", ""},
	{"discord webhook", "hook https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz-0123456789", "hook [REDACTED:discord_webhook]", "AbCdEfGhIjKlMnOp"},
	{"near miss: discord docs", "see https://discord.com/developers/docs/resources/webhook", "", ""},
	{"telegram bot token", "bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0 go", "bot [REDACTED:telegram_bot_token] go", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0"},
	{"near miss: times and ratios", "at 12345678:AA and 10:30 ratio 3:1", "", ""},
	{"bare jwt", "id_token " + fakeJWT + " done", "id_token [REDACTED:jwt] done", fakeJWT},
	{"near miss: eyJ in base64 data", `"eyJhbGciOiJIUzI1NiJ9" is base64 of {"alg":"HS256"}; eyJ.eyJ.x`, "", ""},
	// Bearer tokens
	{"authorization header", "Authorization: Bearer xxx", "Authorization: Bearer [REDACTED:authorization_header]", "xxx"},
	{"authorization header in curl", `curl -H "Authorization: Bearer ` + fakeJWT + `" https://api`, `curl -H "Authorization: Bearer [REDACTED:authorization_header]" https://api`, fakeJWT},
	{"bearer token", "send Bearer abc123def456ghi789jkl along", "send Bearer [REDACTED:bearer_token] along", "abc123def456ghi789jkl"},
	{"near miss: bearer in prose", "The bearer of this letter; Bearer tokens are short-lived", "", ""},
	// Private keys
	{"private key block", "key:\n" + fakePEM + "\ndone", "key:\n[REDACTED:private_key]\ndone", "MIIEowIBAAKCAQEAu1SU1"},
	{"pgp private key block", "key:\n" + fakePGP + "\ndone", "key:\n[REDACTED:private_key]\ndone", "lQOYBF0AAAABCADLm5"},
	{"unterminated private key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n", "[REDACTED:private_key]", "b3BlbnNzaC1rZXktdjEAAAAA"},
	{"near miss: public key and certificate", "-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----\n-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQEN\n-----END PGP PUBLIC KEY BLOCK-----\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "", ""},
	// Passwords in URLs
	{"url password", "DATABASE_URL=postgres://app:s3cr3t-Pa55@db.internal:5432/zaxy", "DATABASE_URL=postgres://app:[REDACTED:url_password]@db.internal:5432/zaxy", "s3cr3t-Pa55"},
	{"url password with @ and /", "redis://bob:" + fakeURLPassword + "@cache:6379/0", "redis://bob:[REDACTED:url_password]@cache:6379/0", "w0rd"},
	{"url password p@ss@w0rd", "https://u:p@ss@w0rd@example.com/x", "https://u:[REDACTED:url_password]@example.com/x", "w0rd"},
	{"url password without user", "redis://:hunter22@cache:6379", "redis://:[REDACTED:url_password]@cache:6379", "hunter22"},
	{"near miss: port and user without password", "http://localhost:8080/a@b ssh://git@github.com/x mailto:me@example.com", "", ""},
	// Passwords
	{"password assignment", "password=hunter22 next", "password=[REDACTED:password] next", "hunter22"},
	{"password with @", "password=p@ss@w0rd next", "password=[REDACTED:password] next", "w0rd"},
	{"json password", `{"user": "bob", "password": "p@ss \"word\""}`, `{"user": "bob", "password": "[REDACTED:password]"}`, "p@ss"},
	{"yaml db password", "db:\n  DB_PASSWORD: 'tr0ub4dor'\n", "db:\n  DB_PASSWORD: '[REDACTED:password]'\n", "tr0ub4dor"},
	{"DB_PWD", "DB_PWD=tr0ub4dor ./run", "DB_PWD=[REDACTED:password] ./run", "tr0ub4dor"},
	{"MYSQL_PASS", "MYSQL_PASS: x9", "MYSQL_PASS: [REDACTED:password]", "x9"},
	{"full-width equals", "password＝hunter22 next", "password＝[REDACTED:password] next", "hunter22"},
	{"mysql -p", "mysql -uroot -pS3cr3tPw -h db app", "mysql -uroot -p[REDACTED:password] -h db app", "S3cr3tPw"},
	{"mysqldump -p", "mysqldump --single-transaction -u root -p'a b' db", "mysqldump --single-transaction -u root -p'[REDACTED:password]' db", "a b"},
	{"my password is", "btw my password is hunter2.", "btw my password is [REDACTED:password].", "hunter2"},
	{"the password for x was", "The password for prod was 'correct horse'", "The password for prod was '[REDACTED:password]'", "correct horse"},
	{"near miss: password in prose", "the password policy is strict; passwordless=true; password:; my password manager is great; the password is wrong", "", ""},
	{"near miss: pwd and ports", "OLDPWD=/home/ann PWD=/srv ssh -p2222 host; docker run -p8080:80 img; mysql -u root -p app", "", ""},
	// Issue 30: shapes that reached the log.
	{"aws secret next to its key id", "aws key " + fakeAWSID + " secret " + fakeAWSSecret,
		"aws key [REDACTED:aws_access_key_id] secret [REDACTED:aws_secret_access_key]", fakeAWSSecret},
	{"aws secret after its key id in a csv line", fakeAWSID + "," + fakeAWSSecret + "\n",
		"[REDACTED:aws_access_key_id],[REDACTED:aws_secret_access_key]\n", fakeAWSSecret},
	{"near miss: a key id followed by a sha or a path", fakeAWSID[:4] + "x commit " + fakeGitHubHex + " /usr/local/share/applications/abcdefghijklm", "", ""},
	{"json-escaped password inside content", `note: {\"user\": \"bob\", \"password\": \"hunter2-Secret\"}`,
		`note: {\"user\": \"bob\", \"password\": \"[REDACTED:password]\"}`, "hunter2-Secret"},
	{"json-escaped api key", `{\"api_key\":\"abcdef0123456789\"}`, `{\"api_key\":\"[REDACTED:secret]\"}`, "abcdef0123456789"},
	{"docker login -p", "docker login -u ann -p S3cr3tPass registry.example.com", "docker login -u ann -p [REDACTED:password] registry.example.com", "S3cr3tPass"},
	{"docker login --password", "docker login --username ann --password 'S3cr3t Pass' ghcr.io", "docker login --username ann --password '[REDACTED:password]' ghcr.io", "S3cr3t Pass"},
	{"docker login --password=", "podman login --password=S3cr3tPass quay.io", "podman login --password=[REDACTED:password] quay.io", "S3cr3tPass"},
	{"echo into docker login --password-stdin", "echo S3cr3tPass | docker login --username ann --password-stdin",
		"echo [REDACTED:password] | docker login --username ann --password-stdin", "S3cr3tPass"},
	{"docker login --password-stdin here-string", "docker login -u ann --password-stdin <<< 'S3cr3tPass'",
		"docker login -u ann --password-stdin <<< '[REDACTED:password]'", "S3cr3tPass"},
	{"near miss: docker login with a variable or a prompt", `docker login -u ann -p "$REGISTRY_PASSWORD" r.io; docker login r.io; docker run -p 8080:80 img; echo $PW | docker login --password-stdin`, "", ""},
	{"curl -u", "curl -u admin:S3cr3tPass https://api.example.com/x", "curl -u admin:[REDACTED:password] https://api.example.com/x", "S3cr3tPass"},
	{"curl --user quoted", `curl -s --user 'admin:S3cr3t Pass' https://x`, `curl -s --user 'admin:[REDACTED:password]' https://x`, "S3cr3t Pass"},
	{"curl -uadmin:pw", "curl -uadmin:S3cr3tPass https://x", "curl -uadmin:[REDACTED:password] https://x", "S3cr3tPass"},
	{"near miss: curl without a password", "curl -u admin https://x; curl --user-agent a:b https://x; curl -u $CREDS https://x", "", ""},
	{"hyphenated api key header", "X-Api-Key: abcdef0123456789", "X-Api-Key: [REDACTED:secret]", "abcdef0123456789"},
	{"hyphenated auth token header", "x-auth-token: abcdef0123456789", "x-auth-token: [REDACTED:secret]", "abcdef0123456789"},
	{"bare basic credential", "Authorization was Basic dXNlcjpwYXNzd29yZA== yesterday", "Authorization was Basic [REDACTED:basic_auth] yesterday", "dXNlcjpwYXNzd29yZA=="},
	{"basic credential in a header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED:authorization_header]", "dXNlcjpwYXNzd29yZA=="},
	{"near miss: basic in prose", "a basic understanding; Basic Auth is simple; basic YWJjZGVm is base64 of abcdef", "", ""},
	{"unsigned jwt", "t=" + "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjMifQ", "t=[REDACTED:jwt]", "eyJzdWIiOiIxMjMifQ"},
	// Generic secrets
	{"client secret assignment", "client_secret: 9f8e7d6c5b4a", "client_secret: [REDACTED:secret]", "9f8e7d6c5b4a"},
	{"near miss: short or unassigned secret", "secret: true; max_tokens=4096; a secret garden", "", ""},
	{"near miss: uuids, image data, hashes", "id 7c9e6679-7425-40de-944b-e07fc1f142a3 data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg== sha " + strings.Repeat("0f", 32), "", ""},
}

func TestString_Patterns(t *testing.T) {
	t.Parallel()
	for _, tc := range patternCases {
		t.Run(tc.name, func(t *testing.T) {
			got, n := redact.String(tc.input)
			want := tc.want
			if want == "" {
				want = tc.input
			}
			require.Equal(t, want, got)
			require.Equal(t, len(kindsOf(want))-len(kindsOf(tc.input)), n)
			if tc.secret != "" {
				require.NotContains(t, got, tc.secret)
			}
			again, n := redact.String(got)
			require.Equal(t, got, again, "idempotent")
			require.Zero(t, n)
		})
	}
}

func TestString_OverlapsAreRedactedOnce(t *testing.T) {
	t.Parallel()
	// A key inside a private key block, and a key assigned to a password.
	out, n := redact.String("-----BEGIN PRIVATE KEY-----\n" + fakeGitHub + "\n-----END PRIVATE KEY-----\npassword=" + fakeOpenAI)
	require.Equal(t, "[REDACTED:private_key]\npassword=[REDACTED:openai_api_key]", out)
	require.Equal(t, 2, n)

	// A key that starts inside a match and runs on past it is replaced to its end.
	out, n = redact.String("-----BEGIN PRIVATE KEY-----\nabc " + fakeOpenAI + " tail")
	require.Equal(t, "[REDACTED:private_key][REDACTED:openai_api_key] tail", out)
	require.Equal(t, 2, n)
}

func TestString_UnicodeIsMatchedThroughAndKept(t *testing.T) {
	t.Parallel()
	// Invisible characters and full-width forms inside secrets; the text around is untouched.
	in := "Ça va? ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２２ then sk-ant-\u200dapi03-abcDEF123456_ghiJKL789012-mnoPQR\u200b and é"
	out, n := redact.String(in)
	require.Equal(t, 2, n, out)
	require.Equal(t, "Ça va? ｐａｓｓｗｏｒｄ：[REDACTED:password] then [REDACTED:anthropic_api_key] and é", out)
}

func TestString_IsIdempotentAndLinear(t *testing.T) {
	t.Parallel()
	in := strings.Repeat(`password=x "password": "y" sk-ant- AKIA -----BEGIN PRIVATE KEY----- https://a:b@ my password is `, 20000)
	out, _ := redact.String(in)
	again, n := redact.String(out)
	require.Equal(t, out, again)
	require.Zero(t, n)
}

func TestJSON_RedactsValuesAtAnyDepthAndSecretKeys(t *testing.T) {
	t.Parallel()
	in := `{"name":"Ann ` + fakeGitHub + `","n":1.50,"ok":true,"env":{"DB_PASSWORD":"short","apiKey":"abc","list":["x",{"note":"pw ` + fakeAWSID + `"}]},` +
		`"max_tokens":4096,"token_count":"12","safe":"<b>&</b>"}`
	out, n, err := redact.JSON([]byte(in))
	require.NoError(t, err)
	require.Equal(t, 4, n, string(out))
	s := string(out)
	for _, secret := range []string{fakeGitHub, "short", `"abc"`, fakeAWSID} {
		require.NotContains(t, s, secret)
	}
	require.Contains(t, s, `"DB_PASSWORD":"[REDACTED:password]"`)
	require.Contains(t, s, `"apiKey":"[REDACTED:secret]"`)
	require.Contains(t, s, `"n":1.50`, "numbers keep their spelling")
	require.Contains(t, s, `"token_count":"12"`, "keys that only mention tokens are kept")
	require.Contains(t, s, `"safe":"<b>&</b>"`)

	again, n, err := redact.JSON(out)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, string(out), string(again))

	keys, n, err := redact.JSON([]byte(`{"` + fakeAWSID + `":1,"x":{"` + fakeGitHub + `":"v","[REDACTED:github_token]":"w"}}`))
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.JSONEq(t, `{"[REDACTED:aws_access_key_id]":1,"x":{"[REDACTED:github_token]":"w","[REDACTED:github_token] (2)":"v"}}`, string(keys),
		"keys are renamed, never merged")
	again, n, err = redact.JSON(keys)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, string(keys), string(again))

	clean := []byte(`{ "a" : "plain", "b": [1, 2] }`)
	same, n, err := redact.JSON(clean)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, string(clean), string(same), "untouched when nothing is redacted")
	nothing, n, err := redact.JSON(nil)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Nil(t, nothing)
}

// A long secret is replaced whole even past the look-ahead window, and a megabyte on one
// line full of hints takes linear time (a quadratic scan would take minutes).
func TestString_LongLinesAndLongSecrets(t *testing.T) {
	t.Parallel()
	long := "eyJhbGciOiJIUzI1NiJ9.eyJ" + strings.Repeat("a", 9000) + ".sig"
	out, n := redact.String("x " + long + " y")
	require.Equal(t, 1, n)
	require.Equal(t, "x [REDACTED:jwt] y", out)

	item := `{"url":"https://example.com/a/b?c=d","token_count":12,"note":"password policy","k":"sk-x"},`
	line := strings.Repeat(item, (1<<20)/len(item))
	start := time.Now()
	out, n = redact.String(line)
	require.Zero(t, n, out[:200])
	require.Less(t, time.Since(start), 10*time.Second)
}

// Every match any pattern finds in the test cases is at least as long as the bound the
// redactor skips shorter texts by (redact/minlen.go): the skip never hides a secret the
// patterns would find.
func TestPatternBounds_HoldOnEveryCase(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, tc := range patternCases {
		for _, p := range redact.PatternBounds() {
			for _, m := range p.Re.FindAllString(tc.input, -1) {
				require.GreaterOrEqual(t, len(m), p.MinLen, "%s in case %q: match %q", p.Kind, tc.name, m)
				checked++
			}
		}
	}
	require.Greater(t, checked, 50, "the cases exercise the patterns")
}

// Data keys spelled with hyphens, as HTTP headers are, name secrets too.
func TestJSON_HyphenatedKeysAreSecretKeys(t *testing.T) {
	t.Parallel()
	in := `{"X-Api-Key":"k1","x-auth-token":"k2","api-key":"k3","headers":{"X-Access-Key":"k4","Private-Key":"k5"},"x-request-id":"r1"}`
	out, n, err := redact.JSON([]byte(in))
	require.NoError(t, err)
	require.Equal(t, 5, n, string(out))
	require.JSONEq(t, `{"X-Api-Key":"[REDACTED:secret]","x-auth-token":"[REDACTED:secret]","api-key":"[REDACTED:secret]",`+
		`"headers":{"X-Access-Key":"[REDACTED:secret]","Private-Key":"[REDACTED:secret]"},"x-request-id":"r1"}`, string(out))
}

// Redaction never makes a large text longer: markers longer than their secrets are used
// while the text stays within max(its size, 4 KiB), then "[REDACTED]", then "*" masks.
// Every secret is still replaced, and redacting again changes nothing.
func TestString_GrowthIsCapped(t *testing.T) {
	t.Parallel()
	for _, unit := range []string{"a_pw=x\n", "id " + fakeAWSID + "\n", "password=hunter22 ", `curl -u a:b https://x` + "\n"} {
		in := strings.Repeat(unit, (1<<20)/len(unit))
		out, n := redact.String(in)
		require.Equal(t, (1<<20)/len(unit), n, unit)
		require.LessOrEqual(t, len(out), len(in), "%q: %d bytes became %d", unit, len(in), len(out))
		again, n := redact.String(out)
		require.Zero(t, n, unit)
		require.Equal(t, out, again)
	}
	require.NotContains(t, strings.Join(strings.Fields(mustString(strings.Repeat("password=hunter22 ", 60000))), ""), "hunter22")

	// A small text keeps its full markers.
	out, _ := redact.String("a_pw=x")
	require.Equal(t, "a_pw=[REDACTED:password]", out)

	// The same for a JSON document: one allowance for all its strings.
	items := make([]string, 50000)
	for i := range items {
		items[i] = `{"password":"x","note":"a_pw=y"}`
	}
	doc := `{"items":[` + strings.Join(items, ",") + `]}`
	got, n, err := redact.JSON([]byte(doc))
	require.NoError(t, err)
	require.Equal(t, 100000, n)
	require.LessOrEqual(t, len(got), len(doc))
	require.NotContains(t, string(got), `"x"`)
	require.NotContains(t, string(got), `=y`)
}

func mustString(s string) string { out, _ := redact.String(s); return out }

// A value is matched whole however long it is: a quoted value with spaces longer than any
// look-ahead (its closing quote hundreds of bytes after the name), a 4 KiB token, and values
// whose end falls at every offset around the lengths a scan might stop at (256, 512, 4096
// bytes after the hint), with text after them on the line.
func TestString_LongValuesAreMatchedWhole(t *testing.T) {
	t.Parallel()
	words := func(n int) string { return strings.Repeat("correct horse battery staple ", n/29+1)[:n] }
	b64 := func(n int) string { return strings.Repeat("QmFzZTY0U2VjcmV0K1Rva2VuLz0x", n/28+1)[:n] }
	type tc struct{ in, want, secret string }
	var cases []tc
	for _, n := range []int{200, 239, 240, 241, 255, 256, 257, 300, 511, 512, 513, 1000, 4090, 4096, 4100, 10000} {
		v := words(n) + "X"
		cases = append(cases,
			tc{`password="` + v + `" and more`, `password="[REDACTED:password]" and more`, v},
			tc{`password: '` + v + `' and more`, `password: '[REDACTED:password]' and more`, v},
			tc{`{\"password\": \"` + v + `\"} and more`, `{\"password\": \"[REDACTED:password]\"} and more`, v},
			tc{`my password is "` + v + `" and more`, `my password is "[REDACTED:password]" and more`, v},
			tc{`mysql -p'` + v + `' db; ls`, `mysql -p'[REDACTED:password]' db; ls`, v},
			tc{`docker login -u me --password "` + v + `" r.io`, `docker login -u me --password "[REDACTED:password]" r.io`, v},
		)
		tok := b64(n) + "Z"
		cases = append(cases,
			tc{`token=` + tok + ` and more`, `token=[REDACTED:secret] and more`, tok},
			tc{`api_key: "` + tok + `" and more`, `api_key: "[REDACTED:secret]" and more`, tok},
			tc{`Authorization: Bearer ` + tok + ` and more`, `Authorization: Bearer [REDACTED:authorization_header] and more`, tok},
			tc{`x sk-ant-` + tok[:max(20, n/2)] + `_1 y`, `x [REDACTED:anthropic_api_key] y`, tok[:20]},
		)
	}
	cases = append(cases, tc{"token=" + b64(4096) + "\nnext", "token=[REDACTED:secret]\nnext", b64(4096)})
	for _, c := range cases {
		out, n := redact.String(c.in)
		require.Equal(t, 1, n, "%.80q (%d bytes)", c.in, len(c.in))
		require.Equal(t, c.want, out, "%.80q (%d bytes)", c.in, len(c.in))
		require.NotContains(t, out, c.secret)
	}
}
