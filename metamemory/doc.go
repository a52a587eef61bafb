// Package metamemory answers "do I know anything about this?" before anything is retrieved: the
// feeling of knowing (docs/checkout.md, "Feeling of knowing"). Given a space and a query it says
// likely, possible or unlikely, with a probability and the signals it came from, read off a small
// per-space sketch (the space's lexemes with their document frequencies, its entity names, which
// speaker used which lexeme, and its salience histogram where the salience projection exists)
// that is cached in the process and kept current by the space's projection watermark.
//
// It must never embed text, query the graph (relational walk or Cypher) or touch the vector
// tables: an answer costs one round trip for the query's lexemes and the watermark, plus, only
// when the space changed, a read of what the projector added since. It reads projections kept by
// the projector (term_stats, term_totals, entities, speaker_names' rules over memory_items and
// their events, salience_decayed) and never writes.
package metamemory
