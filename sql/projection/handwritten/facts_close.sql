-- Closes, adds evidence to or changes the review status of stored facts. Runs before facts_insert so the one-current-version
-- index never sees two current rows.
UPDATE facts f
SET valid_to = u.valid_to, closed_seq = u.closed_seq, status = u.status,
    superseded_by = u.superseded_by, evidence = u.evidence::jsonb, close_reason = u.close_reason,
    review_status = u.review_status
FROM unnest($2::text[], $3::timestamptz[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
     AS u (fact_id, valid_to, closed_seq, status, superseded_by, evidence, close_reason, review_status)
WHERE f.space_id = $1 AND f.fact_id = u.fact_id
