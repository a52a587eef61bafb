package ingest_test

// Fake credentials shaped like real ones (none of them is valid anywhere); package redact's
// tests cover every pattern, these check that ingest applies them.
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
