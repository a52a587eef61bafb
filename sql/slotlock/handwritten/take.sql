-- Takes $3 free slots of budget $1, whose slots are 0 to $2 - 1, or none: each slot is a
-- session-level advisory lock on hashtextextended('zaxy.budget:' || budget, slot). $4 are the
-- slots this session already holds, skipped because a session's advisory locks are reentrant.
-- The CASE tries a lock only for a slot not held here; LIMIT stops trying once $3 are taken.
-- When fewer than $3 were free, the ones taken are unlocked in the same statement and the
-- answer is empty.
WITH taken AS MATERIALIZED (
  SELECT s FROM generate_series(0, $2::int - 1) AS s
  WHERE CASE WHEN s = ANY($4::int[]) THEN false
             ELSE pg_try_advisory_lock(hashtextextended('zaxy.budget:' || $1::text, s)) END
  LIMIT $3::int
), undone AS MATERIALIZED (
  SELECT pg_advisory_unlock(hashtextextended('zaxy.budget:' || $1::text, s)) AS unlocked
  FROM taken WHERE (SELECT count(*) FROM taken) < $3::int
)
SELECT CASE WHEN (SELECT count(*) FROM undone) > 0 THEN '{}'::int[]
            ELSE coalesce((SELECT array_agg(s) FROM taken), '{}'::int[]) END
