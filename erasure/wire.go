package erasure

import "github.com/zaxy/zaxy/erasure/erasurewire"

// The types that cross HTTP live in the leaf package erasurewire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Result reports one erasure (erasurewire.Result).
	Result = erasurewire.Result
)
