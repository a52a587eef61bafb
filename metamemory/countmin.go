package metamemory

// countMin is a count-min sketch over strings: the sketch's counts of (speaker, lexeme) pairs.
// An estimate is never below the true count and exceeds it only by collisions (with width w,
// by more than e*N/w with probability at most e^-depth, N the total count).
type countMin struct {
	rows  [countMinDepth][]uint32
	mask  uint64
	total int // distinct additions, to tell when it is past its capacity
	cap   int
}

const countMinDepth = 4

// newCountMin sizes a sketch for about capacity distinct keys: a power-of-two width of at
// least twice that, at most maxBits/32/depth counters a row.
func newCountMin(capacity, maxBits int) *countMin {
	w := 1024
	for w < 2*capacity && w*32*countMinDepth < maxBits {
		w *= 2
	}
	c := &countMin{mask: uint64(w - 1), cap: capacity}
	for i := range c.rows {
		c.rows[i] = make([]uint32, w)
	}
	return c
}

func (c *countMin) slots(s string) [countMinDepth]uint64 {
	h := sketchHash(s)
	h2 := h>>32 | h<<32 | 1
	var out [countMinDepth]uint64
	for i := range out {
		out[i] = (h + uint64(i)*h2) & c.mask
	}
	return out
}

// add counts n more of s.
func (c *countMin) add(s string, n uint32) {
	for i, j := range c.slots(s) {
		c.rows[i][j] += n
	}
	c.total++
}

// count estimates how many of s were added.
func (c *countMin) count(s string) uint32 {
	m := ^uint32(0)
	for i, j := range c.slots(s) {
		m = min(m, c.rows[i][j])
	}
	return m
}

// full reports whether more keys were added than it was sized for.
func (c *countMin) full() bool { return c.total > c.cap }

// bytes is the sketch's memory.
func (c *countMin) bytes() int { return len(c.rows) * len(c.rows[0]) * 4 }
