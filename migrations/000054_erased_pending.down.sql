DROP FUNCTION IF EXISTS zaxy_erased_pending_items(text);
DROP FUNCTION IF EXISTS zaxy_erased_pending(text);
