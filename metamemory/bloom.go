package metamemory

// bloom is a Bloom filter over strings: the sketch's tail, the rarest lexemes of a space that do
// not fit its exact table. A member may be a false positive (rate about 1 % at capacity with 10
// bits and 7 probes per element); a non-member never is.
type bloom struct {
	bits     []uint64
	n        int // elements added
	capacity int // elements it was sized for
}

const (
	bloomBitsPerElement = 10
	bloomProbes         = 7
)

// newBloom sizes a filter for capacity elements, at most maxBits bits.
func newBloom(capacity, maxBits int) *bloom {
	m := max(capacity*bloomBitsPerElement, 1024)
	m = min(m, max(maxBits, 1024))
	return &bloom{bits: make([]uint64, (m+63)/64), capacity: capacity}
}

// probes returns the two hashes whose combinations h1 + i*h2 are the probed bits.
func (b *bloom) probes(s string) (uint64, uint64) {
	h := sketchHash(s)
	return h, h>>32 | h<<32 | 1
}

func (b *bloom) add(s string) {
	m := uint64(len(b.bits) * 64)
	h1, h2 := b.probes(s)
	for i := range uint64(bloomProbes) {
		bit := (h1 + i*h2) % m
		b.bits[bit/64] |= 1 << (bit % 64)
	}
	b.n++
}

func (b *bloom) has(s string) bool {
	m := uint64(len(b.bits) * 64)
	h1, h2 := b.probes(s)
	for i := range uint64(bloomProbes) {
		bit := (h1 + i*h2) % m
		if b.bits[bit/64]&(1<<(bit%64)) == 0 {
			return false
		}
	}
	return true
}

// full reports whether more elements were added than the filter was sized for.
func (b *bloom) full() bool { return b.n > b.capacity }

// bytes is the filter's memory.
func (b *bloom) bytes() int { return len(b.bits) * 8 }
