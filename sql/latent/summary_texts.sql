-- name: SummaryTexts :many
-- The text of the given events of the space, in seq order: what an episode's summary is made
-- from (an event's content, else its type and data). Erased events are tombstones without text.
SELECT e.seq, e.type, e.content, e.data::text AS data
FROM events e
WHERE e.space_id = @space_id AND e.seq = ANY(@seqs::bigint[])
ORDER BY e.seq;
