package projection_test

import (
	"context"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zaxy/zaxy/projection"
)

// adversarialTexts are the worst inputs for full-text indexing found so far: runs the text
// search parser reads as hosts, paths or comments from every token ("ghp_", "./", "<!-- "),
// the line-shaped secrets, many distinct lexemes, URLs, dotted and camel-case names,
// and multi-byte text. Each is 1 MiB, the largest event text.
func adversarialTexts() map[string]string {
	const mib = 1 << 20
	fill := func(unit string) string { return strings.Repeat(unit, mib/len(unit)) }
	var distinct strings.Builder
	for i := 0; distinct.Len() < mib; i++ {
		distinct.WriteString("d" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strconv.Itoa(i) + "/f" + strconv.Itoa(i) + ".go ")
	}
	return map[string]string{
		"ghp_":         fill("ghp_"),
		"hf_ lines":    fill(strings.Repeat("hf_", 341) + "\n"),
		"sk- lines":    fill(strings.Repeat("sk-", 341) + "\n"),
		"./":           fill("./"),
		"~/":           fill("~/"),
		"<!-- ":        fill("<!-- "),
		"https://":     fill("https://"),
		"a.b_":         fill("a-b."),
		"x_1":          fill("a_1"),
		"camel.dotted": fill("parseConfig.HTTPServer/"),
		"distinct":     distinct.String()[:mib],
		"prose":        fill("the quick brown fox jumps over the lazy dog "),
		"multibyte":    fill("Ünïcödé_ß "),
		"emoji runs":   fill("😀_"),
	}
}

// BenchmarkZaxyTSV_Adversarial measures zaxy_tsv, the full-text work of one event, on the
// adversarial texts of 1 MiB: ms per event (= per MiB of input; only the first 65,536
// characters are indexed).
func BenchmarkZaxyTSV_Adversarial(b *testing.B) {
	f := newFixture(b, projection.Config{})
	ctx := context.Background()
	texts := adversarialTexts()
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		text := texts[name]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var n int
				if err := f.DB.QueryRow(ctx, `SELECT length(zaxy_tsv('english', $1))`, text).Scan(&n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/event")
		})
	}
}

// BenchmarkZaxyTSV_ShapeSearch is a fuzz-style search for slow shapes: texts of 64 KiB (the
// indexed prefix) repeating units of one to four atoms drawn from what the parser treats
// specially, each timed once through zaxy_tsv. It reports the worst ms per indexed MiB found
// and logs the five worst units.
func BenchmarkZaxyTSV_ShapeSearch(b *testing.B) {
	f := newFixture(b, projection.Config{})
	ctx := context.Background()
	atoms := []string{"ghp", "hf", "sk", "a", "A", "1", "_", "-", ".", "/", "~", ":", "@", "&", "#", ";", "<", ">", "!--",
		"<!-- ", "<a ", `"`, "'", "http://", "https://", "www.", " ", "\n", "é", "😀", "aB", "e5", "+", "=", "?", "%", "\\"}
	type found struct {
		unit string
		ms   float64
	}
	for b.Loop() {
		rng := rand.New(rand.NewPCG(30, 3))
		var all []found
		for range 300 {
			var u strings.Builder
			for range 1 + rng.IntN(4) {
				u.WriteString(atoms[rng.IntN(len(atoms))])
			}
			unit := u.String()
			text := strings.Repeat(unit, 65536/len(unit)+1)[:65536]
			for !strings.HasPrefix(strings.ToValidUTF8(text, ""), text) {
				text = text[:len(text)-1]
			}
			start := time.Now()
			var n int
			if err := f.DB.QueryRow(ctx, `SELECT length(zaxy_tsv('english', $1))`, text).Scan(&n); err != nil {
				b.Fatalf("%q: %v", unit, err)
			}
			all = append(all, found{unit, float64(time.Since(start).Microseconds()) / 1000 * (1 << 20) / float64(len(text))})
		}
		sort.Slice(all, func(i, j int) bool { return all[i].ms > all[j].ms })
		for _, x := range all[:5] {
			b.Logf("%-24q %8.0f ms/MiB", x.unit, x.ms)
		}
		b.ReportMetric(all[0].ms, "worst-ms/MiB")
	}
}
