-- Opens the import of space $1 in this transaction: refuses a space with events (ZX040) and
-- lets the events_link trigger take the exported values of its rows (migration 000055).
SELECT zaxy_import_begin($1)
