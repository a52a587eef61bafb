package metamemory

import "github.com/zaxy/zaxy/metamemory/metamemorywire"

// The types that cross HTTP live in the leaf package metamemorywire (no database code), so a
// client can use them without linking pgx; these aliases keep their names here.
type (
	// Feeling is the answer (metamemorywire.Feeling).
	Feeling = metamemorywire.Feeling
	// Request asks whether a space's memory is likely to hold something on a query
	// (metamemorywire.Request).
	Request = metamemorywire.Request
	// SalienceHistogram is how a space's memory items spread over salience, as the salience_decay
	// job last materialised it (salience_decayed), read when the space's sketch is built
	// (metamemorywire.SalienceHistogram).
	SalienceHistogram = metamemorywire.SalienceHistogram
	// Signals are what the probability is computed from, and what explains it
	// (metamemorywire.Signals).
	Signals = metamemorywire.Signals
	// SketchInfo describes the sketch an answer was read from (metamemorywire.SketchInfo).
	SketchInfo = metamemorywire.SketchInfo
)
