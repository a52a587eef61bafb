-- Drops the space secrets and the forgetting of derived keys, and restores the erasure check of
-- 000011. Keys already re-keyed or forgotten stay as they are: an import made before the down
-- migration is then not recognized again and a re-send appends it anew.
DROP TRIGGER IF EXISTS events_erased_forget_keys ON events;
DROP FUNCTION IF EXISTS idempotency_keys_forget_erased();

CREATE OR REPLACE FUNCTION idempotency_keys_erase_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.request_hash = '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
     AND OLD.request_hash <> NEW.request_hash
     AND (NEW.space_id, NEW.key, NEW.first_seq, NEW.last_seq, NEW.created_at)
         IS NOT DISTINCT FROM (OLD.space_id, OLD.key, OLD.first_seq, OLD.last_seq, OLD.created_at)
     AND EXISTS (SELECT FROM events e
                 WHERE e.space_id = OLD.space_id AND e.seq BETWEEN OLD.first_seq AND OLD.last_seq
                   AND e.erased_by_seq IS NOT NULL) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'UPDATE on idempotency_keys is not allowed: the table is append-only (only an erasure zeroes request_hash)'
    USING ERRCODE = 'ZX001';
END $$;

DROP FUNCTION IF EXISTS zaxy_derived_key(text);
DROP FUNCTION IF EXISTS zaxy_hmac_sha256(bytea, bytea);
DROP TABLE IF EXISTS space_secrets;
