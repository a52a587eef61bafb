-- Moving a space to another cluster (docs/scaling.md, "Spaces across clusters").
--
-- A move freezes the space on its source cluster (no append, hence no write of any kind: every
-- write is an event), copies its log verbatim to the target (the import path of 000055), and
-- leaves the source copy frozen and read-only until zaxy space move --finish drops it. Freezing
-- takes the space's chain lock, the one every append holds to its commit, so it waits for the
-- appends in flight and every later append sees the freeze: the log the move copies is the
-- whole log, and an append either is in it or was refused.

-- One row per space frozen on this cluster: moving while its log is copied, moved once the
-- placement directory names the target. Only the owner writes it, through the functions below.
CREATE TABLE space_freezes (
  space_id  text PRIMARY KEY
            CONSTRAINT space_freezes_space_id_format CHECK (space_id ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  state     text NOT NULL CONSTRAINT space_freezes_state CHECK (state IN ('moving', 'moved')),
  target    text NOT NULL CONSTRAINT space_freezes_target_format CHECK (target ~ '^[a-z][a-z0-9_-]{0,31}$'),
  head_seq  bigint NOT NULL,
  frozen_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  moved_at  timestamptz
);

COMMENT ON TABLE space_freezes IS 'Spaces frozen on this cluster by zaxy space move: no append is accepted while a row names the space.';

REVOKE ALL ON space_freezes FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT ON space_freezes TO zaxy_app;
  END IF;
END $$;

-- Refuses an append to a frozen space with SQLSTATE ZX050 (eventloom.ErrSpaceMoving: 503 with
-- Retry-After). It takes the chain lock first (held already when events_link ran before it;
-- taking it again is free), and its query runs with a snapshot taken after the lock: a freeze
-- that committed while this append waited for the lock is seen. Once a transaction has found
-- a space not frozen it remembers so (zaxy.not_frozen): no freeze can commit before it does,
-- since freezing needs the lock it holds.
CREATE FUNCTION events_not_frozen() RETURNS trigger
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  f record;
BEGIN
  IF current_setting('zaxy.not_frozen', true) = NEW.space_id THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(NEW.space_id));
  SELECT state, target INTO f FROM space_freezes WHERE space_id = NEW.space_id;
  IF FOUND THEN
    IF f.state = 'moving' THEN
      RAISE EXCEPTION 'space % is being moved to cluster %: appends resume there when the move completes', NEW.space_id, f.target
        USING ERRCODE = 'ZX050';
    END IF;
    RAISE EXCEPTION 'space % has moved to cluster %: this copy is read-only', NEW.space_id, f.target
      USING ERRCODE = 'ZX050';
  END IF;
  PERFORM set_config('zaxy.not_frozen', NEW.space_id, true);
  RETURN NEW;
END $$;

-- After events_link (triggers of one kind fire in name order), so the chain lock is held.
CREATE TRIGGER events_not_frozen BEFORE INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION events_not_frozen();

-- Freezes p_space for a move to cluster p_target and returns its head seq: waits for the
-- appends in flight (the chain lock), refuses a space with no events (ZX040: nothing to move),
-- one already moved (ZX051) and one being moved elsewhere (ZX051). Freezing again for the same
-- target (a move resumed after a failure) returns the head seq again. Runs as the owner.
CREATE FUNCTION zaxy_space_freeze(p_space text, p_target text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  head bigint;
  f record;
BEGIN
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(p_space));
  SELECT s.head_seq INTO head FROM spaces s WHERE s.space_id = p_space;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'space % has no events on this cluster: there is nothing to move', p_space
      USING ERRCODE = 'ZX040';
  END IF;
  SELECT * INTO f FROM space_freezes WHERE space_id = p_space;
  IF FOUND AND (f.state <> 'moving' OR f.target <> p_target) THEN
    RAISE EXCEPTION 'space % is already % to cluster %', p_space, f.state, f.target
      USING ERRCODE = 'ZX051';
  END IF;
  INSERT INTO space_freezes (space_id, state, target, head_seq) VALUES (p_space, 'moving', p_target, head)
  ON CONFLICT (space_id) DO NOTHING;
  RETURN head;
END $$;

-- Lifts a freeze that is still moving (a move abandoned before its flip): appends resume here.
-- A moved space stays frozen (ZX051).
CREATE FUNCTION zaxy_space_unfreeze(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(p_space));
  IF EXISTS (SELECT FROM space_freezes WHERE space_id = p_space AND state = 'moved') THEN
    RAISE EXCEPTION 'space % has moved off this cluster: its copy here stays read-only until it is dropped', p_space
      USING ERRCODE = 'ZX051';
  END IF;
  DELETE FROM space_freezes WHERE space_id = p_space;
END $$;

