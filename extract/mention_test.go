package extract_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/extract"
)

// want is an expected mention; its offsets are found by searching the text from the end of
// the previous one, so a table row reads like the sentence.
type want struct{ kind, text, key string }

func name(text, key string) want   { return want{extract.KindName, text, key} }
func handle(text, key string) want { return want{extract.KindHandle, text, key} }
func path(text, key string) want   { return want{extract.KindPath, text, key} }
func url(text, key string) want    { return want{extract.KindURL, text, key} }
func email(text, key string) want  { return want{extract.KindEmail, text, key} }
func ident(text, key string) want  { return want{extract.KindIdentifier, text, key} }

// mentionCases are sentences from agent work (chat turns, review notes, tool output,
// Markdown) with every mention expected in them, known misses included.
var mentionCases = []struct {
	text string
	want []want
}{
	{"Alice fixed the flaky test in eventloom/append_test.go and pushed it.", []want{
		name("Alice", "alice"),
		path("eventloom/append_test.go", "eventloom/append_test.go"),
	}},
	{"Thanks, Alice! Can you ask Bob Smith to review PR #42 before Friday?", []want{
		name("Alice", "alice"),
		name("Bob Smith", "bob smith"),
		name("PR", "pr"),
	}},
	{"The migration failed: ERROR: relation \"entities\" does not exist (SQLSTATE 42P01)", []want{
		name("SQLSTATE", "sqlstate"),
	}},
	{"I think we should move from Redis to Postgres with Apache AGE for the graph.", []want{
		name("Redis", "redis"),
		name("Postgres", "postgres"),
		name("Apache AGE", "apache age"),
	}},
	{"When you call extract.Mentions(text), the keys are lowercased.", []want{
		ident("extract.Mentions", "extract.mentions"),
	}},
	{"./cmd/zaxy/main.go:42:7: undefined: runServer", []want{
		path("./cmd/zaxy/main.go", "cmd/zaxy/main.go"),
		ident("runServer", "runserver"),
	}},
	{"See https://github.com/zaxy/zaxy/pull/17 (merged) and the docs at docs/extraction.md.", []want{
		url("https://github.com/zaxy/zaxy/pull/17", "https://github.com/zaxy/zaxy/pull/17"),
		path("docs/extraction.md", "docs/extraction.md"),
	}},
	{"Ping @alice and @zaxy/core if the build on main breaks again.", []want{
		handle("@alice", "@alice"),
		handle("@zaxy/core", "@zaxy/core"),
	}},
	{"Send the report to Alice.Smith@Example.com by Monday.", []want{
		email("Alice.Smith@Example.com", "alice.smith@example.com"),
	}},
	{"Use `snake_case` for column names and camelCase for JSON fields; HTTPServer and ServeHTTP are Go.", []want{
		ident("snake_case", "snake_case"),
		ident("camelCase", "camelcase"),
		name("JSON", "json"),
		ident("HTTPServer", "httpserver"),
		ident("ServeHTTP", "servehttp"),
		name("Go", "go"),
	}},
	{"Project Falcon ships in March; Sarah from New York leads it.", []want{
		name("Project Falcon", "project falcon"),
		name("Sarah", "sarah"),
		name("New York", "new york"),
	}},
	{"The config lives in /etc/zaxy/config.yaml, or C:\\Users\\bob\\zaxy.ini on Windows.", []want{
		path("/etc/zaxy/config.yaml", "/etc/zaxy/config.yaml"),
		path("C:\\Users\\bob\\zaxy.ini", "C:\\Users\\bob\\zaxy.ini"),
		name("Windows", "windows"),
	}},
	{"It's fine. This works. When Jean-Luc Picard reviewed GPT-4 output he said it was OK.", []want{
		name("Jean-Luc Picard", "jean-luc picard"),
		name("GPT-4", "gpt-4"),
	}},
	{"Alice's review of Bob's change mentioned the University of Toronto dataset.", []want{
		name("Alice", "alice"),
		name("Bob", "bob"),
		name("University of Toronto", "university of toronto"),
	}},
	{"Run go test ./... and check ZAXY_TEST_DATABASE_URL is set.", []want{
		ident("ZAXY_TEST_DATABASE_URL", "zaxy_test_database_url"),
	}},
	{"Deploying Zaxy to fly.io tomorrow, see [the guide](https://fly.io/docs/postgres/) first.", []want{
		name("Zaxy", "zaxy"),
		url("fly.io", "fly.io"),
		url("https://fly.io/docs/postgres/", "https://fly.io/docs/postgres/"),
	}},
	{"panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV]", []want{
		name("SIGSEGV", "sigsegv"),
	}},
	{"The AWS bill went up because the RDS instance in us-east-1 was oversized.", []want{
		name("AWS", "aws"),
		name("RDS", "rds"),
	}},
	{"We use std::vector and Foo::bar in the C++ service, plus os.Exit(1) in Go.", []want{
		ident("std::vector", "std::vector"),
		ident("Foo::bar", "foo::bar"),
		ident("os.Exit", "os.exit"),
		name("Go", "go"),
	}},
	{"Node.js and Vue.js are not paths, but package.json and .env are files.", []want{
		name("Node.js", "node.js"),
		name("Vue.js", "vue.js"),
		path("package.json", "package.json"),
		path(".env", ".env"),
	}},
	{"Dr. Smith and Mr. O'Brien met Ludwig van Beethoven in Bonn.", []want{
		name("Smith", "smith"),
		name("O'Brien", "o'brien"),
		name("Ludwig van Beethoven", "ludwig van beethoven"),
		name("Bonn", "bonn"),
	}},
	{"Connect with postgres://postgres:secret@DB.internal:5432/zaxy?sslmode=disable please.", []want{
		url("postgres://postgres:secret@DB.internal:5432/zaxy?sslmode=disable", "postgres://db.internal:5432/zaxy?sslmode=disable"),
	}},
	{"* The projector runs in `projection/projector.go` (see `Projector.Apply`).", []want{
		path("projection/projector.go", "projection/projector.go"),
		ident("Projector.Apply", "projector.apply"),
	}},
	{"LGTM, but nit: rename `fooBar` to `foo_bar` in api/errors.go.", []want{
		ident("fooBar", "foobar"),
		ident("foo_bar", "foo_bar"),
		path("api/errors.go", "api/errors.go"),
	}},
	{"Fixed the leak in pgxpool.Pool; thanks Maria!", []want{
		ident("pgxpool.Pool", "pgxpool.pool"),
		name("Maria", "maria"),
	}},
	{"FAIL\tgithub.com/zaxy/zaxy/eventloom\t0.412s", []want{
		url("github.com/zaxy/zaxy/eventloom", "github.com/zaxy/zaxy/eventloom"),
	}},
	{"--- FAIL: TestAppend_RejectsUpdate (0.03s)", []want{
		ident("TestAppend_RejectsUpdate", "testappend_rejectsupdate"),
	}},
	{"Yesterday Maria said the Berlin office moves to Kubernetes next quarter.", []want{
		name("Maria", "maria"),
		name("Berlin", "berlin"),
		name("Kubernetes", "kubernetes"),
	}},
	{"Can you open https://en.wikipedia.org/wiki/Graph_(abstract_data_type) and HTTPS://Example.COM/Docs/.", []want{
		url("https://en.wikipedia.org/wiki/Graph_(abstract_data_type)", "https://en.wikipedia.org/wiki/Graph_(abstract_data_type)"),
		url("HTTPS://Example.COM/Docs/", "https://example.com/Docs/"),
	}},
	// Known limit: a lone capitalized word opening a sentence is dropped unless the name
	// recurs mid-sentence or a verb people do follows it.
	{"Sure. Postgres is down again, and Maria is on it.", []want{
		name("Maria", "maria"),
	}},
	{"I'll ask the Data Platform team about RUM indexes.", []want{
		name("Data Platform", "data platform"),
		name("RUM", "rum"),
	}},
	{"Set ZAXY_ADDR=127.0.0.1:8080 and --out=dist/app.js before you call Run(ctx, args, env).", []want{
		ident("ZAXY_ADDR", "zaxy_addr"),
		path("dist/app.js", "dist/app.js"),
		ident("Run", "run"),
	}},
	{"Email bob@corp.example.org or mailto:carol@example.com for access.", []want{
		email("bob@corp.example.org", "bob@corp.example.org"),
		email("carol@example.com", "carol@example.com"),
	}},
	{"The file C:/Users/bob/notes.txt and \\\\fileserver\\share\\q3.xlsx are on the NAS.", []want{
		path("C:/Users/bob/notes.txt", "C:/Users/bob/notes.txt"),
		path("\\\\fileserver\\share\\q3.xlsx", "\\\\fileserver\\share\\q3.xlsx"),
		name("NAS", "nas"),
	}},
	{"Read README.md, then src/, then internal/graph before touching cmd/zaxy.", []want{
		path("README.md", "README.md"),
		path("src/", "src"),
		path("internal/graph", "internal/graph"),
		path("cmd/zaxy", "cmd/zaxy"),
	}},
	{"Use ~/go/bin/golangci-lint or ../tools/lint.sh locally.", []want{
		path("~/go/bin/golangci-lint", "~/go/bin/golangci-lint"),
		path("../tools/lint.sh", "../tools/lint.sh"),
	}},
	{"It's a PostgreSQL 17 feature; MySQL doesn't have it.", []want{
		ident("PostgreSQL", "postgresql"),
		ident("MySQL", "mysql"),
	}},
	{"Zoë Müller and José Álvarez joined the São Paulo team.", []want{
		name("Zoë Müller", "zoë müller"),
		name("José Álvarez", "josé álvarez"),
		name("São Paulo", "são paulo"),
	}},
	{"This is why we don't use and/or in docs, e.g. read/write or 24/7.", nil},
	{"The `Mentions` function and the `Config` struct are documented.", []want{
		ident("Mentions", "mentions"),
		ident("Config", "config"),
	}},
	{"OpenAI's API and Ollama both speak /v1/chat/completions.", []want{
		ident("OpenAI", "openai"),
		name("API", "api"),
		name("Ollama", "ollama"),
		path("/v1/chat/completions", "/v1/chat/completions"),
	}},
	{"Who owns the roadmap? Ask Priya or @priya-k on Slack.", []want{
		name("Priya", "priya"),
		handle("@priya-k", "@priya-k"),
		name("Slack", "slack"),
	}},
	{"{\"subject\":\"Alice\",\"predicate\":\"works_at\",\"object\":\"Acme Corp\"}", []want{
		name("Alice", "alice"),
		ident("works_at", "works_at"),
		name("Acme Corp", "acme corp"),
	}},
	{"> **Note:** the `temperature` field must be 0 — see <https://platform.openai.com/docs>.", []want{
		ident("temperature", "temperature"),
		url("https://platform.openai.com/docs", "https://platform.openai.com/docs"),
	}},
	{"Released v0.3.0 on 2024-05-01 at 10:30 UTC; 95% of 1,000 tests passed.", nil},
	{"Redis is down. We are moving the queue to Redis Cluster.", []want{
		name("Redis", "redis"),
		name("Redis Cluster", "redis cluster"),
	}},
	// Known limit: "Alice" opens the sentence and "and" is not a verb people do.
	{"Alice and Bob merged the Postgres-backed queue; the Kafka-based one is gone.", []want{
		name("Bob", "bob"),
		name("Postgres", "postgres"),
		name("Kafka", "kafka"),
	}},
	{"user: can you check why Priya’s “Project Falcon” dashboard is empty?", []want{
		name("Priya", "priya"),
		name("Project Falcon", "project falcon"),
	}},
	{"assistant: I looked at grafana/dashboards/falcon.json and the query uses ts_rank_cd().", []want{
		path("grafana/dashboards/falcon.json", "grafana/dashboards/falcon.json"),
		ident("ts_rank_cd()", "ts_rank_cd"),
	}},
	{"## Running Zaxy locally", []want{
		name("Zaxy", "zaxy"),
	}},
	{"Start Postgres 17 with `make db` and export ZAXY_DATABASE_URL, then run `zaxy serve`.", []want{
		name("Postgres", "postgres"),
		ident("ZAXY_DATABASE_URL", "zaxy_database_url"),
	}},
	{"Smith et al. showed that HNSW beats IVFFlat on recall; see arXiv for details.", []want{
		name("HNSW", "hnsw"),
		ident("IVFFlat", "ivfflat"),
		ident("arXiv", "arxiv"),
	}},
	{"The RFC 8785 canonical JSON spec differs from jsonb::text output.", []want{
		name("RFC", "rfc"),
		name("JSON", "json"),
		ident("jsonb::text", "jsonb::text"),
	}},
	{"Hey @bob, the /healthz probe on api.zaxy.dev returns 503 since the v2 deploy.", []want{
		handle("@bob", "@bob"),
		path("/healthz", "/healthz"),
		url("api.zaxy.dev", "api.zaxy.dev"),
	}},
	{"TypeError: Cannot read properties of undefined (reading 'map') at renderList (src/components/List.tsx:17:9)", []want{
		ident("TypeError", "typeerror"),
		ident("renderList", "renderlist"),
		path("src/components/List.tsx", "src/components/List.tsx"),
	}},
	{"Traceback: File \"/app/worker.py\", line 88, in handle_event", []want{
		path("/app/worker.py", "/app/worker.py"),
		ident("handle_event", "handle_event"),
	}},
	// A line break ends a name; a lone capitalized word opening a line counts as a sentence
	// opener.
	{"Sarah moved Project Falcon from New\nYork to Boston.", []want{
		name("Sarah", "sarah"),
		name("Project Falcon", "project falcon"),
		name("New", "new"),
		name("Boston", "boston"),
	}},
	// Each Markdown table cell starts like a sentence.
	{"| Component | Owner |\n|---|---|\n| Eventloom | Alice Smith |\n| Checkout | @bob |", []want{
		name("Alice Smith", "alice smith"),
		handle("@bob", "@bob"),
	}},
	{"```go\nfunc (s *Store) Append(ctx context.Context, ev Event) error {\n\treturn s.db.Exec(ctx, q)\n}\n```", []want{
		name("Store", "store"),
		ident("Append", "append"),
		ident("context.Context", "context.context"),
		name("Event", "event"),
		ident("s.db.Exec", "s.db.exec"),
	}},
	{"Thanks to [Alice](https://github.com/alice) and (see Bob) for “Zaxy” vs Mem0.", []want{
		name("Alice", "alice"),
		url("https://github.com/alice", "https://github.com/alice"),
		name("Bob", "bob"),
		name("Zaxy", "zaxy"),
		name("Mem0", "mem0"),
	}},
	{"", nil},
	{"   \n\t ", nil},
}

