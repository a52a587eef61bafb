package latentwire

// SourceRef cites one event.
type SourceRef struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}
