package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// lmeRecord is one LongMemEval record (docs/design.md, "Benchmark data"); the answer is not read.
type lmeRecord struct {
	QuestionID         string      `json:"question_id"`
	QuestionType       string      `json:"question_type"`
	Question           string      `json:"question"`
	QuestionDate       string      `json:"question_date"`
	HaystackSessionIDs []string    `json:"haystack_session_ids"`
	HaystackDates      []string    `json:"haystack_dates"`
	HaystackSessions   [][]lmeTurn `json:"haystack_sessions"`
	AnswerSessionIDs   []string    `json:"answer_session_ids"`
}

type lmeTurn struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	HasAnswer bool   `json:"has_answer"`
}

// LoadLongMemEval reads a LongMemEval file (a JSON array of records) into one case per
// question. Turn ids are "<session_id>_<i>" with i counting every turn of the session from
// 1; a question's evidence turns are those marked has_answer, its evidence sessions its
// answer_session_ids; ids ending in "_abs" are abstention questions. Dates such as
// "2023/05/20 (Sat) 02:21" are read as UTC. A question is asked as of the end of its
// question_date's day: within a day the dataset's times are not consistent with the
// question's (in the dev set, 9 evidence sessions of 5 temporal-reasoning questions are dated
// hours after their question, on the same day).
func LoadLongMemEval(r io.Reader) ([]Case, error) {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("load longmemeval: %w", err)
	} else if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, errors.New("load longmemeval: the file must hold a JSON array of records")
	}
	var cases []Case
	for i := 0; dec.More(); i++ {
		var rec lmeRecord
		if err := dec.Decode(&rec); err != nil {
			return nil, fmt.Errorf("load longmemeval: record %d: %w", i, err)
		}
		c, err := lmeCase(&rec)
		if err != nil {
			return nil, fmt.Errorf("load longmemeval: record %d (%s): %w", i, rec.QuestionID, err)
		}
		cases = append(cases, c)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("load longmemeval: %w", err)
	}
	return cases, nil
}

func lmeCase(rec *lmeRecord) (Case, error) {
	switch {
	case rec.QuestionID == "":
		return Case{}, errors.New("question_id is missing")
	case strings.TrimSpace(rec.Question) == "":
		return Case{}, errors.New("question is blank")
	case len(rec.HaystackSessionIDs) != len(rec.HaystackSessions) || len(rec.HaystackDates) != len(rec.HaystackSessions):
		return Case{}, fmt.Errorf("haystack_session_ids, haystack_dates and haystack_sessions differ in length (%d, %d, %d)",
			len(rec.HaystackSessionIDs), len(rec.HaystackDates), len(rec.HaystackSessions))
	}
	qDate, err := parseLMEDate(rec.QuestionDate)
	if err != nil {
		return Case{}, fmt.Errorf("question_date: %w", err)
	}
	q := Question{
		ID:               rec.QuestionID,
		Type:             rec.QuestionType,
		Text:             rec.Question,
		Date:             endOfDay(qDate),
		EvidenceSessions: dedupe(rec.AnswerSessionIDs),
		Abstain:          strings.HasSuffix(rec.QuestionID, "_abs"),
	}
	q.Unanswerable = q.Abstain
	c := Case{ID: rec.QuestionID, Dataset: DatasetLongMemEval}
	for s, sid := range rec.HaystackSessionIDs {
		date, err := parseLMEDate(rec.HaystackDates[s])
		if err != nil {
			return Case{}, fmt.Errorf("haystack_dates[%d]: %w", s, err)
		}
		for i, t := range rec.HaystackSessions[s] {
			id := sid + "_" + strconv.Itoa(i+1)
			c.Turns = append(c.Turns, Turn{SessionID: sid, TurnID: id, Role: t.Role, Text: t.Content, Date: date})
			if t.HasAnswer {
				q.EvidenceTurns = append(q.EvidenceTurns, id)
			}
		}
	}
	q.EvidenceTurns = dedupe(q.EvidenceTurns)
	c.Questions = []Question{q}
	return c, nil
}

// parseLMEDate reads "2023/05/20 (Sat) 02:21" (the weekday is optional); empty is zero.
func parseLMEDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"2006/01/02 (Mon) 15:04", "2006/01/02 15:04", "2006/01/02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognized date %q (want like 2023/05/20 (Sat) 02:21)", s)
}

// endOfDay is the last second of t's day; zero stays zero.
func endOfDay(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 23, 59, 59, 0, t.Location())
}

// dedupe returns ids without repeats and blanks, in first-seen order.
func dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
