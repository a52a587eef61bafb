-- name: EntitiesUpsert :exec
-- Writes the entities a batch created or changed. Each array is one column of the entities,
-- all of one length; kinds is each entity's kinds joined by commas, and an invalidated_seq of 0
-- is NULL (seqs start at 1).
WITH u AS (
  SELECT unnest(@entity_ids::text[]) AS entity_id,
         unnest(@keys::text[]) AS key,
         unnest(@names::text[]) AS name,
         unnest(@kinds::text[]) AS kinds,
         unnest(@versions::int[]) AS version,
         unnest(@first_seqs::bigint[]) AS first_seq,
         unnest(@first_hashes::bytea[]) AS first_hash,
         unnest(@last_seqs::bigint[]) AS last_seq,
         unnest(@mentions::int[]) AS mentions,
         unnest(@invalidated_seqs::bigint[]) AS invalidated_seq
)
INSERT INTO entities AS t (space_id, entity_id, key, name, kinds, version, first_seq, first_hash,
                           last_seq, mentions, invalidated_seq)
SELECT @space_id::text, u.entity_id, u.key, u.name, string_to_array(u.kinds, ','), u.version, u.first_seq,
       u.first_hash, u.last_seq, u.mentions, nullif(u.invalidated_seq, 0)
FROM u
ON CONFLICT (space_id, entity_id) DO UPDATE
SET kinds = excluded.kinds, version = excluded.version, last_seq = excluded.last_seq,
    mentions = excluded.mentions, invalidated_seq = excluded.invalidated_seq;