func TestMentions_RealisticSentences(t *testing.T) {
	for i, tc := range mentionCases {
		t.Run(fmt.Sprintf("%02d_%s", i, firstWords(tc.text)), func(t *testing.T) {
			var expected []extract.Mention
			cursor := 0
			for _, w := range tc.want {
				k := strings.Index(tc.text[cursor:], w.text)
				require.GreaterOrEqual(t, k, 0, "bad test row: %q not in the text after byte %d", w.text, cursor)
				start := cursor + k
				expected = append(expected, extract.Mention{Kind: w.kind, Text: w.text, Key: w.key, Start: start, End: start + len(w.text)})
				cursor = start + len(w.text)
			}
			got := extract.Mentions(tc.text)
			require.Equal(t, expected, got, "text: %q", tc.text)
			requireWellFormed(t, tc.text, got)
		})
	}
}

func firstWords(s string) string {
	f := strings.Fields(s)
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, "_")
}

// requireWellFormed checks the contract every result must meet: ordered by Start, no
// overlaps, Text is the text's own bytes, a known kind and a non-empty key.
func requireWellFormed(t *testing.T, text string, ms []extract.Mention) {
	t.Helper()
	kinds := map[string]bool{
		extract.KindName: true, extract.KindHandle: true, extract.KindPath: true,
		extract.KindURL: true, extract.KindEmail: true, extract.KindIdentifier: true,
	}
	prevEnd := 0
	for _, m := range ms {
		require.True(t, kinds[m.Kind], "unknown kind %q", m.Kind)
		require.GreaterOrEqual(t, m.Start, prevEnd, "overlap or disorder at %+v", m)
		require.Less(t, m.Start, m.End, "empty mention %+v", m)
		require.LessOrEqual(t, m.End, len(text))
		require.Equal(t, text[m.Start:m.End], m.Text)
		require.NotEmpty(t, m.Key, "empty key for %+v", m)
		require.True(t, utf8.ValidString(m.Key) || !utf8.ValidString(text), "key is not valid UTF-8: %q", m.Key)
		prevEnd = m.End
	}
}

