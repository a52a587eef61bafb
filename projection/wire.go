package projection

import "github.com/zaxy/zaxy/projection/projectionwire"

// The types that cross HTTP live in the leaf package projectionwire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Status is a space's projection progress (projectionwire.Status).
	Status = projectionwire.Status
)
