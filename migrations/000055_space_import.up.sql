-- Importing a space's exported log (docs/scaling.md, "Moving a space's log: export and import").
--
-- An export carries every event with the values the database assigned it (recorded_at, the hash
-- rule, the salt, an erased event's digest), and a faithful copy must keep them: the hash covers
-- them. The events_link trigger keeps assigning them on every ordinary append; only inside a
-- transaction that zaxy_import_begin opened for an empty space does it take them from the row.
-- Even then it assigns seq and prev_hash and computes body_digest (unless erased) and hash
-- itself from the row's fields, and events_head checks the links as for any append, so an
-- import can only reproduce a chain, never write one whose hashes do not follow from its events.

-- One row per import: the space and the transaction that imports it. Only the owner writes it,
-- through zaxy_import_begin; the trigger asks zaxy_importing whether the current transaction
-- opened an import of the row's space.
CREATE TABLE space_imports (
  space_id   text NOT NULL,
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (space_id, xid)
);

COMMENT ON TABLE space_imports IS 'Imports of exported space logs: the space and the importing transaction (zaxy_import_begin).';

REVOKE ALL ON space_imports FROM PUBLIC;

-- Opens the import of p_space in the current transaction: takes the space's chain lock (the one
-- every append takes), refuses a space that already has events or a chain head (SQLSTATE ZX040),
-- records the import and sets the transaction-local zaxy.import to the space. Not granted to
-- the application role: imports run as the schema owner, like migrations.
CREATE FUNCTION zaxy_import_begin(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(p_space));
  IF EXISTS (SELECT FROM spaces s WHERE s.space_id = p_space)
     OR EXISTS (SELECT FROM events e WHERE e.space_id = p_space) THEN
    RAISE EXCEPTION 'space % already has events: an export is imported only into an empty space', p_space
      USING ERRCODE = 'ZX040';
  END IF;
  INSERT INTO space_imports (space_id) VALUES (p_space) ON CONFLICT DO NOTHING;
  PERFORM set_config('zaxy.import', p_space, true);
END $$;

REVOKE EXECUTE ON FUNCTION zaxy_import_begin(text) FROM PUBLIC;

-- Whether the current transaction opened an import of p_space (zaxy_import_begin).
CREATE FUNCTION zaxy_importing(p_space text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT
RETURN EXISTS (SELECT FROM space_imports i WHERE i.space_id = p_space AND i.xid = pg_current_xact_id());

-- Only the roles that append may ask (the trigger runs as the appending role): not PUBLIC.
REVOKE EXECUTE ON FUNCTION zaxy_importing(text) FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT EXECUTE ON FUNCTION zaxy_importing(text) TO zaxy_app;
  END IF;
END $$;

-- The chain link trigger of 000011 with the import path: when zaxy.import names the row's space
-- and zaxy_importing confirms it, recorded_at, occurred_at, hash_version, salt and (for an
-- erased event) body_digest and erased_by_seq are the row's; seq, prev_hash, the body digest of
-- an event not erased and the hash are computed as always. A zaxy.import that no
-- zaxy_import_begin backs changes nothing: the values are replaced as on any append.
CREATE OR REPLACE FUNCTION events_link() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  tail text[] := string_to_array(current_setting('zaxy.chain_tail', true), ' ');
  last_seq bigint := 0;
  last_hash bytea := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
  last_recorded timestamptz;
  importing boolean := false;
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

  IF coalesce(current_setting('zaxy.import', true), '') = NEW.space_id THEN
    importing := zaxy_importing(NEW.space_id);
  END IF;

  NEW.seq := last_seq + 1;
  IF NOT importing OR NEW.recorded_at IS NULL THEN
    -- recorded_at never goes backwards along a chain (clock_timestamp() has microsecond precision).
    NEW.recorded_at := greatest(clock_timestamp(), last_recorded);
  END IF;
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

  s := NEW.seq::text;
  r := to_char(NEW.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  o := CASE WHEN NEW.occurred_at = NEW.recorded_at THEN r
       ELSE to_char(NEW.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END;
  d := NEW.data::text;
  c := NEW.cues::text;

  IF importing AND NEW.hash_version = 1 THEN
    -- An imported version 1 event: zaxy_event_canonical(...), inline.
    NEW.salt := NULL;
    NEW.body_digest := NULL;
    NEW.erased_by_seq := NULL;
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
  ELSE
    NEW.hash_version := 2;
    IF NOT importing THEN
      NEW.erased_by_seq := NULL;
      NEW.salt := uuid_send(gen_random_uuid());
    ELSIF NEW.erased_by_seq IS NOT NULL THEN
      -- An imported erased event keeps its digest; the check constraint events_version_fields
      -- requires the tombstone and no salt, and verify requires its erasure record.
      NEW.salt := NULL;
    END IF;
    -- zaxy_event_body_digest(...) and zaxy_event_canonical_v2(...), inline.
    IF NEW.erased_by_seq IS NULL THEN
      NEW.body_digest := sha256(NEW.salt || convert_to(concat(octet_length(NEW.content), ':', NEW.content, E'\n',
        octet_length(d), ':', d, E'\n'), 'UTF8'));
    END IF;
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
  END IF;

  PERFORM set_config('zaxy.chain_tail', concat(NEW.space_id, ' ', s, ' ', encode(NEW.hash, 'hex'), ' ', r), true);
  RETURN NEW;
END $$;
