-- name: Entities :many
-- Entities of space $1 by id ($2), with the hash of the event that first named each and the
-- event that invalidated one (its hash and reason).
-- An entity first named by an erased event whose purge is pending (zaxy_erased_pending,
-- migration 000054) is not found: its name was read from the erased text.
SELECT e.entity_id, e.key, e.name, e.kinds, e.version, e.first_seq, fe.hash AS first_hash, e.last_seq,
       e.mentions, e.invalidated_seq, iv.hash AS invalidated_hash, coalesce(iv.data ->> 'reason', '')::text AS invalidated_reason
FROM entities e
JOIN events fe ON fe.space_id = @space_id AND fe.seq = e.first_seq
LEFT JOIN events iv ON iv.space_id = @space_id AND iv.seq = e.invalidated_seq
WHERE e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND e.entity_id = ANY(@entity_ids::text[]) AND e.first_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY e.entity_id;
