// Package maintenance keeps Zaxy's own btree indexes about as small as they need to be. Rows
// of one space go into the middle of indexes keyed by the space's text id, and the page
// splits there leave both halves half full; Reindex finds the indexes of the projection tables
// that are large and much larger than a fresh build would be, and rebuilds them one at a time
// with REINDEX INDEX CONCURRENTLY, which blocks no read or write. The reindex River job (package
// jobs) runs it periodically; `zaxy maintenance reindex` runs it once.
package maintenance

import "math"

// Page geometry of a PostgreSQL btree: an 8 kB page minus its 24-byte header and the 16-byte
// btree special space, an 8-byte index tuple header, a 4-byte line pointer per tuple, and
// upper pages filled to 70 % by a build.
const (
	pageBytes       = 8192
	usablePageBytes = pageBytes - 24 - 16
	indexTupleHead  = 8
	linePointer     = 4
	upperFillFactor = 70
	maxAlign        = 8
)

// keyColumn is what the estimate knows of one key column of an index: its type's length (-1
// for varlena, -2 for cstring) and alignment (pg_type.typalign: c, s, i or d), and the average
// width of its values (pg_stats.avg_width), nil when there are no statistics.
type keyColumn struct {
	typlen   int
	typalign string
	width    *int32
}

// idealBytes estimates the size of the index as a fresh build would leave it: tuples index
// tuples laid out at fillfactor % on the leaves and 70 % above, plus the metapage. It returns
// false when it cannot tell (no row estimate yet, or a variable-length column without
// statistics). Deduplication of equal keys is not counted, so an index with many duplicates
// is estimated larger than it needs to be, never smaller: the estimate errs on leaving an
// index alone.
func idealBytes(tuples float64, fillfactor int, cols []keyColumn) (int64, bool) {
	if tuples < 0 || len(cols) == 0 {
		return 0, false
	}
	offset := 0
	for _, c := range cols {
		switch {
		case c.typlen > 0:
			offset = align(offset, alignOf(c.typalign)) + c.typlen
		case c.width == nil:
			return 0, false
		case *c.width < 127:
			// A short varlena has a 1-byte header and needs no alignment.
			offset += int(*c.width)
		default:
			offset = align(offset, alignOf(c.typalign)) + int(*c.width)
		}
	}
	tuple := align(indexTupleHead+offset, maxAlign) + linePointer
	if fillfactor <= 0 || fillfactor > 100 {
		fillfactor = 90
	}
	perLeaf := max(1, usablePageBytes*fillfactor/100/tuple-1) // one slot is the page's high key
	perUpper := max(2, usablePageBytes*upperFillFactor/100/tuple)
	pages := int64(math.Ceil(tuples / float64(perLeaf)))
	level := max(pages, 1)
	pages = level
	for level > 1 {
		level = (level + int64(perUpper) - 1) / int64(perUpper)
		pages += level
	}
	return (pages + 1) * pageBytes, true
}

func alignOf(typalign string) int {
	switch typalign {
	case "s":
		return 2
	case "i":
		return 4
	case "d":
		return 8
	default:
		return 1
	}
}

func align(n, to int) int { return (n + to - 1) / to * to }
