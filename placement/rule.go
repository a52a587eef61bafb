package placement

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
)

// Rule is where a space not in the directory goes: weighted rendezvous hashing (highest random
// weight). Every cluster scores the space by -weight / ln(u), u a hash of the space and the
// cluster's name mapped into (0, 1), and the highest score wins. The result depends on the
// space, the names and the weights only, so every instance with the same configuration agrees,
// and adding a cluster of weight w takes about w / (total weight) of the new spaces from every
// other cluster alike, never moving one between the others. It returns "" for no cluster of
// positive weight.
func Rule(space string, clusters []Cluster) string {
	best, bestScore := "", math.Inf(-1)
	for _, c := range clusters {
		if c.Weight <= 0 {
			continue
		}
		s := score(space, c.Name, c.Weight)
		if s > bestScore || (s == bestScore && c.Name < best) {
			best, bestScore = c.Name, s
		}
	}
	return best
}

// score is one cluster's rendezvous score for space.
func score(space, cluster string, weight float64) float64 {
	h := sha256.New()
	h.Write([]byte(space))
	h.Write([]byte{0})
	h.Write([]byte(cluster))
	sum := h.Sum(nil)
	// 53 random bits in (0, 1): never 0, so the logarithm is finite and negative.
	u := (float64(binary.BigEndian.Uint64(sum[:8])>>11) + 0.5) / (1 << 53)
	return -weight / math.Log(u)
}
