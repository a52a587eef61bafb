-- Reverses 000011_erasure.up.sql. Version 2 events no longer verify afterwards (the version 1
-- verify cannot read them): only for development databases.
DROP FUNCTION IF EXISTS zaxy_erase(text, bigint, text, text);

-- The version 1 trigger and verify of 000002, as they were.
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

  -- zaxy_event_canonical(...), inline.
  s := NEW.seq::text;
  r := to_char(NEW.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  o := CASE WHEN NEW.occurred_at = NEW.recorded_at THEN r
       ELSE to_char(NEW.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END;
  d := NEW.data::text;
  c := NEW.cues::text;
  NEW.hash := sha256(last_hash || convert_to(concat('zaxy-event-v1', E'\n',
    octet_length(NEW.space_id), ':', NEW.space_id, E'\n',
    octet_length(s), ':', s, E'\n',
    octet_length(NEW.type), ':', NEW.type, E'\n',
    octet_length(NEW.session_id), ':', NEW.session_id, E'\n',
    octet_length(NEW.actor), ':', NEW.actor, E'\n',
    octet_length(o), ':', o, E'\n',
    octet_length(r), ':', r, E'\n',
    octet_length(NEW.content), ':', NEW.content, E'\n',
    octet_length(d), ':', d, E'\n',
    octet_length(c), ':', c, E'\n'), 'UTF8'));

  PERFORM set_config('zaxy.chain_tail', concat(NEW.space_id, ' ', s, ' ', encode(NEW.hash, 'hex'), ' ', r), true);
  RETURN NEW;
END $$;

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
        WHEN w.hash <> w.expected THEN
          'hash does not match the recomputed hash of the event'
      END AS why
    FROM (
      SELECT e.seq, e.prev_hash, e.hash,
        lag(e.seq) OVER win AS before_seq,
        lag(e.hash) OVER win AS before_hash,
        sha256(e.prev_hash || zaxy_event_canonical(e.space_id, e.seq, e.type, e.session_id, e.actor,
          e.occurred_at, e.recorded_at, e.content, e.data, e.cues)) AS expected
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

DROP TRIGGER IF EXISTS idempotency_keys_erase_only ON idempotency_keys;
DROP TRIGGER IF EXISTS idempotency_keys_no_delete ON idempotency_keys;
CREATE TRIGGER idempotency_keys_no_update_delete BEFORE UPDATE OR DELETE ON idempotency_keys
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
DROP FUNCTION IF EXISTS idempotency_keys_erase_check();
DROP TRIGGER IF EXISTS events_erase_only ON events;
DROP TRIGGER IF EXISTS events_no_delete ON events;
CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
DROP FUNCTION IF EXISTS events_erase_check();
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_version_fields,
  DROP COLUMN IF EXISTS erased_by_seq, DROP COLUMN IF EXISTS body_digest,
  DROP COLUMN IF EXISTS salt, DROP COLUMN IF EXISTS hash_version;
DROP FUNCTION IF EXISTS zaxy_event_canonical_v2(text, bigint, text, text, text, timestamptz, timestamptz, bytea, jsonb);
DROP FUNCTION IF EXISTS zaxy_event_body_digest(bytea, text, jsonb);
