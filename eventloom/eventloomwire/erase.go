package eventloomwire

// Erasure is the record of one erasure.
type Erasure struct {
	SpaceID string `json:"space_id"`
	// Seq is the erased event.
	Seq int64 `json:"seq"`
	// ErasureSeq and ErasureHash are those of the erasure.recorded event appended.
	ErasureSeq  int64 `json:"erasure_seq"`
	ErasureHash Hash  `json:"erasure_hash"`
}
