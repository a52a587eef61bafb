-- Records that the outcome $2 of space $1 about session $3 was judged (migration 000028); a
-- re-run of the pass keeps the first row.
INSERT INTO retrospective_judged (space_id, outcome_seq, session_id) VALUES ($1, $2, $3)
ON CONFLICT (space_id, outcome_seq) DO NOTHING
