-- Mirrors a batch's new and changed entities and facts into the space's AGE graph.
SELECT zaxy_age_sync($1, $2, $3)
