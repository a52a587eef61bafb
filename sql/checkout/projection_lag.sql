-- A space's projection lag.
SELECT coalesce((SELECT lag FROM projection_status WHERE space_id = $1), 0)
