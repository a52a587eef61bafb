-- Recent lane: the latest events of the session ($2; the whole space when empty) that had
-- occurred by $3, newest first, bookkeeping skipped.
SELECT e.seq
FROM events e
WHERE e.space_id = $1 AND ($2 = '' OR e.session_id = $2) AND e.occurred_at <= $3
  AND e.type NOT LIKE 'checkout.%' AND e.type NOT LIKE 'zaxy.%'
ORDER BY e.seq DESC
LIMIT $4
