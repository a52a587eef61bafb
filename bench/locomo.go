package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// locomoSample is one LoCoMo conversation (docs/design.md, "Benchmark data"); answers are not read.
type locomoSample struct {
	SampleID     json.RawMessage            `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []locomoQA                 `json:"qa"`
}

type locomoQA struct {
	Question string `json:"question"`
	// Evidence is usually a list of dia_ids; a single string, numbers or nulls are tolerated.
	Evidence json.RawMessage `json:"evidence"`
	// Category is 1..5, as a number or a string.
	Category json.RawMessage `json:"category"`
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

var (
	sessionKey = regexp.MustCompile(`^session_(\d+)$`)
	// diaRef finds dia_ids in evidence strings, tolerating the malformed ones found in the
	// wild: "D8:6; D9:17" (two in one string), "D:11:26" (a stray colon), "D30:05".
	diaRef = regexp.MustCompile(`(?i)D\s*:?\s*(\d+)\s*:\s*(\d+)`)
)

// LoadLoCoMo reads a LoCoMo file (a JSON array of conversations) into one case per
// conversation. Sessions are named S<n> after session_<n>, turn ids are dia_ids, dates come
// from session_<n>_date_time ("1:56 pm on 8 May, 2023", read as UTC), an image's
// blip_caption is appended to the turn's text, speaker_a speaks as user and speaker_b as
// assistant. Question ids are "<sample_id>#<qa_index>" (from 0), types "category-<n>".
// Evidence is parsed leniently ("D8:6; D9:17" is two turns, "D:11:26" is D11:26); a
// category 5 (adversarial) question without evidence is an abstention question.
func LoadLoCoMo(r io.Reader) ([]Case, error) {
	var samples []locomoSample
	if err := json.NewDecoder(r).Decode(&samples); err != nil {
		return nil, fmt.Errorf("load locomo: %w", err)
	}
	cases := make([]Case, 0, len(samples))
	for i := range samples {
		c, err := locomoCase(&samples[i])
		if err != nil {
			return nil, fmt.Errorf("load locomo: conversation %d: %w", i, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

func locomoCase(s *locomoSample) (Case, error) {
	id := scalarString(s.SampleID)
	if id == "" {
		return Case{}, errors.New("sample_id is missing")
	}
	var speakerA, speakerB string
	_ = json.Unmarshal(s.Conversation["speaker_a"], &speakerA)
	_ = json.Unmarshal(s.Conversation["speaker_b"], &speakerB)
	var sessions []int
	for k := range s.Conversation {
		if m := sessionKey.FindStringSubmatch(k); m != nil {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				return Case{}, fmt.Errorf("%s: %s: %w", id, k, err)
			}
			sessions = append(sessions, n)
		}
	}
	sort.Ints(sessions)
	c := Case{ID: id, Dataset: DatasetLoCoMo}
	for _, n := range sessions {
		key := "session_" + strconv.Itoa(n)
		var turns []locomoTurn
		if err := json.Unmarshal(s.Conversation[key], &turns); err != nil {
			return Case{}, fmt.Errorf("%s: %s: %w", id, key, err)
		}
		var dateText string
		_ = json.Unmarshal(s.Conversation[key+"_date_time"], &dateText)
		date, err := parseLoCoMoDate(dateText)
		if err != nil {
			return Case{}, fmt.Errorf("%s: %s_date_time: %w", id, key, err)
		}
		sid := "S" + strconv.Itoa(n)
		for i, t := range turns {
			turnID := normalizeDiaID(t.DiaID)
			if turnID == "" {
				turnID = fmt.Sprintf("D%d:%d", n, i+1)
			}
			role := "user"
			if t.Speaker != "" && t.Speaker == speakerB && speakerA != speakerB {
				role = "assistant"
			}
			text := t.Text
			if caption := strings.TrimSpace(t.BlipCaption); caption != "" {
				text = strings.TrimSpace(text + " [image: " + caption + "]")
			}
			c.Turns = append(c.Turns, Turn{SessionID: sid, TurnID: turnID, Role: role, Speaker: t.Speaker, Text: text, Date: date})
		}
	}
	for i, qa := range s.QA {
		if strings.TrimSpace(qa.Question) == "" {
			return Case{}, fmt.Errorf("%s: qa %d: question is blank", id, i)
		}
		cat := scalarString(qa.Category)
		q := Question{ID: id + "#" + strconv.Itoa(i), Type: "category-" + cat, Text: qa.Question}
		q.EvidenceTurns = parseEvidence(qa.Evidence)
		for _, t := range q.EvidenceTurns {
			q.EvidenceSessions = append(q.EvidenceSessions, "S"+t[1:strings.IndexByte(t, ':')])
		}
		q.EvidenceSessions = dedupe(q.EvidenceSessions)
		q.Abstain = cat == "5" && len(q.EvidenceTurns) == 0
		q.Unanswerable = cat == "5"
		c.Questions = append(c.Questions, q)
	}
	return c, nil
}

// parseEvidence collects every dia_id found in an evidence value (a list of strings, or a
// string), normalized to D<session>:<turn>, without repeats.
func parseEvidence(raw json.RawMessage) []string {
	var texts []string
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err == nil {
		for _, v := range list {
			texts = append(texts, scalarString(v))
		}
	} else {
		texts = append(texts, scalarString(raw))
	}
	var ids []string
	for _, t := range texts {
		for _, m := range diaRef.FindAllStringSubmatch(t, -1) {
			ids = append(ids, diaID(m[1], m[2]))
		}
	}
	return dedupe(ids)
}

// normalizeDiaID writes a well-formed dia_id as D<session>:<turn> without leading zeros;
// anything else is kept as it is.
func normalizeDiaID(s string) string {
	s = strings.TrimSpace(s)
	if m := diaRef.FindStringSubmatch(s); m != nil && m[0] == s {
		return diaID(m[1], m[2])
	}
	return s
}

func diaID(session, turn string) string {
	a, _ := strconv.Atoi(session)
	b, _ := strconv.Atoi(turn)
	return fmt.Sprintf("D%d:%d", a, b)
}

// scalarString renders a JSON string or number as text; anything else is "".
func scalarString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s)
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String()
	}
	return ""
}

// parseLoCoMoDate reads "1:56 pm on 8 May, 2023" (and close variants); empty is zero.
func parseLoCoMoDate(s string) (time.Time, error) {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006", "3:04 pm on 2 January 2006", "3:04 pm on 2 Jan 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognized date %q (want like 1:56 pm on 8 May, 2023)", s)
}
