-- name: SpeakersNamed :many
-- Which of the given lower-cased word sequences of a query are names that speak in the space
-- (speaker_names, kept by the projector), for the vector lane to embed the query without them.
SELECT name_key FROM speaker_names WHERE space_id = @space_id AND name_key = ANY (@name_keys::text[]);
