package projection

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The value guard of the encoding gate's paraphrase test (gate_paraphrase.go): two texts may be
// paraphrases only when they state the same values. A text's values are what a paraphrase must
// keep word for word and an embedding weighs lightly: numbers (digits or number words),
// dates and times (weekdays, months, seasons, "yesterday", "last", "ago", units of time),
// units and currencies, names (capitalized words), identifiers (a word with a digit, a dot, a
// slash, an underscore...), quantifiers and frequencies ("all", "some", "always"), the
// direction or polarity of a change or an attitude ("up"/"down", "enable"/"disable",
// "like"/"hate", "pass"/"fail"), how many negations it holds and the first content word after
// each. The guard is deliberately
// strict: a paraphrase that spells a value another way ("3" and "three" aside) stays novel.
// Like the rest of the gate it reads words, so punctuation and spacing never count; nor does
// case, but in telling a name: a name one text holds must be a word of the other.

// GateSameValues reports whether two texts state the same values by the encoding gate's value
// guard: the gate never finds one redundant of the other otherwise.
func GateSameValues(a, b string) bool { return valueSignature(a).equal(valueSignature(b)) }

// gateValues is the value signature of a text.
type gateValues struct {
	// set holds the values other than names (numbers, times, units, quantifiers, polarity
	// classes, negated words), sorted and distinct.
	set []string
	// nameSet holds the names (capitalized words and identifiers, lower-cased), sorted and
	// distinct; the other text must hold each of them, capitalized or not ("Priya" repeated as
	// "priya" is the same name).
	nameSet []string
	// names are the names that do not start a sentence, in order: "from Android to iPhone" and
	// "from iPhone to Android" differ.
	names []string
	// words holds every word of the text, lower-cased, with and without its possessive.
	words map[string]struct{}
	// negations counts the negating words (negation).
	negations int
}

// equal reports whether two signatures state the same values: the same negation count, the
// same set, and the names both texts hold mid-sentence in the same order.
func (v gateValues) equal(o gateValues) bool {
	if v.negations != o.negations || !slices.Equal(v.set, o.set) || !v.holds(o.nameSet) || !o.holds(v.nameSet) {
		return false
	}
	return slices.Equal(namesIn(v.names, o.names), namesIn(o.names, v.names))
}

// holds reports whether the text has every one of words.
func (v gateValues) holds(words []string) bool {
	for _, w := range words {
		if _, ok := v.words[w]; !ok {
			return false
		}
	}
	return true
}

// namesIn returns the names of a that b holds too, in a's order.
func namesIn(a, b []string) []string {
	var out []string
	for _, n := range a {
		if slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

// valueSignature computes the value signature of text.
func valueSignature(text string) gateValues {
	v := gateValues{words: map[string]struct{}{}}
	add := func(s string) { v.set = append(v.set, s) }
	name := func(s string, initial bool) {
		v.nameSet = append(v.nameSet, s)
		if !initial {
			v.names = append(v.names, s)
		}
	}
	sentenceStart, negated := true, false
	for _, raw := range strings.Fields(text) {
		// A sentence ends at . ! ? : ; or a line break (Fields drops those) after this token.
		initial := sentenceStart
		sentenceStart = strings.ContainsAny(raw[len(raw)-1:], ".!?:;")
		// The token's words as the gate reads them, so punctuation never counts: "9:30" is 9
		// and 30, "config/prod.yaml" config, prod and yaml.
		ws := gateWords(raw)
		if len(ws) == 0 {
			continue
		}
		ident := isIdentifier(raw) || isCamelCase(raw)
		capital := unicode.IsUpper([]rune(strings.TrimLeftFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) + " ")[0])
		for k, w := range ws {
			v.words[w] = struct{}{}
			base := possessive(w)
			v.words[base] = struct{}{}
			switch {
			case negation(w):
				v.negations++
				negated = true
			case negated:
				if _, stop := gateStopwords[w]; !stop {
					// What a negation negates: "staging, not production" is not
					// "production, not staging".
					add("!" + crudeStem(w))
					negated = false
				}
			}
			if ident {
				// A path, a dotted or snake_case identifier, camelCase: its words are names.
				name(w, initial)
			}
			if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
				add("#" + w)
				continue
			}
			if n, ok := gateNumberWords[base]; ok {
				add("#" + n)
				continue
			}
			if c, ok := gateValueWords[base]; ok {
				add(c)
				continue
			}
			if c, ok := gateValueWords[strings.TrimSuffix(base, "s")]; ok && strings.HasSuffix(base, "s") {
				add(c)
				continue
			}
			if k == 0 && capital && !ident && base != "i" {
				if _, ok := gateStarters[base]; !ok || !initial {
					name(base, initial)
				}
			}
		}
	}
	slices.Sort(v.set)
	v.set = slices.Compact(v.set)
	slices.Sort(v.nameSet)
	v.nameSet = slices.Compact(v.nameSet)
	return v
}

