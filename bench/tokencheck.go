package bench

import (
	"fmt"
	"io"
	"sync"

	"github.com/zaxy/zaxy/tokenize"
)

// TokenCheck is what the fused packets' texts count under every tokenizer, whichever one
// budgeted them: whether the budget held (Over under the run's tokenizer must be 0) and how
// far the other counts are from it.
type TokenCheck struct {
	// Tokenizer is the one the packets were budgeted with (checkout.Request.Tokenizer).
	Tokenizer string `json:"tokenizer"`
	// Budget is the packets' max_tokens.
	Budget int `json:"budget"`
	// Packets is how many fused packets were counted.
	Packets int `json:"packets"`
	// Counts are the packets' tokens under each tokenizer, by name.
	Counts map[string]*TokenCount `json:"counts"`
}

// TokenCount sums a tokenizer's counts of the packets.
type TokenCount struct {
	Sum  int `json:"sum"`
	Max  int `json:"max"`
	Over int `json:"over_budget"`
}

// packetTokenTally collects a TokenCheck as packets are made, from any number of goroutines.
type packetTokenTally struct {
	mu  sync.Mutex
	c   TokenCheck
	all []tokenize.Counter
}

func newPacketTokenTally(tokenizer string, budget int) *packetTokenTally {
	t := &packetTokenTally{c: TokenCheck{Tokenizer: tokenizer, Budget: budget, Counts: map[string]*TokenCount{}}}
	for _, name := range tokenize.Names {
		c, _ := tokenize.Get(name)
		t.all = append(t.all, c)
		t.c.Counts[name] = &TokenCount{}
	}
	return t
}

// add counts text under every tokenizer.
func (t *packetTokenTally) add(text string) {
	n := make([]int, len(t.all))
	for i, c := range t.all {
		n[i] = c.Count(text)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.c.Packets++
	for i, c := range t.all {
		tc := t.c.Counts[c.Name()]
		tc.Sum += n[i]
		tc.Max = max(tc.Max, n[i])
		if n[i] > t.c.Budget {
			tc.Over++
		}
	}
}

// check returns the tally so far.
func (t *packetTokenTally) check() *TokenCheck {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.c
	return &c
}

// WriteText prints one line per tokenizer: mean, max and packets over the budget.
func (c *TokenCheck) WriteText(w io.Writer) {
	fmt.Fprintf(w, "packets budgeted in %s to %d tokens (%d fused packets), counted by each tokenizer:\n", c.Tokenizer, c.Budget, c.Packets)
	for _, name := range tokenize.Names {
		tc := c.Counts[name]
		mean := 0.0
		if c.Packets > 0 {
			mean = float64(tc.Sum) / float64(c.Packets)
		}
		fmt.Fprintf(w, "  %-11s mean %7.1f  max %5d  over budget %d\n", name, mean, tc.Max, tc.Over)
	}
}
