-- Idempotency keys the service derives from what a request holds (a transcript's turns, a
-- document's text) are keyed by a secret of the space, and forgotten when an event they cover
-- is erased (docs/eventloom.md, "Erasure"; docs/security.md).
--
-- Before, a transcript's key was "transcript:" + SHA-256 of its turns (and a document's
-- "doc:" + SHA-256 of its id and text): the same in every space and computable by anyone, so
-- the key itself confirmed a guess of an erased text, and a re-sent guess got 409
-- idempotency_conflict naming the erased seq. Now such a key is
--   <prefix>:<hex HMAC-SHA256(space secret, material)>
-- where material is what the key used to be, and erasing an event renames the derived keys of
-- the records that cover it to "erased <first_seq>" (a shape no client key can take: it holds
-- a space), so a re-send of the erased text appends anew, as any text never sent would.

-- One random secret per space, created on first use by the application (32 bytes from the
-- Go runtime's CSPRNG). Never shown by the API, never granted to the analyst role.
CREATE TABLE space_secrets (
  space_id   text PRIMARY KEY,
  secret     bytea NOT NULL CONSTRAINT space_secrets_secret_length CHECK (length(secret) = 32),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

COMMENT ON TABLE space_secrets IS 'Per-space key of the idempotency keys the service derives from request content (HMAC-SHA256).';

-- HMAC-SHA256 (RFC 2104) with the built-in sha256, for re-keying the records already stored;
-- the application computes the same with Go's crypto/hmac.
CREATE FUNCTION zaxy_hmac_sha256(key bytea, msg bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  k bytea := key;
  ipad bytea;
  opad bytea;
BEGIN
  IF length(k) > 64 THEN
    k := sha256(k);
  END IF;
  k := k || decode(repeat('00', 64 - length(k)), 'hex');
  ipad := k;
  opad := k;
  FOR i IN 0..63 LOOP
    ipad := set_byte(ipad, i, get_byte(k, i) # 54);  -- 0x36
    opad := set_byte(opad, i, get_byte(k, i) # 92);  -- 0x5c
  END LOOP;
  RETURN sha256(opad || sha256(ipad || msg));
END $$;

-- Whether a key is one the service derives from content: transcript and document imports.
CREATE FUNCTION zaxy_derived_key(key text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN key LIKE 'transcript:%' OR key LIKE 'doc:%';

-- The UPDATEs idempotency_keys allows, both only for a record whose seq range holds an erased
-- event: zeroing request_hash (any key), and renaming a derived key to "erased <first_seq>"
-- with request_hash zeroed. Anything else raises ZX001 as before.
CREATE OR REPLACE FUNCTION idempotency_keys_erase_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  zero bytea := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
BEGIN
  IF NEW.request_hash = zero
     AND ((NEW.key = OLD.key AND OLD.request_hash <> zero)
          OR (zaxy_derived_key(OLD.key) AND NEW.key = 'erased ' || OLD.first_seq))
     AND (NEW.space_id, NEW.first_seq, NEW.last_seq, NEW.created_at)
         IS NOT DISTINCT FROM (OLD.space_id, OLD.first_seq, OLD.last_seq, OLD.created_at)
     AND EXISTS (SELECT FROM events e
                 WHERE e.space_id = OLD.space_id AND e.seq BETWEEN OLD.first_seq AND OLD.last_seq
                   AND e.erased_by_seq IS NOT NULL) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'UPDATE on idempotency_keys is not allowed: the table is append-only (only an erasure zeroes request_hash or forgets a derived key)'
    USING ERRCODE = 'ZX001';
END $$;

-- When an event is erased (zaxy_erase sets erased_by_seq), the derived keys of the records
-- that cover it are forgotten: renamed to "erased <first_seq>", request_hash zeroed. A trigger
-- rather than a line of zaxy_erase, so erasure itself is unchanged.
CREATE FUNCTION idempotency_keys_forget_erased() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE idempotency_keys
  SET key = 'erased ' || first_seq,
      request_hash = '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
  WHERE space_id = NEW.space_id AND NEW.seq BETWEEN first_seq AND last_seq AND zaxy_derived_key(key);
  RETURN NULL;
END $$;

CREATE TRIGGER events_erased_forget_keys AFTER UPDATE OF erased_by_seq ON events
  FOR EACH ROW WHEN (OLD.erased_by_seq IS NULL AND NEW.erased_by_seq IS NOT NULL)
  EXECUTE FUNCTION idempotency_keys_forget_erased();

-- The records already stored: a secret for every space that has derived keys, each derived
-- key re-keyed under it (so an import made before this migration is still recognized), and
-- the derived keys of records covering an erased event forgotten.
ALTER TABLE idempotency_keys DISABLE TRIGGER idempotency_keys_erase_only;

INSERT INTO space_secrets (space_id, secret)
SELECT k.space_id, sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8'))
FROM (SELECT DISTINCT space_id FROM idempotency_keys WHERE zaxy_derived_key(key)) k
ON CONFLICT (space_id) DO NOTHING;

UPDATE idempotency_keys k
SET key = CASE
      WHEN EXISTS (SELECT FROM events e WHERE e.space_id = k.space_id
                     AND e.seq BETWEEN k.first_seq AND k.last_seq AND e.erased_by_seq IS NOT NULL)
        THEN 'erased ' || k.first_seq
      ELSE split_part(k.key, ':', 1) || ':' || encode(zaxy_hmac_sha256(s.secret, convert_to(k.key, 'UTF8')), 'hex')
    END,
    request_hash = CASE
      WHEN EXISTS (SELECT FROM events e WHERE e.space_id = k.space_id
                     AND e.seq BETWEEN k.first_seq AND k.last_seq AND e.erased_by_seq IS NOT NULL)
        THEN '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
      ELSE k.request_hash
    END
FROM space_secrets s
WHERE s.space_id = k.space_id AND zaxy_derived_key(k.key);

ALTER TABLE idempotency_keys ENABLE TRIGGER idempotency_keys_erase_only;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT ON space_secrets TO zaxy_app;
  END IF;
END $$;
