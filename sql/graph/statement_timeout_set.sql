-- name: StatementTimeoutSet :exec
-- Sets statement_timeout to @ms milliseconds for the rest of the transaction (SET LOCAL, through
-- set_config so that the value is a parameter rather than formatted into the statement).
SELECT set_config('statement_timeout', (@ms::bigint)::text, true);
