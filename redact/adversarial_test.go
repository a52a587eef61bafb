package redact

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// anchors are the literals adversarial inputs repeat: every pattern's hints, and the
// beginnings of each pattern with their context (an assignment, a URL's user, a command's
// option), so that every attempt gets as far as it can before it fails or matches.
func anchors() []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, p := range patterns {
		for _, h := range p.hints {
			add(h)
		}
	}
	for _, a := range []string{
		"sk-ant-", "AKIA", "AKIAIOSFODNN7EXAMPLE ", "aws_secret_access_key=", "ghp_", "GH_TOKEN=", "github token is ",
		"xoxb-", "xapp-1-", "https://hooks.slack.com/services/", "AIza", "sk_live_", "whsec_", "hf_", "npm_",
		"SG.aaaaaaaaaaaaaaaa.", "zx_", "pypi-AgEIcHlwaS5vcmc", "dop_v1_", "shpat_", "AGE-SECRET-KEY-1",
		"https://discord.com/api/webhooks/1/", "123456789:AA", "AccountKey=", "?sig=", "&sig=",
		"Authorization: Bearer ", "Authorization:", "Bearer ", "Basic ", "eyJ", "eyJaaaaaaaa.eyJ", "://", "://a:", "://a:b",
		"https://", "mysql ", "mysql -p", "docker login ", "docker login -p ", "echo x | docker login", "--password-stdin <<< ",
		"curl ", "curl -u ", "curl -u a:", "password=", "password: ", `\"password\": \"`, "password is ", "the password for x was ",
		"DB_PWD=", "a_pw=", "secret=", "api_key=", "X-Api-Key: ", "token: ", "-----BEGIN PRIVATE KEY-----", "-----BEGIN ",
	} {
		add(a)
	}
	return out
}

// shape is one adversarial input: a name and a text of about size bytes.
type shape struct {
	name string
	text string
}

// seps are what adversarial inputs put between repeated anchors.
var seps = []string{"", " ", "-", "_", "a", "0", ":", "/", "=", `"`, "@", ".", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}

// adversarialShapes repeats every unit with every separator, unbroken (one line of size
// bytes) and per line (lines of lineLen bytes).
func adversarialShapes(units []string, size, lineLen int, seps []string) []shape {
	var out []shape
	for _, a := range units {
		for _, sep := range seps {
			for _, l := range []int{0, lineLen} {
				out = append(out, shape{name: shapeName(a+sep, l), text: layout(a+sep, l, size)})
			}
		}
	}
	return out
}

func repeatTo(unit string, size int) string {
	return strings.Repeat(unit, max(1, size/len(unit)))
}

// workOf is the work String does on s: bytes handed to the expression engine plus attempts.
func workOf(s string) int {
	sc := &scanner{}
	redactString(sc, newBudget(len(s)), s)
	return sc.work + sc.attempts
}

