-- Storage (docs/topic.md, "Term blocks"): a space's topic term vectors are stored in blocks of
-- about 3,900 bytes instead of a row a term. A row a term spent about 70 of its 250 bytes on
-- the tuple header, the space key and the index entry; a block row spends that once for some
-- twenty to thirty terms.
--
-- A block holds the space's terms in byte order of their lexemes (COLLATE "C"): the dimension
-- count (int2send) and the bits of a code (one byte), then per term its lexeme's byte length
-- (int2send), the lexeme (UTF-8), its scale (float4send) and its codes (component i = scale ×
-- code i). A rebuild (topic/block.go) writes 6-bit codes, packed; this migration keeps the
-- 8-bit codes it finds, one signed byte each (bits 8), so the vectors and what checkout ranks
-- stay the same until a space's next rebuild. A term whose record starts at byte offset o of
-- the space's records goes to block o / 3900, the rule topic/block.go cuts by. A lexeme is
-- found in the block with the greatest first_lexeme not after it. toast_tuple_target keeps a
-- block (at most one record over 3,900 bytes) inline and uncompressed: two fit in a page.
CREATE TABLE latent_term_blocks (
  space_key    int4  NOT NULL,
  first_lexeme text  COLLATE "C" NOT NULL,
  block        bytea NOT NULL
) WITH (toast_tuple_target = 8160);

INSERT INTO latent_term_blocks (space_key, first_lexeme, block)
SELECT r.space_key, min(r.lexeme), int2send(min(r.dims)::int2) || '\x08'::bytea || string_agg(r.rec, ''::bytea ORDER BY r.lexeme)
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
COMMENT ON TABLE latent_terms IS 'Topic model: each space''s idf-weighted term vectors in blocks by lexeme (topic/block.go), 6-bit codes (8-bit in blocks migration 000070 converted), by spaces.space_key; zaxy_latent_block_terms(block) lists a block''s terms.';

-- A block's terms as rows: lexeme, scale and codes, one signed byte each (component i =
-- scale × code i), for operators and the down migration.
CREATE FUNCTION zaxy_latent_block_terms(block bytea)
RETURNS TABLE (lexeme text, scale real, q8 bytea)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  WITH RECURSIVE
    h AS (SELECT d.dims, get_byte(block, 2) AS bits,
                 CASE get_byte(block, 2) WHEN 8 THEN d.dims ELSE (d.dims * 6 + 7) / 8 END AS size
          FROM (SELECT (get_byte(block, 0) << 8) | get_byte(block, 1) AS dims) d),
    r AS (
      SELECT 3 AS pos, (get_byte(block, 3) << 8) | get_byte(block, 4) AS len
      WHERE length(block) > 3
      UNION ALL
      SELECT r.pos + 6 + r.len + h.size,
             (get_byte(block, r.pos + 6 + r.len + h.size) << 8) | get_byte(block, r.pos + 7 + r.len + h.size)
      FROM r, h
      WHERE r.pos + 6 + r.len + h.size < length(block)
    )
  SELECT convert_from(substring(block FROM r.pos + 3 FOR r.len), 'UTF8'),
         (CASE WHEN f.bits < 0 THEN -1 ELSE 1 END *
          CASE WHEN (f.bits >> 23) & 255 = 0 THEN (f.bits & 8388607)::float8 * 2::float8 ^ -149
               ELSE (1 + (f.bits & 8388607)::float8 / 8388608) * 2::float8 ^ (((f.bits >> 23) & 255) - 127) END)::real,
         CASE WHEN h.bits = 8 THEN substring(block FROM r.pos + 7 + r.len FOR h.dims) ELSE c.codes END
  FROM r CROSS JOIN h
  CROSS JOIN LATERAL (SELECT ('x' || encode(substring(block FROM r.pos + 3 + r.len FOR 4), 'hex'))::bit(32)::int4 AS bits) f
  CROSS JOIN LATERAL (
    -- 6-bit codes: code j is the 6 bits at bit 6j of the packed bytes, two's complement.
    SELECT string_agg(decode(lpad(to_hex(u.u + CASE WHEN u.u >= 32 THEN 192 ELSE 0 END), 2, '0'), 'hex'), ''::bytea ORDER BY j) AS codes
    FROM generate_series(0, h.dims - 1) j
    CROSS JOIN LATERAL (
      SELECT (((get_byte(block, r.pos + 6 + r.len + 6 * j / 8) << 8)
               | CASE WHEN 6 * j / 8 + 1 < h.size THEN get_byte(block, r.pos + 7 + r.len + 6 * j / 8) ELSE 0 END)
              >> (10 - 6 * j % 8)) & 63 AS u) u
    WHERE h.bits = 6
  ) c
  ORDER BY r.pos
$$;

REVOKE ALL ON latent_terms FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE, MAINTAIN ON latent_terms TO zaxy_app;
  END IF;
END $$;
