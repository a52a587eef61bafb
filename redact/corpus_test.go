package redact

import "strings"

// benchText is about 1 MiB of mixed text: markdown prose, shell, JSON logs, git log output,
// base64 image data, UUIDs, non-ASCII prose and a few secrets.
func benchText() string {
	parts := []string{
		"## Setup notes\n\nThe service reads its configuration from the environment. Set the " +
			"database URL, for example postgres://app:s3cret@db:5432/zaxy, and restart it.\n\n" +
			"- step one: run the migrations.\n- step two: start the worker (it takes about 30 s).\n\n",
		"```sh\nexport TOKEN=abc\n# comment\nzaxy serve --addr 127.0.0.1:8080\ncurl -s http://localhost:8080/healthz\n```\n\n",
		`{"level":"info","ts":"2026-01-02T15:04:05Z","msg":"request done","request_id":"7c9e6679-7425-40de-944b-e07fc1f142a3","status":200,"path":"/v1/spaces/demo/events"}` + "\n",
		"commit 3f2a9c1d7e5b4a6f8091a2b3c4d5e6f708192a3b\nAuthor: Ann <ann@example.com>\nDate:   Mon Jan 2 15:04:05 2026\n\n    fix: the password manager integration reads the vault lazily\n\n",
		"![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==)\n",
		"Ünïcödé prose: Zaxy は エージェントの記憶 です。Le mot de passe n'est jamais enregistré. Ça marche très bien.\n",
		"AWS key AKIAIOSFODNN7EXAMPLE leaked in a log line; token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 too.\n",
		"Assistant: I ran `go test ./...` and 412 tests passed in 38.2 s; the slowest was TestAppend_Concurrent.\n",
	}
	var b strings.Builder
	for b.Len() < 1<<20 {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	return b.String()
}
