-- Stores session topics ($2 sessions, $3 seqs, $4 times, $5 vectors in text form).
INSERT INTO latent_topics (space_id, session_id, seq, occurred_at, vec)
SELECT $1, u.session_id, u.seq, u.occurred_at, u.vec
FROM unnest($2::text[], $3::bigint[], $4::timestamptz[], $5::vector[]) AS u(session_id, seq, occurred_at, vec)
ON CONFLICT (space_id, session_id) DO UPDATE SET seq = EXCLUDED.seq, occurred_at = EXCLUDED.occurred_at, vec = EXCLUDED.vec
