-- Erasure under an intact chain (docs/eventloom.md, "Version 2" and "Erasure").
--
-- Events appended from now on are hashed under rule version 2: the chain covers a salted digest
-- of the event's content and data (body_digest) instead of the bytes themselves, so the content
-- and data of an event can later be replaced by a tombstone and the chain still verifies.
-- Events already in the log keep hash_version 1 and keep verifying under the old rule; they can
-- not be erased (their text is in the chain itself).
--
-- The salt (16 random bytes per event) is what keeps the digest of an erased event from being
-- guessed back: without it, SHA-256 of a short text ("yes", a name, a phone number) could be
-- found by trying candidates. Erasure removes the salt with the content and data.

ALTER TABLE events
  ADD COLUMN hash_version smallint NOT NULL DEFAULT 1
    CONSTRAINT events_hash_version CHECK (hash_version IN (1, 2)),
  ADD COLUMN salt bytea CONSTRAINT events_salt_length CHECK (length(salt) = 16),
  ADD COLUMN body_digest bytea CONSTRAINT events_body_digest_length CHECK (length(body_digest) = 32),
  ADD COLUMN erased_by_seq bigint,
  -- Version 1 rows have none of the version 2 columns; version 2 rows always have a digest,
  -- and a salt exactly when they are not erased; an erased row holds only the tombstone.
  ADD CONSTRAINT events_version_fields CHECK (
    CASE hash_version
      WHEN 1 THEN salt IS NULL AND body_digest IS NULL AND erased_by_seq IS NULL
      ELSE body_digest IS NOT NULL AND (salt IS NULL) = (erased_by_seq IS NOT NULL)
           AND (erased_by_seq IS NULL OR (erased_by_seq > seq AND content = '' AND data = '{}'::jsonb))
    END);

COMMENT ON COLUMN events.hash_version IS 'Which canonical rule the hash follows: 1 (content and data inline) or 2 (their salted digest).';
COMMENT ON COLUMN events.salt IS 'Version 2: 16 random bytes prefixed to the body digest; NULL once erased.';
COMMENT ON COLUMN events.body_digest IS 'Version 2: SHA-256(salt || field(content) || field(data)), which the hash covers.';
COMMENT ON COLUMN events.erased_by_seq IS 'The seq of the erasure.recorded event that replaced content and data with the tombstone.';

-- SHA-256(salt || field(content) || field(data)) with field(v) = "<UTF-8 byte length>:<v>\n"
-- and data as its jsonb text.
CREATE FUNCTION zaxy_event_body_digest(salt bytea, content text, data jsonb) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  d text := data::text;
BEGIN
  RETURN sha256(salt || convert_to(concat(octet_length(content), ':', content, E'\n',
    octet_length(d), ':', d, E'\n'), 'UTF8'));
END $$;

-- The exact bytes a version 2 event's hash covers (after prev_hash): version 1's fields with
-- content and data replaced by one field, the lowercase hex of body_digest.
CREATE FUNCTION zaxy_event_canonical_v2(
  space_id text, seq bigint, type text, session_id text, actor text,
  occurred_at timestamptz, recorded_at timestamptz, body_digest bytea, cues jsonb
) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  o text := to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  r text := to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  s text := seq::text;
  b text := encode(body_digest, 'hex');
  c text := cues::text;
BEGIN
  RETURN convert_to(concat('zaxy-event-v2', E'\n',
    octet_length(space_id), ':', space_id, E'\n',
    octet_length(s), ':', s, E'\n',
    octet_length(type), ':', type, E'\n',
    octet_length(session_id), ':', session_id, E'\n',
    octet_length(actor), ':', actor, E'\n',
    octet_length(o), ':', o, E'\n',
    octet_length(r), ':', r, E'\n',
    octet_length(b), ':', b, E'\n',
    octet_length(c), ':', c, E'\n'), 'UTF8');
END $$;

-- The chain link trigger, now hashing under version 2 (see 000002 for the locking and the
-- chain tail hint, unchanged). Whatever a client supplied for hash_version, salt, body_digest
-- and erased_by_seq is replaced.
CREATE OR REPLACE FUNCTION events_link() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  tail text[] := string_to_array(current_setting('zaxy.chain_tail', true), ' ');
  last_seq bigint := 0;
  last_hash bytea := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
  last_recorded timestamptz;
  s text;
  r text;
  o text;
  d text;
  c text;
  b text;
