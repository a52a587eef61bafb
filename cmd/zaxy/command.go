package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/jobs"
	"github.com/zaxy/zaxy/migrations"
	"github.com/zaxy/zaxy/validation"
)

// dbNeed is what of the database the runner prepares before a command runs.
type dbNeed int

const (
	// dbNone: the command does not use ZAXY_DATABASE_URL's database (bench append and
	// checkout make scratch databases beside it themselves).
	dbNone dbNeed = iota
	// dbURL: ZAXY_DATABASE_URL must be set (exit 2 otherwise); the command opens its own
	// pools, sized for their work (serve, worker, mcp) or migrates (migrate).
	dbURL
	// dbPool: one pool, connected before Run, on a database at this binary's schema (exit 2
	// when it cannot be, naming the versions and 'zaxy migrate').
	dbPool
	// dbStore: dbPool and an event store on it whose outbox inserts River jobs.
	dbStore
	// dbTry: the runner tries to connect to a database at this binary's schema; Run finds
	// env.pool nil and env.dbErr set when it could not (bench longmemeval|locomo reads its
	// file first).
	dbTry
	// dbProbe: dbTry without the schema check (doctor reports the schema as one of its checks).
	dbProbe
)

// command is one zaxy subcommand as `zaxy --help` lists it and the runner runs it.
type command struct {
	// name is what follows zaxy: one word, or two for a group (projection status).
	name string
	// synopsis is the flags and arguments after the name; help says what the command does.
	synopsis, help string
	// db is what the runner prepares; interspersed lets flags follow positional arguments.
	db           dbNeed
	interspersed bool
	// new returns the command's flags and code, ready to parse.
	new func() runner
}

// usage is the command's usage line.
func (c *command) usage() string {
	return strings.TrimSpace("usage: zaxy " + c.name + " " + c.synopsis)
}

// runner is one command's flags and code. The runner calls flags, parses the arguments,
// calls validate, prepares the database and calls run.
type runner interface {
	// flags declares the flags on fs; cfg, the environment, gives defaults such as ZAXY_SPACE.
	flags(fs *flag.FlagSet, cfg *config)
	// validate checks the parsed flags and the positional arguments and names the bad one.
	validate(args []string) error
	// run does the work. An error is printed once as "zaxy <name>: <error>" and exits 1,
	// or the status an exitError carries.
	run(ctx context.Context, env *env) error
}

