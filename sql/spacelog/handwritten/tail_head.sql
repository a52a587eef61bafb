-- What a tail copy of a space after seq $2 must know of the source: its chain head, the hash of
-- the event at $2 (the end of the copy it continues), and whether an erasure was recorded after
-- $2 (it changed an event the copy holds, so the tail alone cannot bring the copy up to date).
SELECT s.head_seq, s.head_hash,
       (SELECT e.hash FROM events e WHERE e.space_id = $1 AND e.seq = $2) AS after_hash,
       EXISTS (SELECT FROM events e WHERE e.space_id = $1 AND e.seq > $2 AND e.type = 'erasure.recorded') AS erased
FROM spaces s
WHERE s.space_id = $1