// isIdentifier reports whether a whitespace-separated token is a path, a dotted, snake_case or
// kebab-case name, an address or an option ("./projection", "config.yaml", "ZAXY_GATE",
// "--space"): punctuation at its ends that prose puts there (a full stop, a comma, quotes,
// brackets) does not count.
func isIdentifier(raw string) bool {
	core := strings.TrimRight(raw, ".,;:!?)]}\"'’”")
	core = strings.TrimLeft(core, "([{\"'‘“")
	return strings.ContainsAny(core, "./\\_@#=~+") || strings.HasPrefix(core, "-") || strings.Contains(core, "-") && strings.IndexFunc(core, unicode.IsDigit) >= 0
}

// isCamelCase reports whether a token has a capital after its first letter and a lower-case
// letter ("iPhone", "CollectRows"; not "HTTP").
func isCamelCase(raw string) bool {
	rs := []rune(strings.TrimFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
	return len(rs) > 1 && slices.IndexFunc(rs[1:], unicode.IsUpper) >= 0 && slices.IndexFunc(rs, unicode.IsLower) >= 0
}

// possessive returns a word without its possessive or contraction: "anna's" is anna.
func possessive(w string) string {
	base, _, _ := strings.Cut(w, "'")
	return base
}

// gateNumberWords maps number words to their digits (ordinals and multipliers to themselves).
var gateNumberWords = func() map[string]string {
	m := map[string]string{}
	for i, w := range strings.Fields("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty") {
		m[w] = strconv.Itoa(i)
	}
	for i, w := range strings.Fields("thirty forty fifty sixty seventy eighty ninety") {
		m[w] = strconv.Itoa(30 + 10*i)
	}
	for _, w := range strings.Fields("hundred thousand million billion trillion dozen dozens half twice once thrice single double triple couple pair first second third fourth fifth sixth seventh eighth ninth tenth") {
		m[w] = w
	}
	return m
}()

// gateValueWords maps the words of dates and times, units, quantifiers, frequencies and
// polarities to their value: itself, or the class its synonyms share ("+dir" for up, increase,
// rise...), so "went up" and "increased" agree and "went down" does not. A word ending in "s"
// is looked up without it as well ("weeks", "hates").
var gateValueWords = func() map[string]string {
	m := map[string]string{}
	self := func(words string) {
		for _, w := range strings.Fields(words) {
			m[w] = w
		}
	}
	class := func(c, words string) {
		for _, w := range strings.Fields(words) {
			m[w] = c
		}
	}
	// Dates and times.
	self("monday tuesday wednesday thursday friday saturday sunday weekday weekend weekends")
	self("january february march april june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec")
	self("spring summer autumn winter")
	self("today tonight tomorrow yesterday morning afternoon evening night midnight noon")
	self("second minute hour day week month year decade century")
	self("daily weekly monthly yearly annually nightly hourly")
	self("ago last next previous upcoming recent early late earlier later before after since until soon")
	self("pm")
	// Units and currencies.
	self("km kilometer kilometre mile meter metre cm mm kg gram lb lbs pound ounce oz liter litre ml gallon")
	self("dollar euro cent yen usd eur gbp percent kb mb gb tb ms mph kmh degree celsius fahrenheit calorie")
	// Quantifiers and frequencies.
	self("all some none most few many several every each both only lot little much")
	self("always usually often sometimes occasionally rarely seldom")
	// Direction and polarity of a change, an outcome, an attitude.
	class("+dir", "up increase increased increasing rise rose risen rising higher grew grow grown growing raise raised more greater")
	class("-dir", "down decrease decreased decreasing fall fell fallen falling drop dropped lower less fewer shrink shrank reduce reduced cut")
	class("+speed", "faster quicker fast quick")
	class("-speed", "slower slow")
	class("+on", "enable enabled enabling start started starting begin began begun open opened add added accept accepted buy bought include included allow allowed")
	class("-on", "disable disabled disabling stop stopped stopping end ended finish finished close closed remove removed reject rejected sell sold exclude excluded deny denied forbid delete deleted")
	class("+ok", "pass passed passing succeed succeeded success successful successfully works worked working fixed")
	class("-ok", "fail failed failing failure crash crashed crashing broke broken error")
	class("+like", "like liked liking love loved loving enjoy enjoyed enjoying adore prefer preferred fond favourite favorite")
	class("-like", "dislike disliked hate hated hating detest loathe despise")
	class("+good", "good better best great")
	class("-good", "bad worse worst terrible awful")
	return m
}()

// gateStarters are the words that start a sentence capitalized without being names: function
// words, pronouns, auxiliaries and the usual openers of a request or a reply.
var gateStarters = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`a an the this that these those it its there here my our your his her their we you he
	she they me us them i'm i've i'd i'll we're we've let let's please remember use run set make keep try
	can could would should will shall may might must do does did is are was were be been have has had
	when where what why how which who whom whose if because since as for in on at to from with by of
	into onto about over under during while so but and or nor yet then also just still even again
	actually anyway maybe perhaps well yes yeah ok okay sure hi hello hey thanks thank sorry great
	good nice cool not no never one another other such every each any both either neither`) {
		m[w] = struct{}{}
	}
	return m
}()
