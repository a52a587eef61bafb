DROP FUNCTION zaxy_import_continue(text, bigint, bytea);
DROP TRIGGER events_no_delete ON events;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
DROP TRIGGER idempotency_keys_no_delete ON idempotency_keys;
CREATE TRIGGER idempotency_keys_no_delete BEFORE DELETE ON idempotency_keys
  FOR EACH ROW EXECUTE FUNCTION zaxy_reject_change();
DROP FUNCTION zaxy_space_drop(text);
DROP FUNCTION zaxy_reject_delete();
DROP FUNCTION zaxy_space_dropping(text);
DROP TABLE space_drops;
DROP FUNCTION zaxy_space_moved(text);
DROP FUNCTION zaxy_space_unfreeze(text);
DROP FUNCTION zaxy_space_freeze(text, text);
DROP TRIGGER events_not_frozen ON events;
DROP FUNCTION events_not_frozen();
DROP TABLE space_freezes;
