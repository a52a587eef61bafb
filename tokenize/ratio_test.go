package tokenize_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/tokenize"
)

// fixtures are the texts docs/checkout.md compares the tokenizers on: English conversation,
// code with a test log and a tool call, and Japanese, Chinese and Korean prose.
var fixtures = []string{"prose", "code", "cjk"}

func fixture(t testing.TB, name string) string {
	b, err := os.ReadFile("testdata/" + name + ".txt")
	require.NoError(t, err)
	return string(b)
}

// TestCount_Chars4IsFarFromBPEOnCodeAndCJK: chars/4 is close to o200k on English prose, but
// undercounts code and CJK text, where a budget in chars/4 lets a packet run over; the ratios
// (o200k tokens per chars/4 token) are in docs/checkout.md, run with -v to print them.
func TestCount_Chars4IsFarFromBPEOnCodeAndCJK(t *testing.T) {
	ratio := map[string]float64{}
	for _, f := range fixtures {
		s := fixture(t, f)
		counts := map[string]int{}
		for _, name := range tokenize.Names {
			c, _ := tokenize.Get(name)
			counts[name] = c.Count(s)
		}
		ratio[f] = float64(counts[tokenize.O200kBase]) / float64(counts[tokenize.Chars4])
		t.Logf("%-5s %5d bytes: o200k_base %4d, cl100k_base %4d, chars4 %4d; o200k/chars4 %.2f, cl100k/chars4 %.2f",
			f, len(s), counts[tokenize.O200kBase], counts[tokenize.CL100kBase], counts[tokenize.Chars4], ratio[f],
			float64(counts[tokenize.CL100kBase])/float64(counts[tokenize.Chars4]))
	}
	require.Less(t, ratio["prose"], 1.2)
	require.Greater(t, ratio["code"], ratio["prose"])
	require.Greater(t, ratio["cjk"], 2.0)
}

// BenchmarkCount is what counting costs a checkout: a 2,000-token packet budgets about 150
// candidate lines one by one and then counts its rendered text once, so the cost of a
// checkout's counting is about twice one count of a packet's worth of lines.
func BenchmarkCount(b *testing.B) {
	var lines []string
	for _, f := range fixtures {
		lines = append(lines, strings.Split(strings.TrimSpace(fixture(b, f)), "\n")...)
	}
	// A packet's worth of candidate lines: about 8,000 characters of mixed text.
	var packet []string
	for n := 0; n < 8000; {
		l := lines[len(packet)%len(lines)]
		packet = append(packet, l)
		n += len([]rune(l))
	}
	text := strings.Join(packet, "\n") + "\n"
	for _, name := range tokenize.Names {
		c, _ := tokenize.Get(name)
		c.Count("warm the tables")
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				for _, l := range packet {
					c.Count(l + "\n")
				}
				c.Count(text)
			}
		})
	}
}
