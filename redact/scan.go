package redact

import (
	"context"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
)

// span is one secret found: [start, end) in the text the patterns ran on, and its kind.
type span struct {
	kind       string
	start, end int
	order      int
}

// secretPattern finds one kind of secret. When the expression has groups named "s", only
// the first of them that matched is redacted (the rest of the match is context, such as
// "password=" or the user and host of a URL); otherwise the whole match is.
//
// Every pattern is matched only from its hints (see find): each match contains one of them,
// at its start, or after at most maxPre bytes that pre matches.
type secretPattern struct {
	kind string
	// re is the whole expression: what the pattern matches, and the bound minLen is taken from.
	re *regexp.Regexp
	// keep, when set, must accept the secret's text for it to be redacted.
	keep func(secret string) bool
	// hints are lowercase literals; every match starts with one (or has one right after its
	// pre part). Finding them is a literal search (GB/s); the expression runs only from them.
	hints []string
	// main is the expression from the hint on, when re starts before its hint (with pre);
	// otherwise re itself.
	main string
	// pre, when set, must match (anchored at the end) the up to maxPre bytes of the line before
	// the hint; the match then starts where pre's match (or its first group) starts. With
	// preOptional a failed pre leaves the match starting at the hint.
	pre         *regexp.Regexp
	preOptional bool
	// preLast, for a pre that must match, holds every byte its match can end with: a hint
	// after any other byte is passed over before anything runs.
	preLast *[256]bool
	// multiline: a match may run on past the hint's line (the private key block).
	multiline bool
	// failRun and failSegment say how far a failed attempt rules out later hints of the same
	// pattern, so that failing from every hint of a long run costs one scan, not one per
	// hint: failRun, the run of these bytes after the hint (no later hint inside it can
	// match either); failSegment, the rest of the shell command (up to "|", ";", "&" or the
	// line's end), which a lazy scan for an option has already searched.
	failRun     *[256]bool
	failSegment bool
	// custom, when set, matches from a hint instead of the expression (which it implements).
	custom func(s string, h, lineEnd int, m *scanMemo) (match, bool)
	// anchored is main anchored at the start, and auto its automaton, built by init.
	anchored *regexp.Regexp
	auto     *automaton
	// backtrackLen is the longest input the engine backtracks on for anchored.
	backtrackLen int
	// secretGroups are the indexes of anchored's groups named "s".
	secretGroups []int
	// minLen is the fewest bytes any match of re has (minMatchLen), computed by init: a text
	// shorter than that is not searched. Most strings of a JSON document are short.
	minLen int
	// wordStart: re starts with \b (checked on the byte before the hint).
	wordStart bool
}

// match is one attempt's result: the whole match and the secret inside it.
type match struct{ start, end, sStart, sEnd int }

// maxPre is the most bytes a pre part may cover.
const maxPre = 16

// followMatch and followLazyMatch bound how far past a possible match the automaton
// follows threads that live on (see automaton.scan): a failSegment pattern's lazy scan lives
// to the end of the command, which the expression (stopping at its first match) need not
// read; any other pattern's threads die soon after its match, and following them to the end
// gives the expression the shortest input.
const (
	followMatch     = 4096
	followLazyMatch = 16
)

// maxBacktrackVector is regexp's bound on the bits of a backtracking run's bitmap.
const maxBacktrackVector = 256 * 1024

// minSecretLen is the shortest any pattern matches (the least minLen), set by init: no
// shorter text holds a secret.
var minSecretLen int

func init() {
	for i := range patterns {
		p := &patterns[i]
		main := p.main
		if main == "" {
			main = p.re.String()
		}
		p.anchored = regexp.MustCompile(`^(?:` + main + `)`)
		p.auto = newAutomaton(main)
		p.backtrackLen = maxBacktrackVector / len(p.auto.prog.Inst)
		for g, name := range p.anchored.SubexpNames() {
			if name == "s" {
				p.secretGroups = append(p.secretGroups, g)
			}
		}
		p.minLen = minMatchLen(syntax.Parse(p.re.String(), syntax.Perl))
		p.wordStart = p.pre == nil && strings.HasPrefix(p.re.String(), `\b`)
		if i == 0 || p.minLen < minSecretLen {
			minSecretLen = p.minLen
		}
	}
}

