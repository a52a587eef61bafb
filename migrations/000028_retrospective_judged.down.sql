-- Reverses 000028_retrospective_judged.up.sql: lost retrospective_credit jobs are lost again.
DROP TABLE IF EXISTS retrospective_judged;