// Redaction is linear on every adversarial shape, without timing it: the work (bytes the
// automata read, bytes the expression engine is given, and attempts) of twice the text is
// about twice the work (at most 2.5 times: the last attempts on a line are charged less),
// on one line and with lines twice as long. A scan that ran each hint's expression to the
// end of its line does four times the work per line on lines twice as long. The shapes are
// every anchor with six separators, and every one-character continuation (see
// continuations) alone.
func TestString_WorkIsLinearOnAdversarialShapes(t *testing.T) {
	t.Parallel()
	const size = 6 << 10
	few := []string{"", " ", "-", "a", ":", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	small := append(adversarialShapes(anchors(), size, 384, few), adversarialShapes(continuations(false), size, 384, []string{""})...)
	big := append(adversarialShapes(anchors(), 2*size, 768, few), adversarialShapes(continuations(false), 2*size, 768, []string{""})...)
	worst, worstName := 0.0, ""
	for i := range small {
		w1, w2 := workOf(small[i].text), workOf(big[i].text)
		ratio := float64(w2+size) / float64(w1+size) // +size: shapes with no work at all
		if ratio > worst {
			worst, worstName = ratio, small[i].name
		}
		require.LessOrEqual(t, ratio, 2.5, "%s: work %d at %d bytes, %d at twice that", small[i].name, w1, len(small[i].text), w2)
		require.LessOrEqual(t, w1, 400*len(small[i].text), "%s: work per byte", small[i].name)
	}
	t.Logf("worst ratio %.2f (%s) over %d shapes", worst, worstName, len(small))
}

// A done context stops String with its error, and the context is checked while a long text
// is scanned (not only at the start).
func TestStringContext_StopsWhenTheContextIsDone(t *testing.T) {
	t.Parallel()
	text := strings.Repeat(strings.Repeat("sk-", 341)+"\n", 1024)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := StringContext(ctx, text)
	require.ErrorIs(t, err, context.Canceled)

	checks := 0
	sc := &scanner{ctx: countingContext{Context: context.Background(), n: &checks}}
	redactString(sc, newBudget(len(text)), text)
	require.Greater(t, checks, 10, "the context is checked throughout")

	_, _, err = JSONContext(ctx, []byte(`{"a":"`+strings.Repeat("password=x ", 10000)+`"}`))
	require.ErrorIs(t, err, context.Canceled)
}

type countingContext struct {
	context.Context
	n *int
}

func (c countingContext) Err() error { *c.n++; return nil }

// TestAdversarialSearch times String on adversarial shapes and prints the slowest
// (docs/redaction.md reports them). It only runs when asked:
//
//	ZAXY_REDACT_SEARCH=1 go test -run TestAdversarialSearch -v ./redact/
//
// The shapes are every anchor repeated with every separator, and every continuation (each
// pattern's hint followed by the characters its automaton can still go on with) repeated
// alone and with a space, on one line and per 128- and 1024-byte line. Each is timed at
// 32 KiB, and the slowest 40 again at 1 MiB, three times each (the fastest run counts). Times are CPU time (the process's user
// and system time, GC included) and wall time, per MiB.
func TestAdversarialSearch(t *testing.T) {
	if os.Getenv("ZAXY_REDACT_SEARCH") == "" {
		t.Skip("set ZAXY_REDACT_SEARCH=1 to run the search")
	}
	type result struct {
		name      string
		unit      string
		lineLen   int
		cpu, wall time.Duration
	}
	type unitSeps struct {
		units, seps []string
	}
	groups := []unitSeps{{anchors(), searchSeps()}, {continuations(true), []string{"", " "}}}
	measure := func(unit string, lineLen, size int) (cpu, wall time.Duration) {
		text := layout(unit, lineLen, size)
		c0, w0 := cpuTime(), time.Now()
		String(text)
		return cpuTime() - c0, time.Since(w0)
	}
	var results []result
	for _, g := range groups {
		for _, a := range g.units {
			for _, sep := range g.seps {
				for _, lineLen := range []int{0, 128, 1024} {
					cpu, wall := measure(a+sep, lineLen, 32<<10)
					results = append(results, result{shapeName(a+sep, lineLen), a + sep, lineLen, cpu, wall})
				}
			}
		}
	}
	fmt.Printf("%d shapes at 32 KiB\n", len(results))
	sort.Slice(results, func(i, j int) bool { return results[i].cpu > results[j].cpu })
	top := results[:min(40, len(results))]
	for i := range top {
		top[i].cpu, top[i].wall = time.Hour, time.Hour
		for range 3 {
			cpu, wall := measure(top[i].unit, top[i].lineLen, 1<<20)
			top[i].cpu, top[i].wall = min(top[i].cpu, cpu), min(top[i].wall, wall)
		}
	}
	sort.Slice(top, func(i, j int) bool { return top[i].cpu > top[j].cpu })
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("load average: %s", load)
	for _, r := range top[:min(20, len(top))] {
		fmt.Printf("%8.1f ms CPU %8.1f ms wall per MiB  %s\n", ms(r.cpu), ms(r.wall), r.name)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// layout repeats unit to size bytes: on one line (lineLen 0) or per line of lineLen bytes.
func layout(unit string, lineLen, size int) string {
	if lineLen == 0 {
		return repeatTo(unit, size)
	}
	return repeatTo(repeatTo(unit, lineLen-1)+"\n", size)
}

func shapeName(unit string, lineLen int) string {
	if lineLen == 0 {
		return fmt.Sprintf("%q unbroken", unit)
	}
	return fmt.Sprintf("%q per %d-byte line", unit, lineLen)
}

// continuations are each pattern's hints (as written and in upper case) followed by one
// and, with two, also two characters the pattern's automaton can go on with, one of each
// class of characters it tells apart (at most 24 per hint): the inputs that take every
// attempt as far as it can get before it fails or matches.
func continuations(two bool) []string {
	seen := map[string]bool{}
	var out []string
	for pi := range patterns {
		a := patterns[pi].auto
		for _, h := range patterns[pi].hints {
			for _, spelled := range []string{h, strings.ToUpper(h)} {
				st, alive := a.after(startSt, spelled)
				if !alive {
					continue
				}
				n := 0
				for _, c1 := range a.liveBytes(st) {
					st1, _ := a.after(st, string(c1))
					next := []byte{0}
					if two {
						next = append(next, a.liveBytes(st1)...)
					}
					for _, c2 := range next {
						u := spelled + string(c1)
						if c2 != 0 {
							u += string(c2)
						}
						if n < 24 && !seen[u] {
							seen[u] = true
							out = append(out, u)
							n++
						}
					}
				}
			}
		}
	}
	return out
}

// after runs the automaton from state st over the ASCII text s and returns the state it
// ends in and whether that state is alive.
func (a *automaton) after(st int, s string) (int, bool) {
	for i := 0; i < len(s) && st != deadState; i++ {
		c := int(a.class[s[i]])
		t := a.row(int32(st))[c].Load()
		if t == 0 {
			t = a.build(int32(st), c)
		}
		st = int(t>>1 - 1)
	}
	return st, st != deadState
}

// liveBytes returns a printable character (or tab) of each class whose step from st leaves
// a thread alive.
func (a *automaton) liveBytes(st int) []byte {
	var out []byte
	done := map[uint8]bool{}
	for b := byte('\t'); b < utf8.RuneSelf; b++ {
		c := a.class[b]
		if done[c] || b < ' ' && b != '\t' || b == 0x7f {
			continue
		}
		done[c] = true
		if _, alive := a.after(st, string(b)); alive {
			out = append(out, b)
		}
	}
	return out
}

// searchSeps are the separators the search uses: all of them, or with ZAXY_REDACT_SEARCH=few
// the six of TestString_WorkIsLinearOnAdversarialShapes (a quicker search).
func searchSeps() []string {
	if os.Getenv("ZAXY_REDACT_SEARCH") == "few" {
		return []string{"", " ", "-", "a", ":", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	}
	return seps
}

// worstShapes are the slowest shapes TestAdversarialSearch found, and the cases issue 30
// reported; BenchmarkRedact_Adversarial runs each.
var worstShapes = []string{
	`"sk-" per 1024-byte line`,
	`"https://" per 1024-byte line`,
	`"mysql -p\"" unbroken`,
	`"a_pw=\"" per 1024-byte line`,
}

// BenchmarkRedact_Adversarial redacts adversarial 1 MiB inputs (worstShapes).
func BenchmarkRedact_Adversarial(b *testing.B) {
	all := adversarialShapes(anchors(), 1<<20, 1024, seps)
	for _, name := range worstShapes {
		i := slices.IndexFunc(all, func(s shape) bool { return s.name == name })
		if i < 0 {
			b.Fatalf("no shape %s", name)
		}
		text := all[i].text
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				String(text)
			}
		})
	}
}
