-- name: SalienceSpaceUpsert :exec
-- Folds a batch into the space's salience policy: a salience.configured event's half-life and
-- floor (NULL keeps the current value; the defaults are the table's) and the earliest use of
-- the space's memory.
INSERT INTO salience_spaces AS p (space_id, half_life_days, floor, configured_seq, use_started_at)
VALUES (@space_id, coalesce(sqlc.narg(half_life_days)::float8, 30), coalesce(sqlc.narg(floor)::float8, 0.1),
        sqlc.narg(configured_seq)::bigint, sqlc.narg(use_started_at)::timestamptz)
ON CONFLICT (space_id) DO UPDATE SET
  half_life_days = coalesce(sqlc.narg(half_life_days)::float8, p.half_life_days),
  floor = coalesce(sqlc.narg(floor)::float8, p.floor),
  configured_seq = coalesce(sqlc.narg(configured_seq)::bigint, p.configured_seq),
  use_started_at = least(p.use_started_at, excluded.use_started_at);
