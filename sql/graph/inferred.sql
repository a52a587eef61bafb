-- Inferred statements of a space, optionally about one entity name (subject or object,
-- compared by normalized key), newest first.
SELECT seq, hash, model, ordinal, subject, predicate, object, confidence
FROM inferred_facts
WHERE space_id = $1
  AND ($2 = '' OR lower(regexp_replace(btrim(subject), '\s+', ' ', 'g')) = $2
               OR lower(regexp_replace(btrim(object), '\s+', ' ', 'g')) = $2)
ORDER BY seq DESC, model, ordinal
LIMIT $3
