-- name: EntityRefs :many
-- The entities mentioned by each episode's events, at most @max_refs per episode, most
-- mentioned first: episode @episodes[i] has the event @seqs[i] (an event is in one episode).
-- One statement for all the episodes a derivation makes (a long session has one per 48 events).
SELECT x.episode::int AS episode, x.entity_id
FROM (
  SELECT (@episodes::int[])[k.i] AS episode, m.entity_id,
         row_number() OVER (PARTITION BY (@episodes::int[])[k.i] ORDER BY count(*) DESC, m.entity_id) AS n
  FROM unnest(@seqs::bigint[]) WITH ORDINALITY AS k(seq, i)
  JOIN mentions m ON m.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text) AND m.seq = k.seq
  GROUP BY 1, m.entity_id
) x
WHERE x.n <= @max_refs::bigint
ORDER BY x.episode, x.n;
