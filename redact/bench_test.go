package redact

import (
	"strings"
	"testing"
)

// BenchmarkString redacts about 1 MiB of mixed text (benchText).
func BenchmarkString(b *testing.B) {
	doc := benchText()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		String(doc)
	}
}

// longLine is about 1 MiB on one line, as in minified JSON: many URLs, "token" keys and
// "password" words, every one a hint.
func longLine() string {
	item := `{"url":"https://example.com/a/b?c=d","token_count":12,"note":"password policy","k":"sk-x"},`
	return strings.Repeat(item, (1<<20)/len(item))
}

// BenchmarkString_OneLongLine redacts longLine.
func BenchmarkString_OneLongLine(b *testing.B) {
	doc := longLine()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		String(doc)
	}
}