-- Marks a moving space moved (the placement directory names its target now).
CREATE FUNCTION zaxy_space_moved(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE space_freezes SET state = 'moved', moved_at = clock_timestamp()
  WHERE space_id = p_space AND state IN ('moving', 'moved');
  IF NOT FOUND THEN
    RAISE EXCEPTION 'space % is not being moved off this cluster', p_space USING ERRCODE = 'ZX051';
  END IF;
END $$;

-- Drops in the current transaction: the space whose log zaxy_space_drop deletes. The delete
-- triggers on events and idempotency_keys ask zaxy_space_dropping.
CREATE TABLE space_drops (
  space_id   text NOT NULL,
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (space_id, xid)
);

COMMENT ON TABLE space_drops IS 'Source copies of moved spaces dropped by zaxy space move --finish: the space and the dropping transaction.';

REVOKE ALL ON space_drops FROM PUBLIC;

-- Whether the current transaction is dropping p_space (zaxy_space_drop).
CREATE FUNCTION zaxy_space_dropping(p_space text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT
RETURN EXISTS (SELECT FROM space_drops d WHERE d.space_id = p_space AND d.xid = pg_current_xact_id());

-- The delete guard of events and idempotency_keys: ZX001 as before, except for the rows of a
-- space the transaction drops.
CREATE FUNCTION zaxy_reject_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF zaxy_space_dropping(OLD.space_id) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% on % is not allowed: the table is append-only', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'ZX001';
END $$;

DROP TRIGGER events_no_delete ON events;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_delete();
DROP TRIGGER idempotency_keys_no_delete ON idempotency_keys;
CREATE TRIGGER idempotency_keys_no_delete BEFORE DELETE ON idempotency_keys
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_delete();

-- Drops the source copy of a moved space: its AGE graph, every row of every table of this
-- schema with a space_id column (children before the tables they reference) but the move
-- bookkeeping and the placement directory, and its freeze.
-- Refuses a space that is not moved (ZX051). Returns the events deleted. Runs as the owner.
CREATE FUNCTION zaxy_space_drop(p_space text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  left_tables text[];
  ready text[];
  t text;
  n bigint;
  dropped bigint := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(p_space));
  IF NOT EXISTS (SELECT FROM space_freezes WHERE space_id = p_space AND state = 'moved') THEN
    RAISE EXCEPTION 'space % has not moved off this cluster: only a moved space''s source copy is dropped', p_space
      USING ERRCODE = 'ZX051';
  END IF;
  INSERT INTO space_drops (space_id) VALUES (p_space) ON CONFLICT DO NOTHING;
  IF to_regprocedure('zaxy_age_drop(text)') IS NOT NULL THEN
    PERFORM zaxy_age_drop(p_space);
  END IF;
  SELECT array_agg(c.relname::text) INTO left_tables
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
  WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
    AND a.attname = 'space_id' AND NOT a.attisdropped
    AND c.relname NOT IN ('space_freezes', 'space_drops', 'space_imports', 'space_placements');
  WHILE cardinality(left_tables) > 0 LOOP
    -- The tables no other remaining table references.
    SELECT array_agg(x) INTO ready FROM unnest(left_tables) x
    WHERE NOT EXISTS (
      SELECT FROM pg_constraint k
      JOIN pg_class child ON child.oid = k.conrelid
      JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND parent.relname = x AND child.relname <> x
        AND child.relname = ANY (left_tables));
    IF ready IS NULL THEN
      RAISE EXCEPTION 'drop space %: the tables % reference each other', p_space, left_tables;
    END IF;
    FOREACH t IN ARRAY ready LOOP
      EXECUTE format('DELETE FROM %I WHERE space_id = $1', t) USING p_space;
      GET DIAGNOSTICS n = ROW_COUNT;
      IF t = 'events' THEN
        dropped := n;
      END IF;
    END LOOP;
    left_tables := ARRAY(SELECT unnest(left_tables) EXCEPT SELECT unnest(ready));
  END LOOP;
  DELETE FROM space_freezes WHERE space_id = p_space;
  DELETE FROM space_drops WHERE space_id = p_space;
  RETURN dropped;
END $$;

-- Opens, in the current transaction, the import of the events of p_space after seq p_after, onto
-- a copy of its log that ends there with hash p_after_hash (a move copies a space's log once
-- while appends go on, then only what was appended meanwhile, under the freeze): takes the chain
-- lock, refuses a space whose head is not that (ZX041), records the import and sets zaxy.import
-- as zaxy_import_begin does. Not granted to the application role.
CREATE FUNCTION zaxy_import_continue(p_space text, p_after bigint, p_after_hash bytea) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(p_space));
  IF NOT EXISTS (SELECT FROM spaces s WHERE s.space_id = p_space AND s.head_seq = p_after AND s.head_hash = p_after_hash) THEN
    RAISE EXCEPTION 'space % does not end at seq % with the given hash here: the events after it cannot continue it', p_space, p_after
      USING ERRCODE = 'ZX041';
  END IF;
  INSERT INTO space_imports (space_id) VALUES (p_space) ON CONFLICT DO NOTHING;
  PERFORM set_config('zaxy.import', p_space, true);
END $$;

REVOKE EXECUTE ON FUNCTION zaxy_import_continue(text, bigint, bytea) FROM PUBLIC;

REVOKE EXECUTE ON FUNCTION zaxy_space_freeze(text, text), zaxy_space_unfreeze(text), zaxy_space_moved(text),
  zaxy_space_drop(text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION zaxy_space_dropping(text) FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT EXECUTE ON FUNCTION zaxy_space_dropping(text) TO zaxy_app;
  END IF;
END $$;