func TestMentions_EveryOccurrenceIsReturned(t *testing.T) {
	got := extract.Mentions("Ask Bob. Then Bob asks @bob, and @bob asks bob@example.com about bob.go and bob.go.")
	var keys []string
	for _, m := range got {
		keys = append(keys, m.Kind+":"+m.Key)
	}
	require.Equal(t, []string{
		"name:bob", "name:bob", "handle:@bob", "handle:@bob", "email:bob@example.com", "path:bob.go", "path:bob.go",
	}, keys)
}

func TestMentions_KeysNormalize(t *testing.T) {
	tests := []struct{ text, key string }{
		{"met  Alice   Smith", "alice smith"},                                            // whitespace collapsed
		{"met ALICE SMITH today", "alice smith"},                                         // lowercased
		{"see https://User:pw@GitHub.COM/Zaxy/Zaxy/).", "https://github.com/Zaxy/Zaxy/"}, // host lowercased, credentials and trailing punctuation dropped, path kept
		{"see HTTP://Example.com/", "http://example.com"},                                // a lone "/" path is dropped
		{"open ./././Docs/README.md now", "Docs/README.md"},                              // paths keep case, lose "./"
		{"open internal/Graph/ now", "internal/Graph"},                                   // and a trailing separator
		{"call `Foo.Bar()` now", "foo.bar"},                                              // identifiers lose "()"
		{"mail Bob@Example.ORG now", "bob@example.org"},
		{"ping @Alice-Bot now", "@alice-bot"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got := extract.Mentions(tt.text)
			require.Len(t, got, 1, "%+v", got)
			require.Equal(t, tt.key, got[0].Key)
		})
	}
}

