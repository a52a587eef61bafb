-- The space's chain head and the time of the export's snapshot.
SELECT head_seq, head_hash, statement_timestamp() AS exported_at
FROM spaces
WHERE space_id = $1
