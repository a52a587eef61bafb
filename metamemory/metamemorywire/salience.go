package metamemorywire

// SalienceHistogram is how a space's memory items spread over salience, as the salience_decay
// job last materialised it (salience_decayed), read when the space's sketch is built: Buckets[i]
// counts the items whose salience falls in the i-th of SalienceBuckets equal steps of [0, 1];
// Attenuated counts the items out of default ranking. It is a signal for callers and for a
// later fit; the probability does not use it yet (no development set has salience to fit on).
type SalienceHistogram struct {
	Buckets    []int64 `json:"buckets"`
	Attenuated int64   `json:"attenuated"`
}
