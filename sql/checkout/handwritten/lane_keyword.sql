-- Keyword lane: Okapi BM25 over the space's term statistics (term_stats, term_totals;
-- docs/checkout.md). $1 space, $2 query, $3 text search configuration, $4 as_of, $5 how many to
-- return, $6 the candidate budget, $7 k1 and $8 b (Mechanism.BM25K1, BM25B). term_stats is keyed
-- by the space's integer key (spaces.space_key, migration 000065), resolved from $1 once.
--
-- Query terms are the distinct lexemes of zaxy_path_tsv($3, $2) (to_tsvector and the segments of its paths, migration 000046) that occur in the space. Two
-- stages: the GIN index finds the items holding any of the rarest terms, taken in order of
-- document frequency while their summed frequency stays within the budget (always at least the
-- rarest), so the candidate set is complete for those terms and never an arbitrary cut of a
-- common word's postings; then every candidate is scored over all query terms:
--   idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))
--   score  = sum over t of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))
-- with N the space's items, len an item's tokens (tsv_len) and tf a term's positions in it.
-- The candidates are materialized, so each is read and unnested once however few query terms
-- the planner expects. Each candidate's query terms are marked (setweight to A) and kept
-- (ts_filter), and the scores are one grouped sum over all candidates' kept terms rather than a
-- subquery per candidate; each sums its terms in lexeme order, so equal scores come out bit for
-- bit equal whatever the plan. The space's average length is materialized too: inlined, the
-- planner may look it up in term_totals once per candidate term.
-- The item of an erased event whose purge is pending (zaxy_erased_pending, migration 000054) is
-- no candidate: its old index would rank it by what it said.
WITH terms AS (
  SELECT s.lexeme, s.df,
         ln(1 + (t.items - s.df + 0.5::float8) / (s.df + 0.5::float8)) AS idf,
         sum(s.df) OVER (ORDER BY s.df, s.lexeme) AS cum
  FROM (SELECT DISTINCT lexeme FROM unnest(zaxy_path_tsv($3::regconfig, $2))) q
  JOIN term_stats s ON s.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND s.lexeme = q.lexeme
  CROSS JOIN term_totals t
  WHERE t.space_id = $1
), q AS (
  SELECT string_agg('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || '''', ' | ')::tsquery AS tsq,
         array_agg(lexeme) AS lexemes
  FROM terms
  WHERE cum <= $6 OR cum = df
), avg AS MATERIALIZED (
  SELECT tokens::float8 / greatest(items, 1) AS len FROM term_totals WHERE space_id = $1
), cand AS MATERIALIZED (
  SELECT i.item_id, i.tsv_len,
         setweight(i.tsv, 'A', (SELECT array_agg(lexeme) FROM terms)) AS tsv
  FROM memory_items i, q
  WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND i.tsv @@ q.tsq AND i.occurred_at <= $4
    AND i.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
  LIMIT $6
)
SELECT c.item_id, sum(t.idf * u.tf * ($7::float8 + 1) / (u.tf + $7::float8 * (1 - $8::float8 + $8::float8 * c.tsv_len / avg.len))
           ORDER BY u.lexeme) AS score
FROM cand c
CROSS JOIN avg
CROSS JOIN LATERAL (SELECT l.lexeme, coalesce(array_length(l.positions, 1), 1) AS tf
                    FROM unnest(ts_filter(c.tsv, '{a}')) l) u
JOIN terms t ON t.lexeme = u.lexeme
GROUP BY c.item_id
ORDER BY score DESC, c.item_id
LIMIT $5
