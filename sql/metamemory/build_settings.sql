-- name: BuildSettings :exec
-- Settings for the rest of a sketch's build transaction: memory enough to aggregate a whole
-- space's (speaker, lexeme) pairs without spilling to disk (about a million rows at 100,000
-- items), and no JIT, whose compilation costs more than it saves on that one query.
SELECT set_config('work_mem', '64MB', true), set_config('jit', 'off', true);
