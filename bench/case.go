package bench

import "time"

// Dataset names, as carried by Case.Dataset.
const (
	DatasetLongMemEval = "longmemeval"
	DatasetLoCoMo      = "locomo"
)

// Turn is one haystack turn, appended as one message event.
type Turn struct {
	// SessionID is the benchmark's session: a LongMemEval haystack session id, or S<n> for
	// LoCoMo's session_<n>.
	SessionID string
	// TurnID is the benchmark's turn id: "<session_id>_<i>" for LongMemEval (i counts every
	// turn of the session from 1), the dia_id (e.g. "D3:12") for LoCoMo.
	TurnID string
	// Role is user or assistant.
	Role string
	// Speaker is the speaker's name; empty when the benchmark has none (LongMemEval).
	Speaker string
	// Text is what was said (LoCoMo: with the shared image's caption appended).
	Text string
	// Date is when the turn's session took place; zero when unknown.
	Date time.Time
}

// Question is one benchmark question with its labelled evidence.
type Question struct {
	// ID is the benchmark's question id; LoCoMo's is "<sample_id>#<qa_index>" (from 0).
	ID string
	// Type is the question type (LongMemEval) or "category-<n>" (LoCoMo).
	Type string
	// Text is the question.
	Text string
	// Date is when the question is asked (LongMemEval: the end of its question_date's day,
	// see LoadLongMemEval); zero when the benchmark gives none (then Run asks as of now).
	Date time.Time
	// EvidenceSessions and EvidenceTurns are the ids of the sessions and turns that hold
	// the answer.
	EvidenceSessions []string
	EvidenceTurns    []string
	// Abstain marks a question whose right answer is that memory does not know (LongMemEval
	// "_abs", LoCoMo category 5 without evidence); it is left out of recall.
	Abstain bool
	// Unanswerable marks a question memory cannot answer as asked (LongMemEval "_abs",
	// LoCoMo category 5, adversarial, with or without evidence): a negative for the feeling
	// of knowing's calibration whatever the packet holds.
	Unanswerable bool
}

// Case is one unit of ingestion: a haystack and the questions asked of it. LongMemEval has
// one case per question, LoCoMo one per conversation.
type Case struct {
	// ID identifies the case in the benchmark (question id or sample_id).
	ID string
	// Dataset is DatasetLongMemEval or DatasetLoCoMo; it decides the benchmark id fields of
	// the appended events' data.
	Dataset   string
	Turns     []Turn
	Questions []Question
}
