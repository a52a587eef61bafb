package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"strings"

	"github.com/zaxy/zaxy/client"
	"github.com/zaxy/zaxy/internal/buildinfo"
	"github.com/zaxy/zaxy/projection"
)

// remoteRunner is a runner whose command has an HTTP route: with a server configured
// (ZAXY_URL or --url) the runner calls runRemote with env.api, a client of that server, and
// opens no database; without one it calls run on the database as before. A server wins over
// ZAXY_DATABASE_URL when both are set: the database is for the commands without a route
// (migrate, rebuild, doctor, token, bench, space, projection checksum, retrospective).
type remoteRunner interface {
	runner
	// runRemote does run's work through env.api.
	runRemote(ctx context.Context, env *env) error
}

// errNoBackend is the error of a command that can use a server or the database when neither
// is configured.
var errNoBackend = errors.New("no server and no database: set ZAXY_URL (and ZAXY_TOKEN, from 'zaxy token create') to use a running zaxy serve, " +
	"or ZAXY_DATABASE_URL to use the database directly (run 'make db' to get one)")

// remoteFlags declares --url and --token, whose defaults are ZAXY_URL and ZAXY_TOKEN.
func remoteFlags(fs *flag.FlagSet, cfg *config) {
	fs.StringVar(&cfg.url, "url", cfg.url, "the zaxy serve to talk to, e.g. http://127.0.0.1:8080 (default $ZAXY_URL); wins over ZAXY_DATABASE_URL")
	fs.StringVar(&cfg.token, "token", cfg.token, "bearer token for --url (default $ZAXY_TOKEN)")
}

// leadingRemoteFlags takes --url and --token given before the command (zaxy --url U facts
// ...) as ZAXY_URL and ZAXY_TOKEN, and returns the arguments from the command on.
func leadingRemoteFlags(args []string, getenv func(string) string) ([]string, func(string) string) {
	set := map[string]string{}
	for len(args) > 0 {
		name, value, inline := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		env := map[string]string{"url": "ZAXY_URL", "token": "ZAXY_TOKEN"}[name]
		if env == "" || !strings.HasPrefix(args[0], "-") || (!inline && len(args) < 2) {
			break
		}
		if inline {
			args = args[1:]
		} else {
			value, args = args[1], args[2:]
		}
		set[env] = value
	}
	if len(set) == 0 {
		return args, getenv
	}
	return args, func(k string) string {
		if v, ok := set[k]; ok {
			return v
		}
		return getenv(k)
	}
}

// newAPIClient is the client of cfg.url that remote commands call.
func newAPIClient(cfg *config) (*client.Client, error) {
	opts := []client.Option{client.WithUserAgent("zaxy-cli/" + buildinfo.Get().Version)}
	if cfg.token != "" {
		opts = append(opts, client.WithToken(cfg.token))
	}
	c, err := client.New(cfg.url, opts...)
	if err != nil {
		return nil, invalid(fmt.Errorf("ZAXY_URL (or --url): %w", err))
	}
	return c, nil
}

// remoteErr turns a client error into the command's error: the server's refusal of the
// caller's input (400, 413, 422) exits 2, everything else 1; a server that cannot be reached
// says which URL was tried.
func remoteErr(err error, url string) error {
	if err == nil {
		return nil
	}
	var ae *client.Error
	if !errors.As(err, &ae) {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return fmt.Errorf("cannot reach the server at %s (ZAXY_URL): %w", url, err)
	}
	msg := fmt.Sprintf("%s (HTTP %d %s)", ae.Message, ae.Status, ae.Code)
	switch ae.Status {
	case http.StatusUnauthorized:
		msg += "; set ZAXY_TOKEN (or --token) to a token from 'zaxy token create'"
	case http.StatusForbidden:
		msg += "; the token's scope or spaces do not allow this"
	}
	if ae.RequestID != "" {
		msg += " request " + ae.RequestID
	}
	// Keep what the command said around the client's error (e.g. "lines 1-500: ...").
	if full, inner := err.Error(), ae.Error(); strings.Contains(full, inner) {
		msg = strings.Replace(full, inner, msg, 1)
	}
	err = errors.New(msg)
	switch ae.Status {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		return invalid(err)
	}
	return err
}

// noteEmptySpace writes `space "S" has no events` to stderr when the space's log is empty
// (or the server does not know it): an empty answer then means the space is new or mistyped,
// not that memory holds nothing matching. It never fails the command.
func noteEmptySpace(ctx context.Context, env *env, space string) {
	if empty, err := spaceIsEmpty(ctx, env, space); err == nil && empty {
		fmt.Fprintf(env.stderr, "zaxy: space %q has no events (zaxy append writes its first one)\n", space)
	}
}

// spaceIsEmpty reports whether space has no events, through the server or the database.
func spaceIsEmpty(ctx context.Context, env *env, space string) (bool, error) {
	if env.api != nil {
		st, err := env.api.Projection(ctx, space)
		var ae *client.Error
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		return st.HeadSeq == 0, nil
	}
	st, err := projection.Lag(ctx, env.pool, space)
	if err != nil {
		return false, err
	}
	return len(st) == 0 || st[0].HeadSeq == 0, nil
}
