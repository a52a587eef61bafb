-- name: AGEMirror :many
-- Each space's AGE mirror digest (migration 000009, zaxy_age_mirror_digest): what the
-- relational graph says its AGE graph holds against what the AGE graph holds.
SELECT s.space_id, d.expected, d.actual, d.expected_lines, d.actual_lines
FROM spaces s CROSS JOIN LATERAL zaxy_age_mirror_digest(s.space_id) d
ORDER BY s.space_id;
