-- Storage (docs/topic.md, "Where it is stored"): a space's topic term vectors are stored in
-- blocks of about 3,900 bytes instead of a row a term. A row a term spent about 70 of its
-- 250 bytes on the tuple header, the space key and the index entry; a block row spends that
-- once for some twenty terms. The vectors themselves are unchanged, so checkout ranks as before.
--
-- A block holds the space's terms in byte order of their lexemes (COLLATE "C"): the dimension
-- count (int2send), then per term its lexeme's byte length (int2send), the lexeme (UTF-8), its
-- scale (float4send) and its 8-bit codes (component i = scale × the signed byte). A term whose
-- record starts at byte offset o of the space's records goes to block o / 3900, the rule
-- topic/block.go cuts by, so the blocks built here equal the ones a rebuild writes. A lexeme is
-- found in the block with the greatest first_lexeme not after it. toast_tuple_target keeps a
-- block (at most one record over 3,900 bytes) inline and uncompressed: two fit in a page.
CREATE TABLE latent_term_blocks (
  space_key    int4  NOT NULL,
  first_lexeme text  COLLATE "C" NOT NULL,
  block        bytea NOT NULL
) WITH (toast_tuple_target = 8160);

INSERT INTO latent_term_blocks (space_key, first_lexeme, block)
SELECT r.space_key, min(r.lexeme), int2send(min(r.dims)::int2) || string_agg(r.rec, ''::bytea ORDER BY r.lexeme)
FROM (
  SELECT t.space_key, t.lexeme, t.dims, t.rec,
         coalesce(sum(length(t.rec)) OVER (PARTITION BY t.space_key ORDER BY t.lexeme
                                           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / 3900 AS n
  FROM (
    SELECT space_key, lexeme COLLATE "C" AS lexeme, length(q8) AS dims,
           int2send(octet_length(lexeme)::int2) || convert_to(lexeme, 'UTF8') || float4send(scale) || q8 AS rec
    FROM latent_terms
  ) t
) r
GROUP BY r.space_key, r.n
ORDER BY 1, 2;
DROP TABLE latent_terms;
ALTER TABLE latent_term_blocks RENAME TO latent_terms;
ALTER TABLE latent_terms ADD CONSTRAINT latent_terms_pkey PRIMARY KEY (space_key, first_lexeme);
COMMENT ON TABLE latent_terms IS 'Topic model: each space''s idf-weighted term vectors in blocks by lexeme (topic/block.go), by spaces.space_key; zaxy_latent_block_terms(block) lists a block''s terms.';

-- A block's terms as rows: lexeme, scale and 8-bit codes (for operators, and the down
-- migration).
CREATE FUNCTION zaxy_latent_block_terms(block bytea)
RETURNS TABLE (lexeme text, scale real, q8 bytea)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  WITH RECURSIVE
    h AS (SELECT (get_byte(block, 0) << 8) | get_byte(block, 1) AS dims),
    r AS (
      SELECT 2 AS pos, (get_byte(block, 2) << 8) | get_byte(block, 3) AS len
      WHERE length(block) > 2
      UNION ALL
      SELECT r.pos + 6 + r.len + h.dims,
             (get_byte(block, r.pos + 6 + r.len + h.dims) << 8) | get_byte(block, r.pos + 7 + r.len + h.dims)
      FROM r, h
      WHERE r.pos + 6 + r.len + h.dims < length(block)
    )
  SELECT convert_from(substring(block FROM r.pos + 3 FOR r.len), 'UTF8'),
         (CASE WHEN f.bits < 0 THEN -1 ELSE 1 END *
          CASE WHEN (f.bits >> 23) & 255 = 0 THEN (f.bits & 8388607)::float8 * 2::float8 ^ -149
               ELSE (1 + (f.bits & 8388607)::float8 / 8388608) * 2::float8 ^ (((f.bits >> 23) & 255) - 127) END)::real,
         substring(block FROM r.pos + 7 + r.len FOR h.dims)
  FROM r CROSS JOIN h
  CROSS JOIN LATERAL (SELECT ('x' || encode(substring(block FROM r.pos + 3 + r.len FOR 4), 'hex'))::bit(32)::int4 AS bits) f
  ORDER BY r.pos
$$;

REVOKE ALL ON latent_terms FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE, MAINTAIN ON latent_terms TO zaxy_app;
  END IF;
END $$;
