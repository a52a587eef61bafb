-- Benchmark only (zaxy bench append, in its scratch database): the append statement of
-- append.sql, same batch shape and columns, into bench_plain_events, a copy of events without
-- triggers. The client supplies seq ($9 + position) and constant hashes ($10), so the
-- difference to append.sql is the cost of the chain alone.
INSERT INTO bench_plain_events (space_id, seq, type, session_id, actor, occurred_at, recorded_at,
                                content, data, cues, prev_hash, hash)
SELECT $1, $9 + t.ord, t.type, t.session_id, t.actor, coalesce(t.occurred_at, clock_timestamp()),
       clock_timestamp(), t.content, coalesce(t.data::jsonb, '{}'), coalesce(t.cues::jsonb, '{}'), $10, $10
FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[])
  WITH ORDINALITY AS t (type, session_id, actor, occurred_at, content, data, cues, ord)
ORDER BY t.ord
RETURNING seq, hash, prev_hash, recorded_at, occurred_at
