// Package spacelog writes a space's whole log to a file and reads it back: the export that
// backups, portability and moving a space between clusters share (docs/scaling.md, "Moving a
// space's log: export and import").
//
// Export streams the events of one snapshot in seq order, with every value their hashes cover,
// the space's idempotency records and its secret, between a header and a trailer (format
// version, space, event count, chain head, a digest of the lines). Import verifies the file
// line by line as it inserts it into an empty space in one transaction, through the database's
// own import path (migration 000055): the events_link trigger computes every hash on the
// target, and the import fails, naming the first bad seq, unless each equals the file's.
//
// It never writes to a space that has events, never commits part of a file, and never
// computes a stored hash itself: the database does, as on every append.
package spacelog
