package checkout

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The speaker prior (Policy.SpeakerBoost): a question in the first person ("what did I buy",
// "my aquarium") is mostly answered by what its asker said, so in such a question the asker's
// own conversation turns (messages with data.role "user") score higher. A question about what
// the assistant said ("did you suggest", "our previous conversation") or in neither person
// changes nothing: such questions' evidence is often the user turn that prompted the answer.
//
// The named-speaker prior (Policy.NamedSpeakerBoost): an item said by someone the question
// names ("What did Caroline research?") scores higher. Many people's turns mention a topic; a
// question about one person is mostly answered by what that person said. But a question can
// name the wrong person ("what did Caroline do after the road trip" when Melanie took it), and
// then the turn that sets it right is another speaker's: the prior must rank it below the named
// speaker's, not out of sight.

var (
	// askedAboutAssistant matches a question about the assistant's earlier words.
	askedAboutAssistant = regexp.MustCompile(`(?i)\byou\s+(said|mentioned|suggested|recommended|told|gave|provided|listed|wrote|explained|shared|described|proposed|came up with)\b|\bdid you\s+(say|mention|suggest|recommend|tell|give|provide|list|write|explain|share|describe|propose)\b|\bremind me (of )?(what|which|the) .*\byou\b|\bour (previous|earlier|last) (conversation|chat|discussion)\b`)
	// askedAboutSelf matches a first-person question.
	askedAboutSelf = regexp.MustCompile(`(?i)\b(i|i'm|i've|i'd|i'll|me|my|mine|myself)\b`)
)

// speakerOf returns the role whose turns a query's ranking favours: "user" for a
// first-person question that is not about the assistant's words, else "".
func speakerOf(query string) string {
	switch {
	case askedAboutAssistant.MatchString(query):
		return ""
	case askedAboutSelf.MatchString(query):
		return "user"
	}
	return ""
}

// nameWords lowercases s into its words (letters and digits).
func nameWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// roleNames are speakers that are roles, not names.
var roleNames = map[string]bool{"user": true, "assistant": true, "system": true, "tool": true}

// speakerNamer answers whether a query names a speaker: all of the speaker's words, in order,
// as whole words of the query. It is safe for concurrent use.
type speakerNamer struct {
	query []string
	mu    sync.Mutex
	memo  map[string]bool
}

func newSpeakerNamer(query string) *speakerNamer {
	return &speakerNamer{query: nameWords(query), memo: map[string]bool{}}
}

func (n *speakerNamer) names(speaker string) bool {
	if speaker == "" {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if v, ok := n.memo[speaker]; ok {
		return v
	}
	w := nameWords(speaker)
	v := len(w) > 0 && !(len(w) == 1 && roleNames[w[0]])
	if v {
		v = false
		for i := 0; i+len(w) <= len(n.query); i++ {
			if slices.Equal(n.query[i:i+len(w)], w) {
				v = true
				break
			}
		}
	}
	n.memo[speaker] = v
	return v
}

// nameCandidates are the lower-cased sequences of one to maxWords words of a query that
// could be a speaker's name (speaker_names keys are lower-cased actors and data.name values):
// words split at spaces, stripped of surrounding punctuation and a possessive 's. Role names
// are left out (the first-person rule's).
func nameCandidates(query string, maxWords int) []string {
	var words []string
	for _, f := range strings.Fields(query) {
		w := strings.ToLower(strings.Trim(f, ",.;:!?\"()[]{}"))
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if w != "" {
			words = append(words, w)
		}
	}
	seen := map[string]bool{}
	var out []string
	for n := 1; n <= maxWords; n++ {
		for i := 0; i+n <= len(words); i++ {
			c := strings.Join(words[i:i+n], " ")
			if !seen[c] && !roleNames[c] && !stopword[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// withoutNames removes each of names (lower-cased speaker names) from query wherever it stands
// as whole words, a possessive 's with it, case-insensitively.
func withoutNames(query string, names []string) string {
	for _, n := range names {
		re := regexp.MustCompile(`(?i)(^|[^\pL\pN])` + regexp.QuoteMeta(n) + `(['’]s)?($|[^\pL\pN])`)
		for {
			q := re.ReplaceAllString(query, "${1} ${3}")
			if q == query {
				break
			}
			query = q
		}
	}
	return strings.Join(strings.Fields(query), " ")
}
