package redact

import "testing"

// BenchmarkString redacts about 1 MiB of mixed text (benchText).
func BenchmarkString(b *testing.B) {
	doc := benchText()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		String(doc)
	}
}
