package graphwire

import (
	"encoding/json"
)

// CypherResult holds a Cypher query's rows. Each value is JSON when the agtype value is a
// scalar, map or list, and a string holding AGE's text form for vertices, edges and paths.
type CypherResult struct {
	Graph     string              `json:"graph"`
	Rows      [][]json.RawMessage `json:"rows"`
	Truncated bool                `json:"truncated"`
	// TruncatedReason says which cap cut the result: "limit" (rows) or "max_bytes".
	TruncatedReason string `json:"truncated_reason,omitempty"`
}
