package ingest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/ingest"
)

// Fake credentials shaped like real ones (none of them is valid anywhere).
const (
	fakeOpenAI    = "sk-abcdefghij0123456789ABCDEFGHIJ0123456789abcdefgh"
	fakeOpenAIPrj = "sk-proj-Ab3_dEf-9hIjKlMnOpQrStUvWxYz0123456789"
	fakeAnthropic = "sk-ant-api03-abcDEF123456_ghiJKL789012-mnoPQR"
	fakeAWSID     = "AKIAIOSFODNN7EXAMPLE"
	fakeAWSSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	fakeGitHub    = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	fakeGitHubPAT = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"
	fakeSlack     = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp"
	fakeGoogle    = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	fakeStripe    = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	fakeJWT       = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.abc123DEF456"
)

const fakePEM = `-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun
VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK
-----END RSA PRIVATE KEY-----`

func TestRedact_Patterns(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		input  string
		want   string // expected output; "" means unchanged
		kinds  []string
		secret string // must not survive
	}{
		// OpenAI
		{"openai key", "key: " + fakeOpenAI + " end", "key: [REDACTED:openai_api_key] end", []string{"openai_api_key"}, fakeOpenAI},
		{"openai project key", "OPENAI_API_KEY=" + fakeOpenAIPrj, "OPENAI_API_KEY=[REDACTED:openai_api_key]", []string{"openai_api_key"}, fakeOpenAIPrj},
		{"near miss: sk- inside a word or too short", "risk-assessment-framework-v2 and sk-short1", "", nil, ""},
		// Anthropic
		{"anthropic key", "use " + fakeAnthropic, "use [REDACTED:anthropic_api_key]", []string{"anthropic_api_key"}, fakeAnthropic},
		{"near miss: sk-ant- too short", "sk-ant-abc123", "", nil, ""},
		// AWS
		{"aws access key id", "id " + fakeAWSID + ".", "id [REDACTED:aws_access_key_id].", []string{"aws_access_key_id"}, fakeAWSID},
		{"near miss: AKIA too short or lowercase", "AKIAIOSFODNN7EXAMPL akiaiosfodnn7example", "", nil, ""},
		{"aws secret access key", "aws_secret_access_key = " + fakeAWSSecret + "\n", "aws_secret_access_key = [REDACTED:aws_secret_access_key]\n", []string{"aws_secret_access_key"}, fakeAWSSecret},
		{"aws secret env var quoted", `AWS_SECRET_ACCESS_KEY="` + fakeAWSSecret + `"`, `AWS_SECRET_ACCESS_KEY="[REDACTED:aws_secret_access_key]"`, []string{"aws_secret_access_key"}, fakeAWSSecret},
		{"near miss: aws secret of the wrong length", "aws_secret_access_key=tooShortValue123", "", nil, ""},
		// GitHub
		{"github classic token", "token " + fakeGitHub, "token [REDACTED:github_token]", []string{"github_token"}, fakeGitHub},
		{"github oauth and server tokens", "gho_" + strings.Repeat("a1", 18) + " ghs_" + strings.Repeat("B2", 18),
			"[REDACTED:github_token] [REDACTED:github_token]", []string{"github_token", "github_token"}, "a1a1a1"},
		{"github fine-grained pat", fakeGitHubPAT, "[REDACTED:github_token]", []string{"github_token"}, fakeGitHubPAT},
		{"near miss: ghp_ too short", "ghp_abc123 and github_pat_short", "", nil, ""},
		// Slack
		{"slack bot token", "SLACK=" + fakeSlack, "SLACK=[REDACTED:slack_token]", []string{"slack_token"}, fakeSlack},
		{"near miss: xoxo hugs", "xoxo-hugs-and-kisses-for-you", "", nil, ""},
		// Google
		{"google api key", "k=" + fakeGoogle, "k=[REDACTED:google_api_key]", []string{"google_api_key"}, fakeGoogle},
		{"near miss: AIza too short", "AIzaSyShort123", "", nil, ""},
		// Stripe
		{"stripe live key", "stripe " + fakeStripe, "stripe [REDACTED:stripe_key]", []string{"stripe_key"}, fakeStripe},
		{"near miss: stripe test-looking or short", "sk_live_short", "", nil, ""},
		// Bearer tokens
		{"authorization header", "Authorization: Bearer xxx", "Authorization: Bearer [REDACTED:authorization_header]", []string{"authorization_header"}, "xxx"},
		{"authorization header in curl", `curl -H "Authorization: Bearer ` + fakeJWT + `" https://api`, `curl -H "Authorization: Bearer [REDACTED:authorization_header]" https://api`, []string{"authorization_header"}, fakeJWT},
		{"bare bearer token", "send Bearer " + fakeJWT + " along", "send Bearer [REDACTED:bearer_token] along", []string{"bearer_token"}, fakeJWT},
		{"near miss: bearer in prose", "The bearer of this letter; Bearer tokens are short-lived", "", nil, ""},
		// Private keys
		{"private key block", "key:\n" + fakePEM + "\ndone", "key:\n[REDACTED:private_key]\ndone", []string{"private_key"}, "MIIEowIBAAKCAQEAu1SU1"},
		{"unterminated private key block", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n", "[REDACTED:private_key]", []string{"private_key"}, "b3BlbnNzaC1rZXktdjEAAAAA"},
		{"near miss: public key and certificate", "-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "", nil, ""},
		// Passwords in URLs
		{"url password", "DATABASE_URL=postgres://app:s3cr3t-Pa55@db.internal:5432/zaxy", "DATABASE_URL=postgres://app:[REDACTED:url_password]@db.internal:5432/zaxy", []string{"url_password"}, "s3cr3t-Pa55"},
		{"url password https", "see https://bob:hunter2@example.com/x", "see https://bob:[REDACTED:url_password]@example.com/x", []string{"url_password"}, "hunter2"},
		{"near miss: port and user without password", "http://localhost:8080/a@b ssh://git@github.com/x mailto:me@example.com", "", nil, ""},
		// Generic password assignments
		{"password assignment", "password=hunter22 next", "password=[REDACTED:password] next", []string{"password"}, "hunter22"},
		{"json password", `{"user": "bob", "password": "p@ss \"word\""}`, `{"user": "bob", "password": "[REDACTED:password]"}`, []string{"password"}, "p@ss"},
		{"yaml db password", "db:\n  DB_PASSWORD: 'tr0ub4dor'\n", "db:\n  DB_PASSWORD: '[REDACTED:password]'\n", []string{"password"}, "tr0ub4dor"},
		{"near miss: password in prose", "the password policy is strict; passwordless=true; password:", "", nil, ""},
		// Generic secrets
		{"client secret assignment", "client_secret: 9f8e7d6c5b4a", "client_secret: [REDACTED:secret]", []string{"secret"}, "9f8e7d6c5b4a"},
		{"near miss: short or unassigned secret", "secret: true; max_tokens=4096; a secret garden", "", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, reds := ingest.Redact(tc.input)
			want := tc.want
			if want == "" {
				want = tc.input
			}
			require.Equal(t, want, got)
			var kinds []string
			for _, r := range reds {
				kinds = append(kinds, r.Kind)
				require.Greater(t, r.End, r.Start)
			}
			require.Equal(t, tc.kinds, kinds)
			if tc.secret != "" {
				require.NotContains(t, got, tc.secret)
			}
		})
	}
}

