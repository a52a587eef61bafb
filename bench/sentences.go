package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Sentences returns up to n distinct sentences of at least 20 characters from a LongMemEval
// file's haystack turns, in file order: real conversational text to load memories and ask
// questions with in the latency and recall benchmarks.
func Sentences(r io.Reader, n int) ([]string, error) {
	var questions []struct {
		Sessions [][]struct {
			Content string `json:"content"`
		} `json:"haystack_sessions"`
	}
	if err := json.NewDecoder(r).Decode(&questions); err != nil {
		return nil, fmt.Errorf("read LongMemEval file: %w", err)
	}
	seen := map[string]bool{}
	var out []string
	for _, q := range questions {
		for _, sess := range q.Sessions {
			for _, turn := range sess {
				for _, line := range strings.Split(turn.Content, "\n") {
					for _, s := range strings.SplitAfter(line, ". ") {
						s = strings.TrimSpace(s)
						if len(s) < 20 || seen[s] {
							continue
						}
						seen[s] = true
						out = append(out, s)
						if len(out) == n {
							return out, nil
						}
					}
				}
			}
		}
	}
	return out, nil
}
