package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// nameKey lowercases a name and collapses its whitespace, like graph.Key. This file holds the
// scanner's classes of words and characters and its word lists.
func nameKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// isCapitalizedWord reports an uppercase letter followed by lowercase letters only.
func isCapitalizedWord(w string) bool {
	for i, r := range w {
		if (i == 0 && !unicode.IsUpper(r)) || (i > 0 && !unicode.IsLower(r)) {
			return false
		}
	}
	return w != ""
}

func letterCount(w string) int {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// isAllCaps reports a word of at least two letters, all of them capitals (AWS, AGE, GPT-4).
func isAllCaps(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters >= 2
}

// isContraction reports a word with an apostrophe not followed by a capital ("don't",
// "we're"); "O'Brien" is not one.
func isContraction(w string) bool {
	for i, r := range w {
		if isApostrophe(r) {
			next, _ := utf8.DecodeRuneInString(w[i+utf8.RuneLen(r):])
			return !unicode.IsUpper(next)
		}
	}
	return false
}

func isAbbreviation(core string) bool {
	if utf8.RuneCountInString(core) == 1 {
		return true // an initial: "J. Smith"
	}
	return lookupLower(abbreviations, core)
}

func isStopword(w string) bool { return lookupLower(stopwords, w) }

func isConnector(w string) bool { return connectors[w] }

func knownExt(ext string) bool { return lookupLower(extensions, ext) }

// lookupLower looks w up in m by its lowercase form without allocating for short ASCII words.
func lookupLower(m map[string]bool, w string) bool {
	var buf [24]byte
	if len(w) > len(buf) {
		return m[strings.ToLower(w)]
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return m[strings.ToLower(w)]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return m[string(buf[:len(w)])]
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

func isASCIIAlnum(c byte) bool { return isASCIILetter(c) || (c >= '0' && c <= '9') }

func isSchemeByte(c byte) bool { return isASCIIAlnum(c) || c == '+' || c == '-' || c == '.' }

func isLeadPunct(r rune) bool {
	switch r {
	case '(', '[', '{', '<', '"', '\'', '*', '`', '“', '‘', '«', '¡', '¿', '|', '>':
		return true
	}
	return false
}

func isTrailPunct(r rune) bool {
	switch r {
	case '.', ',', ';', ':', '!', '?', '"', '\'', '*', '`', '”', '’', '»', '|', '>', '…':
		return true
	}
	return false
}

func openBracket(r rune) int {
	switch r {
	case '(':
		return 0
	case '[':
		return 1
	case '{':
		return 2
	}
	return -1
}

func closeBracket(r rune) int {
	switch r {
	case ')':
		return 0
	case ']':
		return 1
	case '}':
		return 2
	}
	return -1
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

func isLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || (r >= '\t' && r <= '\r')
	}
	return unicode.IsSpace(r)
}

func decodeRune(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// stopwords are capitalized words that are not names on their own: function words,
// sentence openers common in agent work, log levels, weekdays and months (dates are not
// mentions).
var stopwords = set(`
a an the this that these those there here it its i me my mine we our ours us you your yours
he him his she her hers they them their theirs who whom whose what which when where why how
whether if then than else so but and or nor not no yes yeah yep ok okay also just only even
still yet as at by for from in into of on onto off out over under up down with within without
about above after before again all any both each every few more most other others some such
same own very much many everyone everything someone something nobody nothing anyone
anything can could should would will shall may might must do does did done is
are was were be been being am has have had get got let please thanks thank hi hey hello dear
sure great good nice fine cool see maybe perhaps now today tomorrow yesterday tonight once
while because since until though although however therefore thus otherwise instead
meanwhile anyway well oh sorry
mr mrs ms dr prof st jr sr
add added adds adding fix fixed fixes update updated updates remove removed use used using run
running ran make made move moved merge merged refactor refactored implement implemented bump
revert reverted check checked try tried look looks seems note todo fixme xxx fyi lgtm nit wip
set ask tell read install open call send ping show keep put start stop wait write create delete
running fixing updating removing deploying testing checking looking trying working moving
merging building reviewing waiting investigating debugging going getting having
select insert where join grant revoke begin commit rollback values limit exists load
tbd btw imo imho asap eta
error warning warn info debug trace fatal panic fail failed failure pass passed success
true false none null nil utc gmt am pm
monday tuesday wednesday thursday friday saturday sunday
january february march april june july august september october november december
`)

// subjectVerbs follow a person's name far more often than a capitalized sentence opener.
var subjectVerbs = set(`
said says asked asks wants wanted thinks thought wrote writes suggested suggests approved
approves reviewed reviews merged merges pushed pushes fixed fixes mentioned mentions agreed
agrees replied replies noted notes prefers preferred likes liked decided decides owns owned
leads led joined left reported reports confirmed confirms shipped ships explained proposed
moved deployed opened filed created added removed built
`)

// connectors may join the capitalized words of one name: "Bank of America", "Ludwig van
// Beethoven".
var connectors = set(`of de da di du del della der den van von la le`)

// abbreviations end with a period that does not end the sentence.
var abbreviations = set(`e.g i.e etc vs cf mr mrs ms dr prof st jr sr approx incl esp al fig no`)

// extensions mark "name.ext" as a file name.
var extensions = set(`
go mod sum py pyi ipynb js mjs cjs ts tsx jsx json jsonl yaml yml toml ini cfg conf md mdx rst
txt csv tsv sql sh bash zsh fish ps1 bat rs c h cc cpp hpp cs java kt kts swift rb php pl lua
scala ex exs erl hs ml html htm css scss less xml svg png jpg jpeg gif webp pdf zip tar gz tgz
bz2 xz lock env proto graphql tf hcl dockerfile wasm so dll exe jar db sqlite parquet patch diff
`)

// topLevelDomains mark "name.tld" as a web address.
var topLevelDomains = set(`com org net io dev ai app co edu gov info me us uk de eu cloud tech xyz`)

// commonDirs mark "dir/name" as a path even without a file extension.
var commonDirs = set(`
src cmd internal pkg lib docs doc test tests api app apps bin etc usr var home tmp opt scripts
config configs migrations vendor node_modules build dist public static assets web examples
tools testdata deploy infra charts sql
`)
