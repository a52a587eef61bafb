-- The memory.invalidated events of space $1 that target event $2, oldest first.
SELECT i.seq, i.hash, i.reason
FROM invalidations i
WHERE i.space_id = $1 AND i.target_seq = $2
ORDER BY i.seq
