package redact

import (
	"regexp/syntax"
	"slices"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// automaton decides, from a hint, whether a pattern's expression (anchored at the hint) can
// match the rest of the line at all, and how far the text can still take part in a match. It
// is a deterministic automaton over the expression's program, built lazily as texts reach
// new states: every path of the program is followed at once (not only the one leftmost-first
// matching would pick), so it keeps alive at least every thread the expression engine does,
// and a non-ASCII rune is taken to match every instruction that accepts some non-ASCII rune.
// Its answers therefore over-approximate: "no match" is certain, "a match is possible" is
// confirmed by the expression itself. A step costs a table look-up, so a failing attempt
// costs a few nanoseconds a byte instead of an expression run (about a microsecond however
// early it fails).
//
// States are shared by every redaction and built under mu; a built transition is published
// with an atomic store, so reading one takes no lock.
type automaton struct {
	prog *syntax.Prog
	// class maps an ASCII byte to its class (bytes every instruction and assertion treats
	// alike); other is the class of every non-ASCII rune.
	class  [utf8.RuneSelf]uint8
	other  uint8
	nclass int
	// rep is a rune of each class, for the assertions' context.
	rep []rune

	mu      sync.Mutex
	ids     map[string]int32 // a state's key (its instructions and previous rune) → id
	states  []autoState
	visited []bool // scratch for closure
	stack   []uint32
	// table holds every state's row: one transition per class and then whether the state
	// matches at the end of the text. A transition is 0 while not built, else
	// (next state + 1) << 1 | 1 if the state matches before the class's rune. A full table
	// is replaced by a copy twice as large; a reader holding the old one finds a state it
	// lacks (or a transition not built there) and loads the new one.
	table atomic.Pointer[[]atomic.Int32]
}

// autoState is a state: the instructions its threads are at (before following empty
// transitions) and the kind of rune before it.
type autoState struct {
	pcs  []uint32
	prev prevKind
}

// prevKind is what the assertions need to know of the rune before a position.
type prevKind uint8

const (
	prevBegin prevKind = iota
	prevWord
	prevNewline
	prevOther
)

const (
	// maxStates bounds each automaton; a text that would need more is matched by the
	// expression alone (scan reports !ok). No pattern comes near it.
	maxStates = 1 << 14
	deadState = 0
	startSt   = 1
)

// scanResult is what scan learns from s[h:end].
type scanResult struct {
	// cut: the expression matched on s[h:cut] finds what it finds on s[h:end] (every
	// thread has died by cut, or cut is end).
	cut int
	// possible: the expression may match (certainly not when false).
	possible bool
	// scanned is how many bytes the automaton read.
	scanned int
}

func newAutomaton(expr string) *automaton {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(err)
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		panic(err)
	}
	a := &automaton{prog: prog, ids: map[string]int32{}, visited: make([]bool, len(prog.Inst))}
	// Classes: runes alike for every distinct rune instruction, word-ness and newline.
	sig := func(r rune) string {
		b := []byte{byte(kindOf(r))}
		for i := range prog.Inst {
			if in := &prog.Inst[i]; isRuneInst(in.Op) {
				b = append(b, byte(b2i(matchesRune(in, r))))
			}
		}
		return string(b)
	}
	classes := map[string]uint8{}
	classFor := func(key string, r rune) uint8 {
		c, ok := classes[key]
		if !ok {
			c = uint8(len(classes))
			classes[key] = c
			a.rep = append(a.rep, r)
		}
		return c
	}
	for r := rune(0); r < utf8.RuneSelf; r++ {
		a.class[r] = classFor(sig(r), r)
	}
	a.other = classFor(sig(nonASCIIRep), nonASCIIRep)
	a.nclass = len(classes)
	a.intern(nil, prevBegin) // dead
	a.intern([]uint32{uint32(prog.Start)}, prevBegin)
	return a
}

// nonASCIIRep stands for every non-ASCII rune: matchesRune takes it to match whatever
// instruction accepts some non-ASCII rune.
const nonASCIIRep = 0x100

// matchesRune reports whether rune instruction in matches r (ASCII), or for nonASCIIRep
// some non-ASCII rune.
func matchesRune(in *syntax.Inst, r rune) bool {
	switch {
	case in.Op == syntax.InstRuneAny:
		return true
	case in.Op == syntax.InstRuneAnyNotNL:
		return r != '\n'
	case r >= utf8.RuneSelf:
		return acceptsNonASCII(in)
	}
	return in.MatchRune(r)
}

func isRuneInst(op syntax.InstOp) bool {
	return op == syntax.InstRune || op == syntax.InstRune1 || op == syntax.InstRuneAny || op == syntax.InstRuneAnyNotNL
}