func TestMentions_IsDeterministic(t *testing.T) {
	text := corpus(64 << 10)
	first := extract.Mentions(text)
	require.NotEmpty(t, first)
	for range 3 {
		require.Equal(t, first, extract.Mentions(text))
	}
	requireWellFormed(t, text, first)
}

// adversarial inputs would be quadratic (or worse) for a backtracking or rescanning scanner.
func adversarial() map[string]string {
	const n = 1 << 20
	return map[string]string{
		"one long chunk":       strings.Repeat("a", n),
		"long chunks of 4096":  strings.Repeat(strings.Repeat("x", 4096)+" ", n/4097),
		"chunks just under":    strings.Repeat(strings.Repeat("a/b", 1365)+" ", n/4096),
		"open parens":          strings.Repeat("(", n),
		"close parens":         strings.Repeat("a)", n/2),
		"many schemes":         strings.Repeat("a://", n/4),
		"schemes in a chunk":   strings.Repeat(strings.Repeat("http://x.io/(", 300)+" ", n/3901),
		"capitalized run":      strings.Repeat("Alice ", n/6),
		"connectors":           strings.Repeat("Bank of ", n/8),
		"at signs":             strings.Repeat("@a@b.co", n/7),
		"dots":                 strings.Repeat("a.", n/2),
		"colons and digits":    strings.Repeat("a.go:1:", n/7),
		"splitters":            strings.Repeat("Ab=\"Cd\",", n/9),
		"hyphens":              strings.Repeat("Jean-", n/5),
		"multibyte":            strings.Repeat("Zoë Ünal ", n/11),
		"invalid utf8":         strings.Repeat("\xff\xfeA", n/3),
		"underscore blob":      strings.Repeat("_", n),
		"short chunks at max":  strings.Repeat(strings.Repeat("a_", 256)+" ", n/513),
		"mixed realistic text": corpus(n),
	}
}

