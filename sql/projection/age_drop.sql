-- Drops a space's AGE graph before a rebuild.
SELECT zaxy_age_drop($1)
