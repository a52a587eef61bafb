package projectionwire

import (
	"time"
)

// Status is a space's projection progress.
type Status struct {
	SpaceID      string     `json:"space_id"`
	HeadSeq      int64      `json:"head_seq"`
	ProjectedSeq int64      `json:"projected_seq"`
	Lag          int64      `json:"lag"`
	HeadAt       time.Time  `json:"head_at"`
	ProjectedAt  *time.Time `json:"projected_at,omitempty"`
}
