package metamemory

// sketchHash is the hash behind the Bloom filter and the count-min sketch: FNV-1a over the
// string's bytes, then splitmix64's finalizer so that both halves of the result (the two hashes
// the probes combine) are well mixed. It is the same in every process, so a sketch answers
// alike wherever it is built.
func sketchHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}
