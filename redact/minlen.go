package redact

import "regexp/syntax"

// minMatchLen returns a lower bound on the length in bytes of any text re matches: a literal
// counts its runes' UTF-8 bytes (a case-folded ASCII letter's other forms are as long or
// longer), a character class one byte, a repetition its minimum count, an alternation its
// shortest branch, and assertions, optional and starred parts nothing. It takes
// syntax.Parse's results so init can pass them straight in; a parse error gives 0 (search
// everything), though every pattern here compiled already.
func minMatchLen(re *syntax.Regexp, err error) int {
	if err != nil {
		return 0
	}
	return minLen(re)
}

func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += len(string(r))
		}
		return n
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLen(sub)
		}
		return n
	case syntax.OpAlternate:
		m := -1
		for _, sub := range re.Sub {
			if v := minLen(sub); m < 0 || v < m {
				m = v
			}
		}
		return max(m, 0)
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLen(re.Sub[0])
	}
	return 0 // empty match, assertions, *, ?
}
