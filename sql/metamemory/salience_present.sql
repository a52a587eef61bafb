-- name: SaliencePresent :one
-- Whether the salience projection's materialised salience (salience_decayed, written by the
-- salience_decay job) exists in this database: the feeling of knowing reads its histogram when
-- it does and leaves the signal out when it does not.
SELECT (to_regclass('salience_decayed') IS NOT NULL)::boolean AS present;
