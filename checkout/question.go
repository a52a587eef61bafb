package checkout

import (
	"strings"
	"time"
	"unicode"
)

// question is a checkout's question analysed once: what the lanes, the item fetch and the
// rescorers read of Request.Query, its cues and its purpose.
type question struct {
	// text is the query as asked.
	text string
	// words are its content words (contentWords): the verbatim lane matches them, excerpts
	// are placed by them.
	words []string
	// keys are its candidate entity keys, each followed by the word it began at (queryKeys):
	// the exact lane's.
	keys []string
	// names are the word sequences that could be a speaker's name (nameCandidates): the vector
	// lane embeds the question without those that are.
	names []string
	// asked is the role whose turns a first-person question asks about (speakerOf), or "".
	asked string
	// named answers whether the question names a speaker (newSpeakerNamer).
	named *speakerNamer
	// seeksTaste: the question asks for a recommendation or what its asker would like
	// (taste.go).
	seeksTaste bool
	// asksResolution: the question asks how something was fixed or decided (resolution.go).
	asksResolution bool
	// asksActivity: the question gathers what its asker has done (activity.go).
	asksActivity bool
	// purpose is the request's purpose, or the one inferred from its cues and words
	// (inferPurpose), and purposeInferred says which.
	purpose         string
	purposeInferred bool

	// when holds the time windows the question names once parsed (parseTimeWindows, read
	// concurrently with the lanes: windows waits for it).
	when     timeWindows
	whenDone chan struct{}
}

// newQuestion analyses r's question, asked at asOf, with the word counts and spans of
// mechanism m. The time windows are parsed on a goroutine of their own, so that they are ready
// by the time the rescorers read them.
func newQuestion(r *Request, asOf time.Time, m *Mechanism) *question {
	q := &question{
		text:           r.Query,
		words:          contentWords(r.Query, m.MinWordBytes),
		keys:           queryKeys(r.Query, m.EntityKeyWords),
		names:          nameCandidates(r.Query, m.NameWords),
		asked:          speakerOf(r.Query),
		seeksTaste:     seeksTaste.MatchString(r.Query),
		asksResolution: asksResolution.MatchString(r.Query),
		asksActivity:   asksActivity.MatchString(r.Query),
		named:          newSpeakerNamer(r.Query),
		purpose:        r.Purpose,
		whenDone:       make(chan struct{}),
	}
	if q.purpose == "" {
		q.purpose, q.purposeInferred = inferPurpose(r.Query, r.Cues), true
	}
	go func() {
		defer close(q.whenDone)
		q.when = parseTimeWindows(m, r.Query, asOf)
	}()
	return q
}

// windows returns the time windows the question names, once parsed.
func (q *question) windows() timeWindows {
	<-q.whenDone
	return q.when
}

// contentWords are the lowercased query words of minBytes or more bytes that are not
// stopwords.
func contentWords(query string, minBytes int) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) >= minBytes && !stopword[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
