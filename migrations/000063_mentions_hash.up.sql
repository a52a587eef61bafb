-- Storage (docs/benchmarks.md, "Storage per event"): a mention no longer repeats its event's
-- hash (33 bytes a mention, about seven mentions an event); events has it by (space_id, seq),
-- and nothing read it but the projection checksum. CLUSTER rewrites the table so the dropped
-- column's bytes are given back now rather than as rows are replaced (in pkey order, the
-- order the lookups by event read); the clustering mark is taken off again.
ALTER TABLE mentions DROP COLUMN hash;
CLUSTER mentions USING mentions_pkey;
ALTER TABLE mentions SET WITHOUT CLUSTER;
