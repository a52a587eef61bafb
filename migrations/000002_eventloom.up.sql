-- Eventloom: the append-only, hash-chained event log that is Zaxy's source of truth.
-- The chain is linked by a BEFORE INSERT trigger under a per-space advisory lock, so writers in
-- different spaces never wait for each other. docs/eventloom.md specifies the hashed bytes.

DO $$
BEGIN
  IF current_setting('server_encoding') <> 'UTF8' THEN
    RAISE EXCEPTION 'zaxy needs a UTF8 database (this one is %)', current_setting('server_encoding');
  END IF;
  IF NOT EXISTS (SELECT FROM pg_available_extensions WHERE name = 'vector') THEN
    RAISE EXCEPTION 'zaxy needs the pgvector extension: install postgresql-17-pgvector (or use testcontainers/postgres.sh)';
  END IF;
END $$;

CREATE EXTENSION IF NOT EXISTS vector;

-- The error raised when anything tries to change or remove the log.
-- SQLSTATE ZX001 is mapped to eventloom.ErrAppendOnly.
CREATE FUNCTION zaxy_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% on % is not allowed: the table is append-only', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'ZX001';
END $$;

-- A space exists from its first append. Its row holds the chain head, maintained by the
-- events_head trigger, so verify can tell when the end of the log has been cut off.
CREATE TABLE spaces (
  space_id   text PRIMARY KEY
             CONSTRAINT spaces_space_id_format CHECK (space_id ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  head_seq   bigint NOT NULL,
  head_hash  bytea NOT NULL,
  head_at    timestamptz NOT NULL
);

CREATE TABLE events (
  space_id    text NOT NULL
              CONSTRAINT events_space_id_format CHECK (space_id ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  seq         bigint NOT NULL CONSTRAINT events_seq_positive CHECK (seq > 0),
  type        text NOT NULL
              CONSTRAINT events_type_format CHECK (type ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$' AND length(type) <= 128),
  session_id  text NOT NULL DEFAULT '' CONSTRAINT events_session_id_length CHECK (length(session_id) <= 256),
  actor       text NOT NULL DEFAULT '' CONSTRAINT events_actor_length CHECK (length(actor) <= 256),
  occurred_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL,
  content     text NOT NULL DEFAULT '',
  data        jsonb NOT NULL DEFAULT '{}' CONSTRAINT events_data_object CHECK (jsonb_typeof(data) = 'object'),
  cues        jsonb NOT NULL DEFAULT '{}' CONSTRAINT events_cues_object CHECK (jsonb_typeof(cues) = 'object'),
  prev_hash   bytea NOT NULL CONSTRAINT events_prev_hash_length CHECK (length(prev_hash) = 32),
  hash        bytea NOT NULL CONSTRAINT events_hash_length CHECK (length(hash) = 32),
  PRIMARY KEY (space_id, seq)
);

CREATE INDEX events_session ON events (space_id, session_id, seq) WHERE session_id <> '';

COMMENT ON TABLE events IS 'Eventloom: append-only, hash-chained per space. Never updated or deleted.';

-- The exact bytes an event's hash covers (after prev_hash). See docs/eventloom.md.
-- Each field is "<UTF-8 byte length>:<value>\n"; timestamps are UTC "YYYY-MM-DDTHH:MM:SS.ffffffZ".
-- Written as one plpgsql body without nested SQL function calls: about 10x faster per row.
CREATE FUNCTION zaxy_event_canonical(
  space_id text, seq bigint, type text, session_id text, actor text,
  occurred_at timestamptz, recorded_at timestamptz, content text, data jsonb, cues jsonb
) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  o text := to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  r text := to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  s text := seq::text;
  d text := data::text;
  c text := cues::text;
BEGIN
  RETURN convert_to(concat('zaxy-event-v1', E'\n',
    octet_length(space_id), ':', space_id, E'\n',
    octet_length(s), ':', s, E'\n',
    octet_length(type), ':', type, E'\n',
    octet_length(session_id), ':', session_id, E'\n',
    octet_length(actor), ':', actor, E'\n',
    octet_length(o), ':', o, E'\n',
    octet_length(r), ':', r, E'\n',
    octet_length(content), ':', content, E'\n',
    octet_length(d), ':', d, E'\n',
    octet_length(c), ':', c, E'\n'), 'UTF8');
END $$;

-- Links each new event into its space's chain. Whatever a client supplied for seq,
-- recorded_at, prev_hash and hash is ignored and replaced.
--
-- The first event a transaction appends to a space takes the space's advisory lock (held until
-- commit) and reads the last event through the primary key. It then leaves the new tail
-- (space, seq, hash, recorded_at) in the transaction-local setting zaxy.chain_tail, so the next
-- event of the same space in the same transaction (the rest of a batch) links to it without
-- locking or reading again; a savepoint rolled back restores the setting with the rows. A
-- client can set zaxy.chain_tail too, so it is only a hint: events_head checks every statement's
-- new rows against each other and against the chain head and rejects any that do not link.
--
-- The hashed bytes are those of zaxy_event_canonical, written out here because a function call
-- per row costs more than the rest of the canonical bytes; verify (zaxy_verify and the Go
-- verifier) recomputes every hash from the function and from Go, so the two cannot drift apart
-- unnoticed.
CREATE FUNCTION events_link() RETURNS trigger
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

CREATE TRIGGER events_link BEFORE INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION events_link();

-- Once per statement: checks that the statement's new events link (per space: seq consecutive,
-- each prev_hash the hash before it, recorded_at not decreasing and not ahead of the clock
-- unless carried forward) and that the first one continues the chain head, then moves the head.
-- Anything else raises SQLSTATE ZX002 and the statement fails. SECURITY DEFINER because the
-- application role may read spaces but not write it.
CREATE FUNCTION events_head() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  x record;
  first_seq bigint;
  first_prev bytea;
  first_at timestamptz;
  moved boolean;
BEGIN
  -- Only the first and last event of each space, and any that does not link, come back.
  FOR x IN
    SELECT * FROM (
      SELECT w.*, w.before_seq IS NOT NULL AND (
          w.seq <> w.before_seq + 1 OR w.prev_hash <> w.before_hash OR w.recorded_at < w.before_at
          OR (w.recorded_at <> w.before_at AND w.recorded_at > clock_timestamp())) AS broken
      FROM (
        SELECT n.space_id, n.seq, n.prev_hash, n.hash, n.recorded_at,
          lag(n.seq) OVER s AS before_seq, lag(n.hash) OVER s AS before_hash,
          lag(n.recorded_at) OVER s AS before_at, lead(n.seq) OVER s AS after_seq
        FROM new_events n
        WINDOW s AS (PARTITION BY n.space_id ORDER BY n.seq)
      ) w
    ) v
    WHERE v.before_seq IS NULL OR v.after_seq IS NULL OR v.broken
    ORDER BY v.space_id, v.seq
  LOOP
    IF x.broken THEN
      RAISE EXCEPTION 'event % of space % does not link to the event before it', x.seq, x.space_id
        USING ERRCODE = 'ZX002';
    END IF;
    IF x.before_seq IS NULL THEN
      first_seq := x.seq;
      first_prev := x.prev_hash;
      first_at := x.recorded_at;
    END IF;
    IF x.after_seq IS NULL THEN
      moved := false;
      IF first_seq = 1 THEN
        IF first_prev = '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
           AND first_at <= clock_timestamp() THEN
          INSERT INTO spaces (space_id, head_seq, head_hash, head_at)
          VALUES (x.space_id, x.seq, x.hash, x.recorded_at)
          ON CONFLICT (space_id) DO NOTHING;
          moved := FOUND;
        END IF;
      ELSE
        UPDATE spaces s SET head_seq = x.seq, head_hash = x.hash, head_at = x.recorded_at
        WHERE s.space_id = x.space_id AND s.head_seq = first_seq - 1 AND s.head_hash = first_prev
          AND s.head_at <= first_at AND (s.head_at = first_at OR first_at <= clock_timestamp());
        moved := FOUND;
      END IF;
      IF NOT moved THEN
        RAISE EXCEPTION 'event % of space % does not continue the chain head', first_seq, x.space_id
          USING ERRCODE = 'ZX002';
      END IF;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER events_head AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION events_head();

CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION zaxy_reject_change();

-- Idempotency keys: one row per (space, key), naming the seq range the original request
-- appended and a digest of its body. Append-only like the log.
CREATE TABLE idempotency_keys (
  space_id     text NOT NULL,
  key          text NOT NULL CONSTRAINT idempotency_keys_key_length CHECK (length(key) BETWEEN 1 AND 255),
  request_hash bytea NOT NULL,
  first_seq    bigint NOT NULL,
  last_seq     bigint NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (space_id, key),
  FOREIGN KEY (space_id, first_seq) REFERENCES events (space_id, seq),
  FOREIGN KEY (space_id, last_seq) REFERENCES events (space_id, seq)
);

CREATE TRIGGER idempotency_keys_no_update_delete BEFORE UPDATE OR DELETE ON idempotency_keys
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
CREATE TRIGGER idempotency_keys_no_truncate BEFORE TRUNCATE ON idempotency_keys
  FOR EACH STATEMENT EXECUTE FUNCTION zaxy_reject_change();

-- Recomputes every hash of a space, checks every prev_hash link, gapless seq from 1 and the
-- chain head, and reports the first broken seq with the reason (ok = true when none).
CREATE FUNCTION zaxy_verify(p_space_id text)
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

-- The application role: SELECT and INSERT on the log, nothing more. The service logs in as a
-- role that is a member of it (docs/operations.md). Created here when the migrating role may.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    BEGIN
      CREATE ROLE zaxy_app NOLOGIN;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'cannot create role zaxy_app (no CREATEROLE); create it and re-grant, see docs/operations.md';
    END;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT ON events, idempotency_keys TO zaxy_app;
    GRANT SELECT ON spaces TO zaxy_app;
    GRANT SELECT ON schema_migrations TO zaxy_app;
    GRANT SELECT ON river_migration TO zaxy_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON river_job, river_leader, river_queue,
      river_notification TO zaxy_app;
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO zaxy_app;
  END IF;
END $$;
