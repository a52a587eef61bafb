package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/zaxy/zaxy/auth"
)

// spacesFlag collects repeated --space flags.
type spacesFlag []string

func (s *spacesFlag) String() string     { return strings.Join(*s, ",") }
func (s *spacesFlag) Set(v string) error { *s = append(*s, v); return nil }

// tokenCmd: zaxy token create --space S [--space S2 | --space '*'] --scope read|write|admin
// [--label L] [--json] | zaxy token revoke ID | zaxy token list [--json].
func tokenCmd(ctx context.Context, args []string, dbURL string, stdout, stderr io.Writer) int {
	const usage = "usage: zaxy token create --space S --scope read|write|admin [--label L] [--json] | zaxy token revoke ID | zaxy token list [--json]"
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("token "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	var spaces spacesFlag
	fs.Var(&spaces, "space", "a space the token reaches (repeat; * for all)")
	scope := fs.String("scope", "", "read, write or admin")
	label := fs.String("label", "", "a note on who or what the token is for")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	pool, err := openPool(ctx, dbURL)
	if err != nil {
		fmt.Fprintf(stderr, "zaxy token: %v\n", err)
		return 2
	}
	defer pool.Close()
	store := auth.NewStore(pool)
	switch args[0] {
	case "create":
		t, plain, err := store.Create(ctx, spaces, *scope, *label)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy token create: %v\n", err)
			return 2
		}
		if *asJSON {
			_ = json.NewEncoder(stdout).Encode(struct {
				*auth.Token
				Secret string `json:"token"`
			}{t, plain})
			return 0
		}
		fmt.Fprintf(stdout, "%s\n", plain)
		fmt.Fprintf(stderr, "token %s (%s on %s) created; it is shown only now\n", t.ID, t.Scope, strings.Join(t.Spaces, ","))
		return 0
	case "revoke":
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, "usage: zaxy token revoke ID")
			return 2
		}
		if err := store.Revoke(ctx, fs.Arg(0)); err != nil {
			fmt.Fprintf(stderr, "zaxy token revoke: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "revoked %s\n", fs.Arg(0))
		return 0
	case "list":
		ts, err := store.List(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "zaxy token list: %v\n", err)
			return 1
		}
		for _, t := range ts {
			if *asJSON {
				_ = json.NewEncoder(stdout).Encode(t)
				continue
			}
			state := "live"
			if t.RevokedAt != nil {
				state = "revoked"
			}
			fmt.Fprintf(stdout, "%s  %-5s  %-7s  %s  %s\n", t.ID, t.Scope, state, strings.Join(t.Spaces, ","), t.Label)
		}
		return 0
	default:
		fmt.Fprintln(stderr, usage)
		return 2
	}
}
