-- Reverses 000055_space_import.up.sql: the chain link trigger of 000011, as it was.
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

DROP FUNCTION IF EXISTS zaxy_importing(text);
DROP FUNCTION IF EXISTS zaxy_import_begin(text);
DROP TABLE IF EXISTS space_imports;