// scanner carries one redaction's context and counts its work: the bytes handed to the
// expression engine (each RE2 run is linear in its input) and the attempts.
type scanner struct {
	ctx      context.Context
	err      error
	attempts int
	work     int
	// nextCheck is the work at which the context is checked next.
	nextCheck int
}

// The context is checked every checkEvery attempts and every checkWork bytes of work.
const (
	checkEvery = 512
	checkWork  = 64 << 10
)

// stopped counts an attempt and reports whether the context is done (recording its error).
func (sc *scanner) stopped() bool {
	if sc.err != nil {
		return true
	}
	sc.attempts++
	if sc.ctx != nil && (sc.attempts%checkEvery == 0 || sc.work >= sc.nextCheck) {
		sc.nextCheck = sc.work + checkWork
		sc.err = sc.ctx.Err()
	}
	return sc.err != nil
}

// scanMemo remembers, for the run of non-space bytes being matched in, where it ends and its
// last "@" that a host follows (matchURLPassword), so each run is scanned once.
type scanMemo struct{ runStart, runEnd, lastAt int }

// find returns the secrets in s, ordered by start (longer first, then pattern order).
func (sc *scanner) find(s string) []span {
	var found []span
	lower := asciiLower(s)
	for pi := range patterns {
		p := &patterns[pi]
		if len(s) < p.minLen {
			continue
		}
		if sc.stopped() {
			return nil
		}
		found = sc.findPattern(p, pi, s, lower, found)
	}
	sort.Slice(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return a.order < b.order
	})
	// The same secret found by two patterns: the first listed names it.
	out := found[:0]
	for _, f := range found {
		if n := len(out); n > 0 && out[n-1].start == f.start && out[n-1].end == f.end {
			continue
		}
		out = append(out, f)
	}
	return out
}

// findPattern appends p's secrets in s to found. It visits p's hints in order, skipping those
// inside the text its last attempt covered: a match (kept or not) covers itself, a failure
// what failRun or failSegment rule out, else the hint. Each attempt reads the line only as
// far as its automaton keeps a thread alive (see attempt), so the work is linear in len(s).
func (sc *scanner) findPattern(p *secretPattern, pi int, s, lower string, found []span) []span {
	it := hintIter{lower: lower, hints: p.hints, next: make([]int, len(p.hints))}
	for k := range p.hints {
		it.find(k, 0)
	}
	memo := scanMemo{runEnd: -1}
	cover := 0
	lineStart, lineEnd := 0, -1
	for {
		h, k := it.pop(cover)
		if h < 0 {
			return found
		}
		if sc.stopped() {
			return found
		}
		cover = h + 1
		if h >= lineEnd {
			base := max(lineEnd, 0)
			lineStart = base + strings.LastIndexByte(s[base:h], '\n') + 1
			lineEnd = len(s)
			if i := strings.IndexByte(s[h:], '\n'); i >= 0 {
				lineEnd = h + i
			}
		}
		if p.wordStart && h > 0 && isWordByte(s[h-1]) {
			continue
		}
		end := lineEnd
		if p.multiline {
			end = len(s)
		}
		var m match
		var ok bool
		if p.custom != nil {
			m, ok = p.custom(s, h, end, &memo)
			sc.work += m.end - h
		} else {
			m, ok = sc.attempt(p, s, h, lineStart, end)
		}
		if !ok {
			switch {
			case p.failRun != nil:
				j := h + len(p.hints[k])
				for j < end && p.failRun[s[j]] {
					j++
				}
				cover = j
			case p.failSegment:
				cover = end
				if i := strings.IndexAny(s[h:end], "|;&"); i >= 0 {
					cover = h + i
				}
			}
			continue
		}
		cover = max(m.end, h+1)
		secret := s[m.sStart:m.sEnd]
		if m.sEnd <= m.sStart || isMarker(secret) || (p.keep != nil && !p.keep(secret)) {
			continue
		}
		found = append(found, span{kind: p.kind, start: m.sStart, end: m.sEnd, order: pi})
	}
}

