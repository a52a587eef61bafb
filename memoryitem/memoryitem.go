// Package memoryitem holds the identifiers and thresholds shared by the side that writes
// memory items (projection) and the sides that read them (checkout, disclosure): the item id
// of an event or a fact version, which event types are never memory items, and when a
// space's vectors move to the HNSW index.
//
// It is a leaf: it imports nothing of Zaxy and runs no queries, so a reader can name items
// without depending on the projector. It must never grow behaviour beyond these shared names.
package memoryitem

import (
	"strconv"
	"strings"
)

// EventID is the memory item id of the event at seq, "ev:<seq>".
func EventID(seq int64) string { return "ev:" + strconv.FormatInt(seq, 10) }

// ParseEventID is the seq of an event item id: ok only for "ev:" and a positive seq written
// as EventID writes it (no sign, no leading zeros).
func ParseEventID(id string) (seq int64, ok bool) {
	rest, found := strings.CutPrefix(id, "ev:")
	if !found {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n <= 0 || strconv.FormatInt(n, 10) != rest {
		return 0, false
	}
	return n, true
}

// FactID is the memory item id of a fact version, "fact:<fact id>".
func FactID(factID string) string { return "fact:" + factID }

// bookkeepingPrefixes are event types Zaxy writes about its own work; they are never memories.
var bookkeepingPrefixes = []string{"checkout.", "zaxy.", "erasure."}

// IsBookkeeping reports whether events of type typ are Zaxy's own bookkeeping (for example
// the record of what a checkout surfaced), which is never retrieved as memory.
func IsBookkeeping(typ string) bool {
	for _, p := range bookkeepingPrefixes {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}

// HNSWThreshold is how many vectors of a model a space holds before its vectors go into the
// model's HNSW index; smaller spaces are scanned exactly (perfect recall, a few ms) and never
// pay for HNSW inserts, which run at only hundreds per second.
const HNSWThreshold = 5000
