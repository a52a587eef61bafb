-- How much of a replay page (the same filters and order as eventloom/replay) fits in a byte
-- budget, measured on the stored text before any row is fetched: the rows the page would hold
-- ($6 of them), how many of them fit in $7 bytes from the start, the last seq that fits, and
-- the first seq (named when even it does not fit). octet_length of content reads the TOAST
-- header, not the value.
WITH page AS (
  SELECT seq,
         sum(octet_length(content) + octet_length(data::text) + octet_length(cues::text)
             + octet_length(coalesce(session_id, '')) + octet_length(coalesce(actor, '')) + 512)
           OVER (ORDER BY seq) AS running
  FROM events
  WHERE space_id = $1
    AND seq > $2
    AND ($3::bigint IS NULL OR seq <= $3)
    AND ($4::text = '' OR session_id = $4)
    AND ($5::timestamptz IS NULL OR recorded_at <= $5)
  ORDER BY seq
  LIMIT $6
)
SELECT count(*) AS total,
       count(*) FILTER (WHERE running <= $7) AS fit,
       coalesce(max(seq) FILTER (WHERE running <= $7), 0) AS fit_seq,
       coalesce(min(seq), 0) AS first_seq
FROM page
