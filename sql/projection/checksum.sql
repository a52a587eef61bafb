-- name: Checksum :one
-- A deterministic digest of a space's projected state: every projection row, rendered as text
-- and sorted, hashed with sha256 (the term statistics of the keyword lane and the speaker
-- names of the exact lane, the reinforcement ledger, salience and the salience policy, the
-- latent artifacts with their relations, their build watermark and the weaves that cited them, the retrieval policies with the current one, and
-- the encoding gate's tags, keys and setting included: columns and rows that exist only with the
-- gate on render through concat_ws, which skips NULLs, so with the gate off every line is the
-- one before the gate).
-- salience_decayed is left out: the salience_decay job computes it as of the clock. Embeddings
-- are left out: they are computed asynchronously from memory_items text, which is included
-- (an item's text, coalesce(text, events.content), renders the same whether it is stored).
SELECT encode(sha256(convert_to(coalesce(string_agg(line, E'\n' ORDER BY line), ''), 'UTF8')), 'hex')::text AS digest,
       count(*) FILTER (WHERE line LIKE 'entity|%') AS entities,
       count(*) FILTER (WHERE line LIKE 'mention|%') AS mentions,
       count(*) FILTER (WHERE line LIKE 'fact|%') AS facts,
       count(*) FILTER (WHERE line LIKE 'invalidation|%') AS invalidations,
       count(*) FILTER (WHERE line LIKE 'item|%') AS items,
       count(*) FILTER (WHERE line LIKE 'term|%') AS terms,
       count(*) FILTER (WHERE line LIKE 'speaker|%') AS speakers,
       count(*) FILTER (WHERE line LIKE 'proposal|%') AS proposals,
       count(*) FILTER (WHERE line LIKE 'reinforcement|%') AS reinforcements,
       count(*) FILTER (WHERE line LIKE 'artifact|%') AS artifacts
FROM (
  SELECT concat_ws('|', 'entity', entity_id, key, name, array_to_string(kinds, ','), version, first_seq,
                   encode((SELECT ev.hash FROM events ev WHERE ev.space_id = @space_id AND ev.seq = x.first_seq), 'hex'),
                   last_seq, mentions, invalidated_seq) AS line
  FROM entities x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)
  UNION ALL
  SELECT concat_ws('|', 'mention', seq, start_byte, end_byte, entity_id, kind)
  FROM mentions x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id)
  UNION ALL
  SELECT concat_ws('|', 'fact', fact_id, subject_id, predicate, coalesce(object_id, '-'), coalesce(value::text, '-'),
                   version, valid_from, coalesce(valid_to::text, '-'), recorded_seq, encode(recorded_hash, 'hex'),
                   coalesce(closed_seq::text, '-'), status, coalesce(superseded_by, '-'), authority, review_status,
                   inferred, coalesce(confidence::text, '-'), evidence::text, coalesce(close_reason, '-'))
  FROM facts x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)
  UNION ALL
  SELECT concat_ws('|', 'invalidation', target_seq, seq, encode(hash, 'hex'), reason)
  FROM invalidations x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'item', x.item_id, x.kind, x.seq, x.event_type, x.session_id, x.occurred_at, x.ts_config::text,
                   coalesce(x.text, e.content), x.tsv::text, x.tsv_len, x.redundant_of)
  FROM memory_items x JOIN events e ON e.space_id = @space_id AND e.seq = x.seq
  WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)
  UNION ALL
  SELECT concat_ws('|', 'term', lexeme, df)
  FROM term_stats x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)
  UNION ALL
  SELECT concat_ws('|', 'terms', items, tokens)
  FROM term_totals x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'speaker', name_key, events)
  FROM speaker_names x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'proposal', seq, encode(hash, 'hex'), kind, status, proposed_by, proposed_at, coalesce(confidence::text, '-'),
                   evidence::text, coalesce(fact::text, '-'), coalesce(contradicts, '-'), coalesce(inference_seq::text, '-'),
                   coalesce(inference_model, '-'), coalesce(inference_ordinal::text, '-'), rationale,
                   coalesce(decided_seq::text, '-'), coalesce(decided_by, '-'), coalesce(decided_at::text, '-'),
                   coalesce(reason, '-'), coalesce(fact_id, '-'))
  FROM proposals x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'reinforcement', item_id, seq, signal, occurred_at)
  FROM reinforcements x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'salience', item_id, surfaced, helpful, unhelpful, wrong, outdated, invalidated, pinned,
                   'repeated=' || nullif(repeated, 0), coalesce(last_use_at::text, '-'), coalesce(last_use_seq::text, '-'), coalesce(last_use_signal, '-'),
                   reinforcement)
  FROM salience x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'salience_space', half_life_days, floor, coalesce(configured_seq::text, '-'),
                   coalesce(use_started_at::text, '-'))
  FROM salience_spaces x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'artifact', artifact_id, slot, artifact_type, summary, source_event_refs::text,
                   array_to_string(source_seqs, ','), array_to_string(entity_refs, ','), coalesce(valid_from::text, '-'),
                   coalesce(valid_to::text, '-'), projection_version, method, confidence, review_status, authority_status,
                   purpose_profile, reasoning_phase, payload_kind, coalesce(payload::text, '-'), coalesce(payload_vector::text, '-'),
                   coalesce(supersedes, '-'), array_to_string(contradicts, ','), coalesce(stale_at::text, '-'),
                   coalesce(stale_seq::text, '-'), coalesce(stale_reason, '-'), diagnostics::text)
  FROM latent_artifacts x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'latent_relation', kind, from_id, to_id)
  FROM latent_relations x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'latent_watermark', built_seq)
  FROM latent_watermarks x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'weave_citation', artifact_id, seq)
  FROM latent_weave_citations x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'gate_key', encode(int8send(key), 'hex'), 'ev:' || seq, seq)
  FROM gate_keys x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id)
  UNION ALL
  SELECT concat_ws('|', 'gate_space', enabled, configured_seq)
  FROM gate_spaces x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'policy', version, policy::text, diagnostics::text, proposed_seq, encode(proposed_hash, 'hex'))
  FROM retrieval_policies x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'policy_current', version, changed_seq, array_to_string(history, ','))
  FROM retrieval_policy_current x WHERE x.space_id = @space_id
  UNION ALL
  SELECT concat_ws('|', 'watermark', projected_seq, encode(projected_hash, 'hex'))
  FROM projection_watermarks x WHERE x.space_id = @space_id
) rows;