// acceptsNonASCII reports whether a rune instruction matches some rune >= 0x80.
func acceptsNonASCII(in *syntax.Inst) bool {
	switch in.Op {
	case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return true
	case syntax.InstRune1:
		return in.Rune[0] >= utf8.RuneSelf
	}
	if len(in.Rune) == 1 {
		r := in.Rune[0]
		if r >= utf8.RuneSelf {
			return true
		}
		if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if f >= utf8.RuneSelf {
					return true
				}
			}
		}
		return false
	}
	for i := 1; i < len(in.Rune); i += 2 {
		if in.Rune[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

func kindOf(r rune) prevKind {
	switch {
	case r < 0:
		return prevBegin
	case r < utf8.RuneSelf && syntax.IsWordChar(r):
		return prevWord
	case r == '\n':
		return prevNewline
	}
	return prevOther
}

// prevRune is a rune of kind k, for syntax.EmptyOpContext.
func prevRune(k prevKind) rune {
	switch k {
	case prevBegin:
		return -1
	case prevWord:
		return 'a'
	case prevNewline:
		return '\n'
	}
	return ' '
}

// row returns state st's row in the current table.
func (a *automaton) row(st int32) []atomic.Int32 {
	t := *a.table.Load()
	i := int(st) * (a.nclass + 1)
	return t[i : i+a.nclass+1]
}

// scan runs the automaton over s[h:end], the text the expression sees, until every thread
// has died. Once a match is possible it follows the threads for as long again as the match
// so far and follow bytes more; if some live on past that (as after a lazy "[^\n]*?"), cut
// is end and the expression, which stops once no thread can beat the match it has found,
// decides. ok is false when the automaton is full (then nothing is known: match on
// s[h:end]).
func (a *automaton) scan(s string, h, end, follow int) (r scanResult, ok bool) {
	tab := *a.table.Load()
	stride := a.nclass + 1
	st := startSt
	matched := false
	stop := end
	for i := h; i < end; {
		if i >= stop {
			return scanResult{cut: end, possible: true, scanned: i - h}, true
		}
		c, size := int(a.other), 1
		if b := s[i]; b < utf8.RuneSelf {
			c = int(a.class[b])
		} else {
			_, size = utf8.DecodeRuneInString(s[i:end])
		}
		k := st*stride + c
		if k >= len(tab) {
			tab = *a.table.Load()
		}
		t := tab[k].Load()
		if t == 0 {
			if t = a.build(int32(st), c); t == 0 {
				return scanResult{cut: end, possible: true, scanned: i - h}, false
			}
			tab = *a.table.Load()
		}
		if t&1 != 0 && !matched {
			matched, stop = true, min(end, 2*i-h+follow)
		}
		st = int(t>>1 - 1)
		i += size
		if st == deadState {
			return scanResult{cut: i, possible: matched, scanned: i - h}, true
		}
	}
	k := st*stride + a.nclass
	if k >= len(tab) {
		tab = *a.table.Load()
	}
	return scanResult{cut: end, possible: matched || tab[k].Load() != 0, scanned: end - h}, true
}

// build computes, stores and returns the transition of state st on class c (0 when the
// automaton is full).
func (a *automaton) build(st int32, c int) int32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if t := a.row(st)[c].Load(); t != 0 {
		return t
	}
	from := a.states[st]
	r := a.rep[c]
	runes, matched := a.closure(from.pcs, syntax.EmptyOpContext(prevRune(from.prev), r))
	var next []uint32
	for _, pc := range runes {
		in := &a.prog.Inst[pc]
		ok := matchesRune(in, r)
		if ok {
			next = append(next, in.Out)
		}
	}
	id := a.intern(next, kindOf(r))
	if id < 0 {
		return 0
	}
	t := (id+1)<<1 | b2i(matched)
	a.row(st)[c].Store(t)
	return t
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// closure follows the empty transitions from pcs whose assertions hold in ctx, and returns
// the rune instructions reached and whether a match is.
func (a *automaton) closure(pcs []uint32, ctx syntax.EmptyOp) (runes []uint32, matched bool) {
	clear(a.visited)
	stack := append(a.stack[:0], pcs...)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.visited[pc] {
			continue
		}
		a.visited[pc] = true
		in := &a.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Out, in.Arg)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^ctx == 0 {
				stack = append(stack, in.Out)
			}
		case syntax.InstMatch:
			matched = true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			runes = append(runes, pc)
		}
	}
	a.stack = stack
	return runes, matched
}

// intern returns the id of the state of pcs after a rune of kind prev, adding it (and its
// row) if new; -1 when the automaton is full. No threads is the dead state, whatever prev.
func (a *automaton) intern(pcs []uint32, prev prevKind) int32 {
	if len(pcs) == 0 && len(a.states) > 0 {
		return deadState
	}
	slices.Sort(pcs)
	pcs = slices.Compact(pcs)
	key := make([]byte, 0, 1+4*len(pcs))
	key = append(key, byte(prev))
	for _, pc := range pcs {
		key = append(key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if id, ok := a.ids[string(key)]; ok {
		return id
	}
	id := int32(len(a.states))
	if id >= maxStates {
		return -1
	}
	stride := a.nclass + 1
	if t := a.table.Load(); t == nil || len(*t) < (int(id)+1)*stride {
		grown := make([]atomic.Int32, max(8, 2*int(id))*stride)
		if t != nil {
			for i := range *t {
				grown[i].Store((*t)[i].Load())
			}
		}
		a.table.Store(&grown)
	}
	a.states = append(a.states, autoState{pcs: pcs, prev: prev})
	a.ids[string(key)] = id
	_, atEnd := a.closure(pcs, syntax.EmptyOpContext(prevRune(prev), -1))
	a.row(id)[a.nclass].Store(b2i(atEnd))
	return id
}
