package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/zaxy/zaxy/auth"
)

// spacesFlag collects repeated --space flags.
type spacesFlag []string

func (s *spacesFlag) String() string     { return strings.Join(*s, ",") }
func (s *spacesFlag) Set(v string) error { *s = append(*s, v); return nil }

// tokenCreateCmd: zaxy token create --space S [--space S2 | --space '*'] --scope
// read|write|admin [--label L] [--json]. The token is printed once.
type tokenCreateCmd struct {
	spaces       spacesFlag
	scope, label string
	asJSON       bool
}

func (c *tokenCreateCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.Var(&c.spaces, "space", "a space the token reaches (repeat; * for all)")
	fs.StringVar(&c.scope, "scope", "", "read, write or admin")
	fs.StringVar(&c.label, "label", "", "a note on who or what the token is for")
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *tokenCreateCmd) validate(args []string) error { return noArgs(args) }

func (c *tokenCreateCmd) run(ctx context.Context, env *env) error {
	t, plain, err := auth.NewStore(env.pool).Create(ctx, c.spaces, c.scope, c.label)
	if err != nil {
		return invalid(err)
	}
	if c.asJSON {
		_ = json.NewEncoder(env.stdout).Encode(struct {
			*auth.Token
			Secret string `json:"token"`
		}{t, plain})
		return nil
	}
	fmt.Fprintf(env.stdout, "%s\n", plain)
	fmt.Fprintf(env.stderr, "token %s (%s on %s) created; it is shown only now\n", t.ID, t.Scope, strings.Join(t.Spaces, ","))
	return nil
}

// tokenRevokeCmd: zaxy token revoke ID.
type tokenRevokeCmd struct {
	id string
}

func (c *tokenRevokeCmd) flags(*flag.FlagSet, *config) {}

func (c *tokenRevokeCmd) validate(args []string) error {
	if len(args) != 1 {
		return errors.New("want exactly one token ID (zaxy token list)")
	}
	c.id = args[0]
	return nil
}

func (c *tokenRevokeCmd) run(ctx context.Context, env *env) error {
	if err := auth.NewStore(env.pool).Revoke(ctx, c.id); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "revoked %s\n", c.id)
	return nil
}

// tokenListCmd: zaxy token list [--json].
type tokenListCmd struct {
	asJSON bool
}

func (c *tokenListCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.BoolVar(&c.asJSON, "json", false, "print JSON lines")
}

func (c *tokenListCmd) validate(args []string) error { return noArgs(args) }

func (c *tokenListCmd) run(ctx context.Context, env *env) error {
	ts, err := auth.NewStore(env.pool).List(ctx)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if c.asJSON {
			_ = json.NewEncoder(env.stdout).Encode(t)
			continue
		}
		state := "live"
		if t.RevokedAt != nil {
			state = "revoked"
		}
		fmt.Fprintf(env.stdout, "%s  %-5s  %-7s  %s  %s\n", t.ID, t.Scope, state, strings.Join(t.Spaces, ","), t.Label)
	}
	return nil
}
