-- name: FactsClose :exec
-- Closes, adds evidence to or changes the review status of stored facts. Runs before
-- facts_insert so the one-current-version index never sees two current rows. Each array is one
-- column of the changes, all of one length; sqlc cannot type an array's NULL elements, so a
-- NULL travels as a value no fact holds (the empty string for a fact id, 0 for a seq) or with a
-- flag saying whether the value is set (valid_to, close_reason).
WITH u AS (
  SELECT unnest(@fact_ids::text[]) AS fact_id,
         unnest(@valid_tos::timestamptz[]) AS valid_to,
         unnest(@valid_to_set::boolean[]) AS valid_to_set,
         unnest(@closed_seqs::bigint[]) AS closed_seq,
         unnest(@statuses::text[]) AS status,
         unnest(@superseded_bys::text[]) AS superseded_by,
         unnest(@evidence::text[]) AS evidence,
         unnest(@close_reasons::text[]) AS close_reason,
         unnest(@close_reason_set::boolean[]) AS close_reason_set,
         unnest(@review_statuses::text[]) AS review_status
)
UPDATE facts f
SET valid_to = CASE WHEN u.valid_to_set THEN u.valid_to END, closed_seq = nullif(u.closed_seq, 0), status = u.status,
    superseded_by = nullif(u.superseded_by, ''), evidence = u.evidence::jsonb,
    close_reason = CASE WHEN u.close_reason_set THEN u.close_reason END, review_status = u.review_status
FROM u
WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.fact_id = u.fact_id;
