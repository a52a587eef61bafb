-- name: InferredFacts :many
-- Inferred statements of a space, optionally about one entity name (subject or object,
-- compared by normalized key), newest first.
SELECT seq, hash, model, ordinal, subject::text AS subject, predicate::text AS predicate,
       object::text AS object, confidence, review_status::text AS review_status
FROM inferred_facts
WHERE space_id = @space_id
  AND (@entity_key::text = '' OR lower(regexp_replace(btrim(subject), '\s+', ' ', 'g')) = @entity_key
               OR lower(regexp_replace(btrim(object), '\s+', ' ', 'g')) = @entity_key)
ORDER BY seq DESC, model, ordinal
LIMIT @max_rows;
