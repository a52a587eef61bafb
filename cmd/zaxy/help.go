package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/zaxy/zaxy/internal/buildinfo"
)

// helpGroup is one heading of `zaxy --help`: the commands whose names start with one of its
// prefixes (a word, or a group's first word: "token" covers token create, revoke and list).
type helpGroup struct {
	title    string
	prefixes []string
	// folded groups are listed as one line (summary) in `zaxy --help`; `zaxy <prefix> --help`
	// lists their commands.
	folded  bool
	summary string
}

// helpGroups are the headings of `zaxy --help`, in order. A command no group names is listed
// under "Other" (TestHelp_EveryCommandHasAGroup keeps that list empty).
var helpGroups = []helpGroup{
	{title: "Serve", prefixes: []string{"serve", "mcp", "worker"}},
	{title: "Memory (over ZAXY_URL, or the database)", prefixes: []string{"append", "replay", "verify", "checkout", "facts", "index", "timeline", "show", "ingest", "erase"}},
	{title: "Agent harness hooks (over ZAXY_URL)", prefixes: []string{"hook"}},
	{title: "Review and policy", prefixes: []string{"review", "artifact", "retrospective", "policy"}},
	{title: "Operate (the database: ZAXY_DATABASE_URL)", prefixes: []string{"migrate", "doctor", "token", "projection", "rebuild", "maintenance", "space", "version"}},
	{title: "Bench", prefixes: []string{"bench"}, folded: true,
		summary: "benchmarks in scratch databases (retrieval, checkout, append, replica, latent lanes); zaxy bench --help lists them"},
}

// groupOf is c's help group, or nil (listed under "Other").
func groupOf(c *command) *helpGroup {
	first, _, _ := strings.Cut(c.name, " ")
	for i := range helpGroups {
		for _, p := range helpGroups[i].prefixes {
			if p == first {
				return &helpGroups[i]
			}
		}
	}
	return nil
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "--help" || arg == "-h" || arg == "-help" || arg == "help"
}

// writeHelp prints `zaxy --help`: the commands by group (a folded group as one line), the
// precedence of ZAXY_URL and ZAXY_DATABASE_URL, the exit statuses, then the environment.
func writeHelp(w io.Writer) {
	fmt.Fprint(w, "usage: zaxy <command> [flags]    (zaxy <command> --help for its flags)\n")
	var other []*command
	for i := range commands {
		if groupOf(&commands[i]) == nil {
			other = append(other, &commands[i])
		}
	}
	for gi := range helpGroups {
		g := &helpGroups[gi]
		fmt.Fprintf(w, "\n%s:\n", g.title)
		if g.folded {
			writeCommandLine(w, g.prefixes[0], "", g.summary)
			continue
		}
		for i := range commands {
			if groupOf(&commands[i]) == g {
				writeCommandLine(w, commands[i].name, commands[i].synopsis, commands[i].help)
			}
		}
	}
	if len(other) > 0 {
		fmt.Fprint(w, "\nOther:\n")
		for _, c := range other {
			writeCommandLine(w, c.name, c.synopsis, c.help)
		}
	}
	fmt.Fprint(w, `
Server or database: with ZAXY_URL (or --url) and ZAXY_TOKEN (or --token) the memory and review
commands go through that zaxy serve's HTTP API; ZAXY_URL wins over ZAXY_DATABASE_URL when both
are set. Without ZAXY_URL they use ZAXY_DATABASE_URL directly, with its admin rights. The other
commands always use the database (docs/cli.md).

Exit status: 0 done, 1 failed (including a server or database that cannot be reached),
2 usage error or input refused.
`)
	fmt.Fprint(w, "\nEnvironment (zaxy help env prints only this):\n")
	writeEnvHelp(w)
}

// writeGroupHelp prints `zaxy <group> --help`: every command of the group with its help.
func writeGroupHelp(w io.Writer, name string, group []*command) {
	fmt.Fprintf(w, "usage: zaxy %s <command> [flags]    (zaxy %s <command> --help for its flags)\n\n", name, name)
	for _, c := range group {
		writeCommandLine(w, c.name, c.synopsis, c.help)
	}
}

// writeCommandLine prints one command: its name and synopsis, then its help wrapped and
// indented.
func writeCommandLine(w io.Writer, name, synopsis, help string) {
	const col = 21
	head := "  " + strings.TrimSpace(name+" "+synopsis)
	if len(head) < col-1 {
		fmt.Fprint(w, wrapIndented(fmt.Sprintf("%-*s", col, head), help, 100))
		return
	}
	fmt.Fprintln(w, head)
	fmt.Fprint(w, wrapIndented(strings.Repeat(" ", col), help, 100))
}

// unknownCommand answers args that name no command: a group's help when asked for, else one
// line naming what was not found and the nearest command, exit status 2.
func unknownCommand(args []string, group []*command, stdout, stderr io.Writer) int {
	if group != nil {
		if len(args) > 1 && isHelp(args[1]) {
			writeGroupHelp(stdout, args[0], group)
			return 0
		}
		names := subcommandNames(group)
		if len(args) == 1 || strings.HasPrefix(args[1], "-") {
			fmt.Fprintf(stderr, "zaxy %s: want one of %s (zaxy %s --help)\n", args[0], strings.Join(names, ", "), args[0])
			return 2
		}
		fmt.Fprintf(stderr, "zaxy %s: unknown command %q%s (want one of %s)\n", args[0], args[1], suggest(args[1], names), strings.Join(names, ", "))
		return 2
	}
	var names []string
	seen := map[string]bool{}
	for _, c := range commands {
		first, _, _ := strings.Cut(c.name, " ")
		if !seen[first] {
			seen[first] = true
			names = append(names, first)
		}
	}
	fmt.Fprintf(stderr, "zaxy: unknown command %q%s (zaxy --help lists the commands)\n", args[0], suggest(args[0], names))
	return 2
}

// suggest is `; did you mean "x"?` for the name nearest to word (by edit distance, at most a
// third of its length and at least 1), or "" when none is near.
func suggest(word string, names []string) string {
	best, bestD := "", max(1, len(word)/3)+1
	for _, n := range names {
		if d := editDistance(word, n); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the Levenshtein distance of a and b, with a swap of two adjacent
// characters counted as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// versionCmd: zaxy version [--json] (and zaxy --version): the module version, VCS revision
// and Go version of this binary.
type versionCmd struct{ asJSON bool }

func (c *versionCmd) flags(fs *flag.FlagSet, _ *config) {
	fs.BoolVar(&c.asJSON, "json", false, "print JSON")
}

func (c *versionCmd) validate(args []string) error { return noArgs(args) }

func (c *versionCmd) run(_ context.Context, env *env) error {
	bi := buildinfo.Get()
	if c.asJSON {
		return json.NewEncoder(env.stdout).Encode(bi)
	}
	fmt.Fprintln(env.stdout, bi.String())
	return nil
}