// env is what a command runs with, injected by the runner: the configuration read once, the
// database when the command needs it, a logger and the process's streams.
type env struct {
	cfg *config
	// pool is the database (dbPool, dbStore, dbTry); store an event store on it (dbStore).
	pool  *pgxpool.Pool
	store *eventloom.Store
	// dbErr is why there is no pool (dbTry only).
	dbErr error
	// api is the server's client when a remoteRunner runs against ZAXY_URL (runRemote);
	// pool and store are nil then.
	api    *client.Client
	logger *slog.Logger
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// exitError is an error with an exit status other than 1; with a nil err the command has
// already said what went wrong (verify's BROKEN line, doctor's report) and nothing is printed.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// invalid marks err as the caller's mistake: exit status 2.
func invalid(err error) error { return &exitError{code: 2, err: err} }

// invalidIf is invalid(err) when err wraps validation.ErrInvalid, and err otherwise.
func invalidIf(err error) error {
	if errors.Is(err, validation.ErrInvalid) {
		return invalid(err)
	}
	return err
}

// errFailed exits 1 without a message: the command's output already says why.
var errFailed = &exitError{code: 1}

// run parses args, reads the configuration once, runs the command and returns the exit
// status: 0, 1 for a failure, 2 for a usage error or bad input.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	args, getenv = leadingRemoteFlags(args, getenv)
	if len(args) == 0 || isHelp(args[0]) {
		switch {
		case len(args) > 1 && args[1] == "env":
			fmt.Fprintln(stdout, "Environment (docs/operations.md):")
			writeEnvHelp(stdout)
		case len(args) > 1:
			return run(ctx, append(args[1:], "--help"), getenv, stdin, stdout, stderr)
		default:
			writeHelp(stdout)
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = []string{"version"}
	}
	c, rest, group := findCommand(args)
	if c == nil {
		return unknownCommand(args, group, stdout, stderr)
	}
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "zaxy %s: %v\n", c.name, err)
		return code
	}
	cfg, err := readConfig(getenv)
	if err != nil {
		return fail(2, err)
	}
	r := c.new()
	fs := flag.NewFlagSet("zaxy "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, c.usage())
		fs.PrintDefaults()
	}
	r.flags(fs, cfg)
	rr, canRemote := r.(remoteRunner)
	if canRemote {
		remoteFlags(fs, cfg)
	}
	var positional []string
	if c.interspersed {
		positional, err = parseInterspersed(fs, rest)
	} else if err = fs.Parse(rest); err == nil {
		positional = fs.Args()
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		return 2 // the flag package has printed the error and the usage
	}
	if err := r.validate(positional); err != nil {
		fail(2, err)
		fmt.Fprintln(stderr, c.usage())
		return 2
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	e := &env{cfg: cfg, logger: logger, stdin: stdin, stdout: stdout, stderr: stderr}
	switch {
	case canRemote && cfg.url != "":
		// A server wins over ZAXY_DATABASE_URL: the command goes through the HTTP API.
		if e.api, err = newAPIClient(cfg); err == nil {
			err = remoteErr(rr.runRemote(ctx, e), cfg.url)
		}
	case canRemote && cfg.databaseURL == "":
		err = invalid(errNoBackend)
	default:
		var closeDB func()
		if closeDB, err = e.openDatabase(ctx, c.db); err != nil {
			if errors.Is(err, errNoDatabaseURL) && cfg.url != "" {
				err = fmt.Errorf("%w; ZAXY_URL is set, but zaxy %s has no HTTP route and works on the database", err, c.name)
			}
			return fail(exitCode(err, 2), err)
		}
		defer closeDB()
		err = r.run(ctx, e)
	}
	if err == nil {
		return 0
	}
	code := exitCode(err, 1)
	if ee, ok := err.(*exitError); ok {
		err = ee.err
	}
	if err != nil {
		fail(code, err)
	}
	return code
}

// exitCode is the status err carries (an exitError's), or def.
func exitCode(err error, def int) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return def
}

// openDatabase prepares what need asks for and returns what closes it; an error means the
// command cannot run (a dbTry or dbProbe command gets its error in e.dbErr instead).
func (e *env) openDatabase(ctx context.Context, need dbNeed) (func(), error) {
	switch need {
	case dbNone:
		return func() {}, nil
	case dbURL:
		if e.cfg.databaseURL == "" {
			return nil, errNoDatabaseURL
		}
		return func() {}, nil
	}
	pool, err := openPool(ctx, e.cfg.databaseURL)
	if err == nil && need != dbProbe {
		// A command on a database of another schema would fail on the first query that
		// differs, perhaps after part of its work: it refuses before it starts.
		if err = migrations.Check(ctx, pool); err != nil {
			pool.Close()
		}
	}
	if err != nil {
		if need == dbTry || need == dbProbe {
			e.dbErr = err
			return func() {}, nil
		}
		return nil, err
	}
	e.pool = pool
	if need == dbStore {
		client, err := jobs.NewInsertOnlyClient(pool, e.logger)
		if err != nil {
			pool.Close()
			return nil, err
		}
		e.store = eventloom.NewStore(pool, jobs.NewOutbox(client), e.logger)
	}
	return pool.Close, nil
}

// findCommand returns the command args name (one word, or two for a group) and the arguments
// after its name; for a group named without a known subcommand it returns the group's commands.
func findCommand(args []string) (c *command, rest []string, group []*command) {
	for i := range commands {
		k := &commands[i]
		first, second, two := strings.Cut(k.name, " ")
		switch {
		case !two && k.name == args[0]:
			return k, args[1:], nil
		case two && first == args[0]:
			if len(args) > 1 && args[1] == second {
				return k, args[2:], nil
			}
			group = append(group, k)
		}
	}
	return nil, nil, group
}

// subcommandNames are the second words of a group's commands.
func subcommandNames(group []*command) []string {
	var out []string
	for _, c := range group {
		_, second, _ := strings.Cut(c.name, " ")
		out = append(out, second)
	}
	return out
}

// parseInterspersed parses flags that may come before, between or after the positional
// arguments, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
