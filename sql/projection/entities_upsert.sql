-- name: EntitiesUpsert :exec
-- Writes the entities a batch created or changed. Each array is one column of the entities,
-- all of one length; kinds is each entity's kinds joined by commas, and an invalidated_seq of 0
-- is NULL (seqs start at 1). With age, a new entity gets its graph vertex id (age_node) as it
-- is inserted (zaxy_age_ids), so the graph sync does not write the row again. Rows are keyed by
-- the space's spaces.space_key.
WITH u AS (
  SELECT unnest(@entity_ids::text[]) AS entity_id,
         unnest(@keys::text[]) AS key,
         unnest(@names::text[]) AS name,
         unnest(@kinds::text[]) AS kinds,
         unnest(@versions::int[]) AS version,
         unnest(@first_seqs::bigint[]) AS first_seq,
         unnest(@last_seqs::bigint[]) AS last_seq,
         unnest(@mentions::int[]) AS mentions,
         unnest(@invalidated_seqs::bigint[]) AS invalidated_seq
), fresh AS (
  SELECT u.entity_id, row_number() OVER (ORDER BY u.entity_id) AS i
  FROM u
  WHERE @age::boolean
    AND NOT EXISTS (SELECT FROM entities x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND x.entity_id = u.entity_id)
), nodes AS (
  SELECT zaxy_age_ids(@space_id::text, 'Entity', count(*)::int) AS ids FROM fresh
)
INSERT INTO entities AS t (space_key, entity_id, key, name, kinds, version, first_seq,
                           last_seq, mentions, invalidated_seq, age_node)
SELECT (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text), u.entity_id, u.key, u.name, string_to_array(u.kinds, ','), u.version, u.first_seq,
       u.last_seq, u.mentions, nullif(u.invalidated_seq, 0), n.ids[f.i]
FROM u CROSS JOIN nodes n LEFT JOIN fresh f ON f.entity_id = u.entity_id
ON CONFLICT (space_key, entity_id) DO UPDATE
SET kinds = excluded.kinds, version = excluded.version, last_seq = excluded.last_seq,
    mentions = excluded.mentions, invalidated_seq = excluded.invalidated_seq;
