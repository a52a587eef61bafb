package checkout

import "regexp"

// speakerBoost is the speaker prior. A question in the first person ("what did I buy", "my
// aquarium") is mostly answered by what its asker said, so in such a question the asker's own
// conversation turns (messages with data.role "user") score speakerBoost times higher. A
// question about what the assistant said ("did you suggest", "our previous conversation") or
// in neither person changes nothing: boosting the assistant's turns there lowered recall on
// LongMemEval dev, where such questions' evidence is often the user turn that prompted the
// answer. Tuned on LongMemEval dev (docs/benchmarks.md): 1.2 and 1.3 gave turn
// recall_all@10 0.810, 1.5 0.845, 1.7 and 2.0 0.828 with recall_any@10 down to 0.914.
const speakerBoost = 1.5

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
