-- name: Receipts :many
-- The receipts of a seq range, for answering a retried idempotent append.
SELECT seq, hash, prev_hash, recorded_at, occurred_at
FROM events
WHERE space_id = $1 AND seq BETWEEN @first_seq AND @last_seq
ORDER BY seq;
