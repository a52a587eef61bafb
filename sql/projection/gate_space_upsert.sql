-- name: GateSpaceUpsert :exec
-- Records a batch's last gate.configured as the space's encoding gate setting.
INSERT INTO gate_spaces (space_id, enabled, configured_seq)
VALUES (@space_id, @enabled, @configured_seq)
ON CONFLICT (space_id) DO UPDATE SET enabled = excluded.enabled, configured_seq = excluded.configured_seq;
