-- Storage (docs/benchmarks.md, "Storage per event"): every projection row and index entry
-- repeated the space's text id (up to 64 bytes). A space gets a 4-byte integer key, assigned
-- once when its first event creates its row and never reused (spaces are never deleted), for
-- the projection tables to key on instead. The key is local to this database: a space copied
-- or moved to another cluster gets that cluster's next key, so nothing may store it outside
-- the database or compare it across clusters. Existing spaces are numbered in creation order.
ALTER TABLE spaces ADD COLUMN space_key int4 GENERATED ALWAYS AS IDENTITY;
-- ADD COLUMN numbers existing rows in physical order; renumber them by creation so a key's
-- order is the spaces' age, as for the spaces created from now on.
ALTER TABLE spaces ALTER COLUMN space_key DROP IDENTITY;
UPDATE spaces s SET space_key = o.n
FROM (SELECT space_id, row_number() OVER (ORDER BY created_at, space_id) AS n FROM spaces) o
WHERE o.space_id = s.space_id;
ALTER TABLE spaces ALTER COLUMN space_key ADD GENERATED ALWAYS AS IDENTITY;
SELECT setval(pg_get_serial_sequence('spaces', 'space_key'), coalesce(max(space_key), 0) + 1, false) FROM spaces;
ALTER TABLE spaces ADD CONSTRAINT spaces_space_key_unique UNIQUE (space_key) INCLUDE (space_id);
