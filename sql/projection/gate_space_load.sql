-- name: GateSpaceLoad :many
-- The space's encoding gate setting (the latest gate.configured), if it ever recorded one.
SELECT enabled FROM gate_spaces WHERE space_id = @space_id;
