-- zaxy_erased_pending(space) is the set of the space's erased events whose projections may still
-- hold what was derived from them: the events named by the erasure records past the space's
-- projection watermark. An erasure writes its tombstone at once and never waits for the
-- projector, which purges the projections when it reaches the record (projection/purge.go);
-- until then every read query that returns derived rows (memory items, facts, entities,
-- mentions, proposals, latent artifacts...) leaves out those whose source event is in this set,
-- so the erased text is unreachable from the moment the erasure commits. After the purge the
-- set is empty again and the derived rows are gone.
--
-- The cost is one primary-key probe of the watermark and a range of the partial index
-- events_erasures past it (no row for almost every space); a query calls it once, as an
-- uncorrelated scalar subquery (an InitPlan), "(SELECT zaxy_erased_pending($1))::bigint[]", and
-- tests each row against the array it returns (empty for almost every space). PL/pgSQL, so a
-- session plans its query once (about 9 us a call; a SQL function, planned at every call, took
-- about 95 us).
CREATE FUNCTION zaxy_erased_pending(space text) RETURNS bigint[]
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg((e.data->>'seq')::bigint ORDER BY e.seq) FILTER (WHERE e.data->>'seq' ~ '^[0-9]{1,18}$'), '{}')
          FROM events e
          WHERE e.space_id = space AND e.type = 'erasure.recorded'
            AND e.seq > coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = space), 0));
END $$;

-- zaxy_erased_pending_items(space) is the ids of the memory items of those events, for the
-- rows keyed by item (embeddings): empty at the cost of one probe of memory_items_seq when
-- nothing is pending.
CREATE FUNCTION zaxy_erased_pending_items(space text) RETURNS text[]
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(i.item_id ORDER BY i.item_id), '{}')
          FROM memory_items i
          WHERE i.space_id = space AND i.seq = ANY (zaxy_erased_pending(space)));
END $$;