func TestRedact_OffsetsPointIntoTheInput(t *testing.T) {
	t.Parallel()
	in := "a " + fakeAnthropic + " b https://u:pw1234@h/ c " + fakeAWSID
	out, reds := ingest.Redact(in)
	require.Len(t, reds, 3)
	require.Equal(t, fakeAnthropic, in[reds[0].Start:reds[0].End])
	require.Equal(t, "pw1234", in[reds[1].Start:reds[1].End])
	require.Equal(t, fakeAWSID, in[reds[2].Start:reds[2].End])
	// Rebuilding from the redactions gives the output.
	var b strings.Builder
	prev := 0
	for _, r := range reds {
		b.WriteString(in[prev:r.Start] + "[REDACTED:" + r.Kind + "]")
		prev = r.End
	}
	b.WriteString(in[prev:])
	require.Equal(t, out, b.String())
}

func TestRedact_OverlapsAreRedactedOnce(t *testing.T) {
	t.Parallel()
	// A key inside a private key block, and a key assigned to a password.
	out, reds := ingest.Redact("-----BEGIN PRIVATE KEY-----\n" + fakeGitHub + "\n-----END PRIVATE KEY-----\npassword=" + fakeOpenAI)
	require.Equal(t, "[REDACTED:private_key]\npassword=[REDACTED:openai_api_key]", out)
	require.Len(t, reds, 2)

	// A key that starts inside a match and runs on past it is replaced to its end.
	out, reds = ingest.Redact("-----BEGIN PRIVATE KEY-----\nabc " + fakeOpenAI + " tail")
	require.Equal(t, "[REDACTED:private_key][REDACTED:openai_api_key] tail", out)
	require.Len(t, reds, 2)
	require.Equal(t, reds[0].End, reds[1].Start)
}

func TestRedact_IsIdempotentAndLinear(t *testing.T) {
	t.Parallel()
	in := strings.Repeat(`password=x "password": "y" sk-ant- AKIA -----BEGIN PRIVATE KEY----- https://a:b@ `, 20000)
	out, _ := ingest.Redact(in)
	again, reds := ingest.Redact(out)
	require.Equal(t, out, again)
	require.Empty(t, reds)
}

func FuzzRedact(f *testing.F) {
	f.Add("password=hunter22 " + fakeOpenAI)
	f.Add(fakePEM + "\nhttps://u:p@h Authorization: Bearer x")
	f.Add(`{"client_secret": "abcdefgh\"ij"} AKIAIOSFODNN7EXAMPLE`)
	f.Fuzz(func(t *testing.T, in string) {
		out, reds := ingest.Redact(in)
		var b strings.Builder
		prev := 0
		for _, r := range reds {
			require.GreaterOrEqual(t, r.Start, prev, "redactions are ordered and do not overlap")
			require.Greater(t, r.End, r.Start)
			b.WriteString(in[prev:r.Start] + "[REDACTED:" + r.Kind + "]")
			prev = r.End
		}
		b.WriteString(in[prev:])
		require.Equal(t, b.String(), out)
	})
}
