package projection

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// paraphrasePair is one labelled pair of testdata/gate_paraphrase_pairs.tsv.
type paraphrasePair struct {
	label          int // 1: later rewords earlier, 0: it says something else
	category       string
	earlier, later string
}

// loadParaphrasePairs reads the labelled set.
func loadParaphrasePairs(t *testing.T) []paraphrasePair {
	t.Helper()
	f, err := os.Open("testdata/gate_paraphrase_pairs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []paraphrasePair
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 || (f[0] != "0" && f[0] != "1") {
			t.Fatalf("bad line %q", line)
		}
		out = append(out, paraphrasePair{label: int(f[0][0] - '0'), category: f[1], earlier: f[2], later: f[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
