package checkout

import (
	"regexp"

	"github.com/zaxy/zaxy/vocab"
)

// The taste prior (Policy.TasteBoost): a question that asks for a recommendation or for what
// its asker would like ("can you suggest a film for tonight?", "what would I enjoy reading?")
// is answered by what the asker said of their own tastes and habits, often in passing and in
// other words ("I can't stand horror films"). Such a question rarely shares a word with the
// statement, so its lanes rank the statement low; the prior lifts the asker's own turns that
// state a like, a dislike or a habit. Both rules are general English, not any set's wording:
// the question's are requests for advice, the statement's first-person verbs of liking,
// disliking and habit.

var (
	// seeksTaste matches a question asking for a recommendation or for what its asker would like.
	seeksTaste = regexp.MustCompile(`(?i)\b(recommend\w*|suggest\w*|ideas?|tips?|advice|advise)\b|\bwhat (should|could|can|shall) (i|we)\b|\bwould i (like|love|enjoy|prefer)\b|\bi(['’]d| would) (like|love|enjoy)\b|\b(help me (choose|pick|find|decide))\b`)
	// statesTaste matches a first-person statement of a like, a dislike or a habit.
	statesTaste = &phraseRule{before: 48, after: 48, cues: []string{"love", "like", "enjoy", "prefer", "adore", "hate", "detest", "loathe",
		"can", "don", "do not", "never", "favo", "go-to", "into", "fan of", "obsessed", "hooked", "allergic", "sick of", "tired of",
		"for me", "my thing", "cup of tea", "usually", "always", "tend to", "often", "rarely", "avoid", "stick to", "only"},
		re: regexp.MustCompile(`(?i)\bi(['’]m| am)?( really| absolutely| totally| truly| just)? (love|loved|like|liked|enjoy|enjoyed|prefer|adore|hate|hated|dislike|detest|loathe)\b` +
			`|\bi( really)? (can['’]?t|cannot|can not|don['’]?t|do not|never)( really)? (stand|like|enjoy|eat|drink|watch|read)\b` +
			`|\bmy (absolute |all-time )?(favou?rite|go-to)\b` +
			`|\b(i['’]m|i am|i['’]ve been|i have been|i got|i['’]ve gotten|i have gotten)( really| so| quite| a bit| kind of| totally)? (into|a (big |huge )?fan of|obsessed with|hooked on|allergic to|sick of|tired of)\b` +
			`|\bnot (a|much of a|the biggest) (big )?fan of\b|\b(isn['’]t|is not|aren['’]t|are not) (really )?(for me|my thing|my cup of tea)\b` +
			`|\bi (usually|always|never|tend to|often|rarely|avoid|stick to|only)\b`)}
)

// tastePrior favours the asker's own statements of taste for a question seeking one: their
// conversation turns that state one, and preference.stated events, which are one by type.
func tastePrior(p *Policy, q *question, it *rankedItem) float64 {
	if p.TasteBoost > 0 && q.seeksTaste && (it.boostKind == vocab.TypePreferenceStated || it.role == "user" && statesTaste.match(it.Text)) {
		return p.TasteBoost
	}
	return 1
}