BEGIN
  IF tail[1] = NEW.space_id THEN
    last_seq := tail[2]::bigint;
    last_hash := decode(tail[3], 'hex');
    last_recorded := tail[4]::timestamptz;
  ELSE
    -- Serializes writers of one space until commit; other spaces use other keys.
    PERFORM pg_advisory_xact_lock(1517840761, hashtext(NEW.space_id));
    SELECT e.seq, e.hash, e.recorded_at INTO last_seq, last_hash, last_recorded
    FROM events e WHERE e.space_id = NEW.space_id
    ORDER BY e.seq DESC LIMIT 1;
    IF NOT FOUND THEN
      last_seq := 0;
      last_hash := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
    END IF;
  END IF;

  NEW.seq := last_seq + 1;
  -- recorded_at never goes backwards along a chain (clock_timestamp() has microsecond precision).
  NEW.recorded_at := greatest(clock_timestamp(), last_recorded);
  IF NEW.occurred_at IS NULL THEN
    NEW.occurred_at := NEW.recorded_at;
  END IF;
  IF NEW.session_id IS NULL OR NEW.actor IS NULL OR NEW.content IS NULL OR NEW.data IS NULL OR NEW.cues IS NULL THEN
    NEW.session_id := coalesce(NEW.session_id, '');
    NEW.actor := coalesce(NEW.actor, '');
    NEW.content := coalesce(NEW.content, '');
    NEW.data := coalesce(NEW.data, '{}');
    NEW.cues := coalesce(NEW.cues, '{}');
  END IF;
  NEW.prev_hash := last_hash;
  NEW.hash_version := 2;
  NEW.erased_by_seq := NULL;
  NEW.salt := uuid_send(gen_random_uuid());

  -- zaxy_event_body_digest(...) and zaxy_event_canonical_v2(...), inline.
  s := NEW.seq::text;
  r := to_char(NEW.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  o := CASE WHEN NEW.occurred_at = NEW.recorded_at THEN r
       ELSE to_char(NEW.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END;
  d := NEW.data::text;
  c := NEW.cues::text;
  NEW.body_digest := sha256(NEW.salt || convert_to(concat(octet_length(NEW.content), ':', NEW.content, E'\n',
    octet_length(d), ':', d, E'\n'), 'UTF8'));
  b := encode(NEW.body_digest, 'hex');
  NEW.hash := sha256(last_hash || convert_to(concat('zaxy-event-v2', E'\n',
    octet_length(NEW.space_id), ':', NEW.space_id, E'\n',
    octet_length(s), ':', s, E'\n',
    octet_length(NEW.type), ':', NEW.type, E'\n',
    octet_length(NEW.session_id), ':', NEW.session_id, E'\n',
    octet_length(NEW.actor), ':', NEW.actor, E'\n',
    octet_length(o), ':', o, E'\n',
    octet_length(r), ':', r, E'\n',
    '64:', b, E'\n',
    octet_length(c), ':', c, E'\n'), 'UTF8'));

  PERFORM set_config('zaxy.chain_tail', concat(NEW.space_id, ' ', s, ' ', encode(NEW.hash, 'hex'), ' ', r), true);
  RETURN NEW;
END $$;

-- The only UPDATE the log allows, for every role including the owner: erasing a version 2
-- event that is not erased yet, bound to an erasure.recorded event later in the same chain that
-- names it. Every column but content, data, salt and erased_by_seq stays as it was (the digest
-- and hash above all), content and data become the tombstone ('' and {}), the salt goes.
-- Anything else raises ZX001 like before. zaxy_erase is the path the service takes.
CREATE FUNCTION events_erase_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.hash_version = 2 AND OLD.erased_by_seq IS NULL AND OLD.type <> 'erasure.recorded'
     AND NEW.erased_by_seq IS NOT NULL AND NEW.erased_by_seq > OLD.seq
     AND NEW.content = '' AND NEW.data = '{}'::jsonb AND NEW.salt IS NULL
     AND (NEW.space_id, NEW.seq, NEW.type, NEW.session_id, NEW.actor, NEW.occurred_at, NEW.recorded_at,
          NEW.cues, NEW.prev_hash, NEW.hash, NEW.hash_version, NEW.body_digest)
         IS NOT DISTINCT FROM
         (OLD.space_id, OLD.seq, OLD.type, OLD.session_id, OLD.actor, OLD.occurred_at, OLD.recorded_at,
          OLD.cues, OLD.prev_hash, OLD.hash, OLD.hash_version, OLD.body_digest)
     AND EXISTS (SELECT FROM events m
                 WHERE m.space_id = OLD.space_id AND m.seq = NEW.erased_by_seq
                   AND m.type = 'erasure.recorded' AND m.data->>'seq' = OLD.seq::text) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'UPDATE on events is not allowed: the table is append-only (only zaxy_erase may replace a version 2 event''s content and data with the tombstone)'
    USING ERRCODE = 'ZX001';
END $$;

DROP TRIGGER events_no_update_delete ON events;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
CREATE TRIGGER events_erase_only BEFORE UPDATE ON events
  FOR EACH ROW EXECUTE FUNCTION events_erase_check();

-- Idempotency records keep an unsalted SHA-256 of the request that appended events, which
-- would confirm a guess of an erased event's whole request. The one UPDATE they allow: zeroing
-- request_hash of a record whose seq range holds an erased event (a retry with that key is then
-- a conflict, never a replay of erased content). Anything else raises ZX001 as before.
CREATE FUNCTION idempotency_keys_erase_check() RETURNS trigger
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

DROP TRIGGER idempotency_keys_no_update_delete ON idempotency_keys;
CREATE TRIGGER idempotency_keys_no_delete BEFORE DELETE ON idempotency_keys
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
CREATE TRIGGER idempotency_keys_erase_only BEFORE UPDATE ON idempotency_keys
  FOR EACH ROW EXECUTE FUNCTION idempotency_keys_erase_check();

-- Erases one event: appends the erasure.recorded event naming it (data {"seq": N, "reason": R},
-- no content) through the ordinary chain trigger, then replaces the event's content and data
-- with the tombstone. Returns the erasure event's seq and hash. Refusals:
--   ZX030  no such event in the space;
--   ZX031  the event cannot be erased (hashed under version 1, already erased, or itself an
--          erasure record).
-- It also zeroes request_hash of the idempotency record that covers the event.
-- SECURITY DEFINER because the application role may not update the log; who may call it is
-- the service's business (the admin scope). The caller must purge the projections in the
-- same transaction (package erasure does).
CREATE FUNCTION zaxy_erase(p_space text, p_seq bigint, p_reason text, p_actor text,
  OUT erasure_seq bigint, OUT erasure_hash bytea)
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  t record;
BEGIN
  IF p_reason IS NULL OR length(btrim(p_reason)) = 0 OR length(p_reason) > 1000 THEN
    RAISE EXCEPTION 'reason must be 1 to 1000 characters' USING ERRCODE = 'ZX031';
  END IF;
  -- The space's chain lock first (the append below takes it anyway), so two erasures of one
  -- event are serialized and the second sees the first.
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(p_space));
  SELECT e.seq, e.type, e.hash_version, e.erased_by_seq INTO t
  FROM events e WHERE e.space_id = p_space AND e.seq = p_seq;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'space % has no event with seq %', p_space, p_seq USING ERRCODE = 'ZX030';
  END IF;
  IF t.erased_by_seq IS NOT NULL THEN
    RAISE EXCEPTION 'event % of space % is already erased (by seq %)', p_seq, p_space, t.erased_by_seq
      USING ERRCODE = 'ZX031';
  END IF;
  IF t.hash_version = 1 THEN
    RAISE EXCEPTION 'event % of space % was hashed under version 1, which covers its content itself: erasing it would break the chain', p_seq, p_space
      USING ERRCODE = 'ZX031';
  END IF;
  IF t.type = 'erasure.recorded' THEN
    RAISE EXCEPTION 'event % of space % is an erasure record, which cannot be erased', p_seq, p_space
      USING ERRCODE = 'ZX031';
  END IF;
  INSERT INTO events (space_id, type, actor, data)
  VALUES (p_space, 'erasure.recorded', coalesce(p_actor, ''), jsonb_build_object('seq', p_seq, 'reason', p_reason))
  RETURNING seq, hash INTO erasure_seq, erasure_hash;
  UPDATE events SET content = '', data = '{}'::jsonb, salt = NULL, erased_by_seq = erasure_seq
  WHERE space_id = p_space AND seq = p_seq;
  UPDATE idempotency_keys SET request_hash = '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
  WHERE space_id = p_space AND p_seq BETWEEN first_seq AND last_seq
    AND request_hash <> '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
END $$;

REVOKE ALL ON FUNCTION zaxy_erase(text, bigint, text, text) FROM PUBLIC;

-- Verify, learning version 2 and erasure. The reasons, in the order they are checked for each
-- event, are the same words as the Go verifier's and tools/verifylog's.
CREATE OR REPLACE FUNCTION zaxy_verify(p_space_id text)
RETURNS TABLE (space_id text, events bigint, head_seq bigint, head_hash bytea,
               ok boolean, broken_seq bigint, reason text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  zero bytea := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
  n bigint;
  last_seq bigint;
  last_hash bytea;
  recorded_head_seq bigint;
  recorded_head_hash bytea;
BEGIN
  space_id := p_space_id;
  SELECT s.head_seq, s.head_hash INTO recorded_head_seq, recorded_head_hash
  FROM spaces s WHERE s.space_id = p_space_id;

  SELECT count(*), max(e.seq) INTO n, last_seq FROM events e WHERE e.space_id = p_space_id;
  events := n;
  IF n = 0 AND recorded_head_seq IS NULL THEN
    RETURN; -- no such space: no rows
  END IF;
  SELECT e.hash INTO last_hash FROM events e WHERE e.space_id = p_space_id AND e.seq = last_seq;
  head_seq := last_seq;
  head_hash := last_hash;

  SELECT c.broken, c.why INTO broken_seq, reason
  FROM (
    SELECT w.seq,
      CASE
        WHEN w.seq <> coalesce(w.before_seq, 0) + 1 THEN coalesce(w.before_seq, 0) + 1
        ELSE w.seq
      END AS broken,
      CASE
        WHEN w.seq <> coalesce(w.before_seq, 0) + 1 AND w.seq > coalesce(w.before_seq, 0) + 1 THEN
          format('seq %s is missing (the log jumps from seq %s to seq %s)',
                 coalesce(w.before_seq, 0) + 1, coalesce(w.before_seq, 0), w.seq)
        WHEN w.seq <> coalesce(w.before_seq, 0) + 1 THEN
          format('seq %s is out of order', w.seq)
        WHEN w.prev_hash <> coalesce(w.before_hash, zero) THEN
          'prev_hash does not match the hash of the previous event'
        WHEN w.hash_version = 2 AND w.erased_by_seq IS NULL
             AND (w.salt IS NULL OR w.body_digest IS DISTINCT FROM zaxy_event_body_digest(w.salt, w.content, w.data)) THEN
          'content or data does not match the event''s body digest'
        WHEN w.hash_version = 2 AND w.erased_by_seq IS NOT NULL
             AND (w.content <> '' OR w.data <> '{}'::jsonb OR w.salt IS NOT NULL) THEN
          'an erased event holds more than the tombstone'
        WHEN w.hash IS DISTINCT FROM w.expected THEN
          'hash does not match the recomputed hash of the event'
        WHEN w.erased_by_seq IS NOT NULL AND NOT EXISTS (
               SELECT FROM events m
               WHERE m.space_id = p_space_id AND m.seq = w.erased_by_seq AND m.seq > w.seq
                 AND m.type = 'erasure.recorded' AND m.data->>'seq' = w.seq::text) THEN
          'the event is erased but no later erasure.recorded event names it'
      END AS why
    FROM (
      SELECT e.seq, e.prev_hash, e.hash, e.hash_version, e.salt, e.body_digest, e.erased_by_seq,
        e.content, e.data,
        lag(e.seq) OVER win AS before_seq,
        lag(e.hash) OVER win AS before_hash,
        CASE e.hash_version
          WHEN 1 THEN sha256(e.prev_hash || zaxy_event_canonical(e.space_id, e.seq, e.type, e.session_id, e.actor,
            e.occurred_at, e.recorded_at, e.content, e.data, e.cues))
          WHEN 2 THEN sha256(e.prev_hash || zaxy_event_canonical_v2(e.space_id, e.seq, e.type, e.session_id, e.actor,
            e.occurred_at, e.recorded_at, e.body_digest, e.cues))
        END AS expected
      FROM events e
      WHERE e.space_id = p_space_id
      WINDOW win AS (ORDER BY e.seq)
    ) w
  ) c
  WHERE c.why IS NOT NULL
  ORDER BY c.seq
  LIMIT 1;

  IF broken_seq IS NULL THEN
    IF recorded_head_seq IS NULL THEN
      broken_seq := 1;
      reason := 'the space has events but no chain head';
    ELSIF recorded_head_seq > coalesce(last_seq, 0) THEN
      broken_seq := coalesce(last_seq, 0) + 1;
      reason := format('the chain head is seq %s but the log ends at seq %s', recorded_head_seq, coalesce(last_seq, 0));
    ELSIF recorded_head_seq < last_seq THEN
      broken_seq := recorded_head_seq + 1;
      reason := format('the log continues past the chain head (seq %s)', recorded_head_seq);
    ELSIF recorded_head_hash <> last_hash THEN
      broken_seq := last_seq;
      reason := 'the last event''s hash does not match the chain head';
    END IF;
  END IF;

  ok := broken_seq IS NULL;
  RETURN NEXT;
END $$;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT EXECUTE ON FUNCTION zaxy_erase(text, bigint, text, text) TO zaxy_app;
  END IF;
END $$;
