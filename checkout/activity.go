package checkout

import (
	"regexp"
)

// The activity prior (Policy.ActivityBoost): a question that gathers what its asker has done
// ("which rooms have I painted?", "how much have I spent on the car so far?") is answered by the
// asker's own accounts of doing it, each said in passing in a session about something else
// ("I repainted the shed on Sunday. Can you explain index funds?"). Such an account shares few
// words with the question, often none, and the turn's other half (a request about something
// else) pulls its vector away from the question, so the lanes rank it below the requests and
// answers that share the question's everyday words. The prior lifts the asker's turns that tell of
// something the teller did. Both rules are general English, not any set's wording: the
// question's are the first-person perfect and past ("have I", "I've", "did I") and words of
// gathering, the statement's a first-person (or subjectless) past-tense sentence that is not a
// question.

// asksActivity matches a question about what its asker has done ("which rooms have I painted?",
// "list everything I've sold") or one that adds things up ("so far", "in total").
// "I've" alone is no question about the past: "I've been sneezing lately, any idea why?".
var asksActivity = regexp.MustCompile(`(?i)\b(have|has|had|did) (i|my)\b|\b(what|which|where|everything|all|anything|how many|how much)\b[^.?!]*\bi['’]ve\b|\b(so far|in total|in all|overall|altogether|add up|total up|sum up|tally)\b`)

// activityPrior favours the asker's own accounts of something they did for a question that
// gathers what they did.
func activityPrior(p *Policy, q *question, it *rankedItem) float64 {
	if p.ActivityBoost > 0 && q.asksActivity && it.role == "user" && tellsActivity(it.Text) {
		return p.ActivityBoost
	}
	return 1
}

// tellsActivity reports whether text has a sentence that is not a question and tells of
// something its speaker did: a past-tense verb after "I" or "we" (with at most one adverb
// between: "I finally bought"), after "I've" or "we've" ("I've booked"), or first in the
// sentence, its subject left out ("Sold the old piano on Sunday.", "Just ordered a ladder.").
// It reads the text once, byte by byte, without allocating.
func tellsActivity(text string) bool {
	var sc activityScan
	for i := 0; i < len(text); i++ {
		b := text[i]
		switch {
		case b >= 'A' && b <= 'Z':
			sc.add(b + 'a' - 'A')
		case b >= 'a' && b <= 'z', b == '\'':
			sc.add(b)
		case b == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && text[i+2] == 0x99: // ’ inside a word
			sc.add(0xE2)
			sc.add(0x80)
			sc.add(0x99)
			i += 2
		case b == '.' || b == '!' || b == '?' || b == '\n':
			sc.endWord()
			if sc.found && b != '?' {
				return true
			}
			sc = activityScan{}
		default:
			sc.endWord()
		}
	}
	sc.endWord()
	return sc.found
}

// activityScan is tellsActivity's state within one sentence.
type activityScan struct {
	buf        [24]byte
	n, idx     int  // the current word's length in buf; its index in the sentence
	long       bool // the current word is longer than buf
	prev, pre2 byte // the classes of the two words before it
	found      bool // the sentence tells of something done
}

// Word classes activityScan tracks.
const (
	wordOther byte = iota
	wordFirstPerson
	wordAdverb
)

func (sc *activityScan) add(b byte) {
	if sc.n < len(sc.buf) {
		sc.buf[sc.n] = b
		sc.n++
	} else {
		sc.long = true
	}
}

func (sc *activityScan) endWord() {
	if sc.n == 0 && !sc.long {
		return
	}
	w := sc.buf[:sc.n]
	c := wordOther
	if !sc.long {
		if !sc.found && (sc.idx == 0 || sc.idx == 1 && sc.prev == wordAdverb || sc.prev == wordFirstPerson ||
			sc.prev == wordAdverb && sc.pre2 == wordFirstPerson) && pastTense(w) {
			sc.found = true
		}
		c = wordClass(w)
	}
	sc.pre2, sc.prev, sc.n, sc.long = sc.prev, c, 0, false
	sc.idx++
}

// wordClass is whether w is a subject a first-person past or perfect verb follows ("i", "we",
// "i've", "we've"), an adverb allowed between such a subject and its verb or before a
// subjectless verb ("just", "finally", ...), or neither.
func wordClass(w []byte) byte {
	switch string(w) {
	case "i", "we", "i've", "i’ve", "ive", "we've", "we’ve":
		return wordFirstPerson
	case "just", "finally", "already", "recently", "also", "actually", "then", "eventually", "once", "even", "have":
		return wordAdverb
	}
	return wordOther
}

// pastTense reports whether w is a regular past form (-ed, at least five letters: not "red",
// "bed", "need", "feed") or a common irregular one.
func pastTense(w []byte) bool {
	if len(w) >= 5 && w[len(w)-2] == 'e' && w[len(w)-1] == 'd' && !notPast[string(w)] {
		return true
	}
	return irregularPast[string(w)]
}

// notPast are words ending in -ed that are not past forms of a verb of doing.
var notPast = map[string]bool{"need": true, "speed": true, "indeed": true, "breed": true, "embed": true,
	"hundred": true, "kindred": true, "sacred": true, "naked": true, "wicked": true, "rugged": true, "ragged": true,
	"interested": true, "tired": true, "scared": true, "bored": true, "excited": true, "worried": true, "confused": true,
	"supposed": true, "used": true}

// irregularPast are common irregular past tenses and participles.
var irregularPast = map[string]bool{
	"went": true, "gone": true, "bought": true, "got": true, "gotten": true, "saw": true, "seen": true, "ran": true,
	"did": true, "done": true, "took": true, "taken": true, "made": true, "met": true, "began": true, "begun": true,
	"found": true, "gave": true, "given": true, "paid": true, "spent": true, "sold": true, "won": true, "left": true,
	"came": true, "flew": true, "flown": true, "drove": true, "driven": true, "ate": true, "eaten": true, "wrote": true,
	"written": true, "heard": true, "kept": true, "brought": true, "caught": true, "built": true, "sent": true,
	"read": true, "rode": true, "ridden": true, "swam": true, "swum": true, "sang": true, "sung": true, "grew": true,
	"grown": true, "threw": true, "thrown": true, "wore": true, "worn": true, "lost": true, "taught": true, "held": true, "lent": true, "sat": true, "stood": true, "slept": true,
	"fell": true, "fallen": true, "broke": true, "broken": true, "chose": true, "chosen": true, "drew": true,
	"drawn": true, "drank": true, "drunk": true, "fed": true, "fought": true, "forgot": true, "hid": true,
	"hung": true, "led": true, "lit": true, "shot": true, "sought": true, "spoke": true,
	"spoken": true, "stole": true, "struck": true, "swept": true, "tore": true, "torn": true, "woke": true, "moved": true,
}
