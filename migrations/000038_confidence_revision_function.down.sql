DROP FUNCTION IF EXISTS zaxy_confidence_revision_seq(text, text, text, bigint[]);
DROP FUNCTION IF EXISTS zaxy_artifact_sources_digest(bigint[]);
