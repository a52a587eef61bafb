-- name: WeaveCitationsInsert :exec
-- Records that the checkout.surfaced events @seqs cited the artifacts @artifact_ids in their
-- weaves (pairwise, the two arrays of one length; latent_weave_citations, migration 000039). A
-- replayed pair is kept once.
INSERT INTO latent_weave_citations (space_id, artifact_id, seq)
SELECT @space_id::text, unnest(@artifact_ids::text[]), unnest(@seqs::bigint[])
ON CONFLICT DO NOTHING;