// attempt matches p from the hint at h on s[h:end]. p's automaton runs first: most attempts
// fail there, and a possible match is handed to the expression only up to where the
// automaton found that no match can go on (so a long quoted value or token is matched whole,
// and a short one costs the expression its own length, not the line's).
func (sc *scanner) attempt(p *secretPattern, s string, h, lineStart, end int) (match, bool) {
	if p.preLast != nil && (h == lineStart || !p.preLast[s[h-1]]) {
		return match{}, false
	}
	follow := followMatch
	if p.failSegment {
		follow = followLazyMatch
	}
	r, _ := p.auto.scan(s, h, end, follow)
	sc.work += r.scanned
	if !r.possible {
		return match{end: r.cut}, false
	}
	start := h
	if p.pre != nil {
		ws := max(lineStart, h-maxPre)
		sc.work += h - ws
		pm := p.pre.FindStringSubmatchIndex(s[ws:h])
		switch {
		case pm != nil && len(pm) >= 4 && pm[2] >= 0:
			start = ws + pm[2]
		case pm != nil:
			start = ws + pm[0]
		case !p.preOptional:
			return match{}, false
		}
	}
	m := p.anchored.FindStringSubmatchIndex(s[h:r.cut])
	// The engine backtracks on inputs up to backtrackLen bytes, first clearing a bitmap of
	// a bit per instruction and input byte (memory is cleared at about a hundred bytes a
	// nanosecond, so 2048 bits cost about what the automaton's step on a byte does), and
	// simulates the program on longer ones until its threads die: about as far as the match
	// goes.
	switch {
	case r.cut-h <= p.backtrackLen:
		sc.work += r.scanned + (r.cut-h+1)*len(p.auto.prog.Inst)/2048
	case m == nil:
		sc.work += r.cut - h
	default:
		sc.work += m[1]
	}
	if m == nil {
		return match{}, false
	}
	res := match{start: start, end: h + m[1], sStart: start, sEnd: h + m[1]}
	for _, g := range p.secretGroups {
		if m[2*g] >= 0 {
			res.sStart, res.sEnd = h+m[2*g], h+m[2*g+1]
			break
		}
	}
	return res, true
}

// hintIter yields the positions of a pattern's hints in lower, in order.
type hintIter struct {
	lower string
	hints []string
	next  []int // the next position of each hint, -1 when there is none
}

func (it *hintIter) find(k, from int) {
	if from > len(it.lower) {
		it.next[k] = -1
		return
	}
	i := strings.Index(it.lower[from:], it.hints[k])
	if i >= 0 {
		i += from
	}
	it.next[k] = i
}

// pop returns the first hint at or after from, and which hint it is; -1 when none is left.
func (it *hintIter) pop(from int) (int, int) {
	best, bk := -1, -1
	for k, n := range it.next {
		if n >= 0 && n < from {
			it.find(k, from)
			n = it.next[k]
		}
		if n >= 0 && (best < 0 || n < best) {
			best, bk = n, k
		}
	}
	if bk >= 0 {
		it.find(bk, best+1)
	}
	return best, bk
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// isSpace is RE2's \s: tab, newline, form feed, carriage return, space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// matchURLPassword matches url_password from the "://" at h: a user part of no ":/?#@[]" or
// space, ":", then the password up to the last "@" of the run of non-space bytes that a host
// character ([^\s/?#@:]) follows. It is what the expression does, but the run's last "@" is
// found once per run (memo), so a run full of "://" costs one scan.
func matchURLPassword(s string, h, end int, memo *scanMemo) (match, bool) {
	i := h + 3
	for i < end && !isSpace(s[i]) && strings.IndexByte(":/?#@[]", s[i]) < 0 {
		i++
	}
	if i >= end || s[i] != ':' {
		return match{end: i}, false
	}
	p := i + 1
	if p < memo.runStart || p >= memo.runEnd {
		memo.runStart = p
		memo.runEnd = p
		for memo.runEnd < end && !isSpace(s[memo.runEnd]) {
			memo.runEnd++
		}
		memo.lastAt = -1
		for k := memo.runEnd - 2; k > p; k-- {
			if c := s[k+1]; s[k] == '@' && strings.IndexByte("/?#@:", c) < 0 {
				memo.lastAt = k
				break
			}
		}
	}
	if memo.lastAt <= p {
		return match{end: p}, false
	}
	return match{start: h, end: memo.lastAt + 2, sStart: p, sEnd: memo.lastAt}, true
}
