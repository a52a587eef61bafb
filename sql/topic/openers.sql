-- name: Openers :many
-- Each session's first message (its topic) with its lexemes: every session when $2, else
-- only sessions without a topic yet.
SELECT o.session_id, o.seq, o.occurred_at,
       array_agg(t.lexeme ORDER BY t.lexeme)::text[] AS lexemes,
       array_agg(coalesce(cardinality(t.positions), 1) ORDER BY t.lexeme)::int[] AS counts
FROM (
  SELECT DISTINCT ON (i.session_id) i.session_id, i.seq, i.occurred_at, i.tsv
  FROM memory_items i
  WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND i.kind = 'event' AND i.event_type = 'message' AND i.session_id <> ''
    AND (@all_sessions::boolean OR NOT EXISTS (
      SELECT 1 FROM latent_topics p WHERE p.space_id = @space_id AND p.session_id = i.session_id))
  ORDER BY i.session_id, i.seq
) o
CROSS JOIN LATERAL unnest(o.tsv) t
GROUP BY o.session_id, o.seq, o.occurred_at
ORDER BY o.session_id;