func TestMentions_LinearOnAdversarialInput(t *testing.T) {
	for name, text := range adversarial() {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			got := extract.Mentions(text)
			elapsed := time.Since(start)
			// Linear time is about 10-100 ms per MiB here; quadratic would be minutes.
			require.Less(t, elapsed, 5*time.Second, "%d bytes took %s", len(text), elapsed)
			requireWellFormed(t, text, got)
		})
	}
}

// corpus repeats the test sentences up to n bytes.
func corpus(n int) string {
	var b strings.Builder
	for b.Len() < n {
		for _, tc := range mentionCases {
			b.WriteString(tc.text)
			b.WriteString("\n")
		}
	}
	return b.String()[:n]
}

func BenchmarkMentions_1MiB(b *testing.B) {
	text := corpus(1 << 20)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		extract.Mentions(text)
	}
}

func BenchmarkMentions_Message(b *testing.B) {
	text := mentionCases[1].text
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		extract.Mentions(text)
	}
}

func FuzzMentions(f *testing.F) {
	for _, tc := range mentionCases {
		f.Add(tc.text)
	}
	for _, s := range []string{"(((", "a://", "@", "@/", "http://", "x.go:", "C:\\", "\\\\", "`", "'s", "’s", "-", "A-", "A-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := extract.Mentions(text)
		requireWellFormed(t, text, got)
		require.Equal(t, got, extract.Mentions(text))
	})
}
