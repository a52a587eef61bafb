package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// summaryPrompt asks for the plain-text summary Summarize returns.
const summaryPrompt = `You summarize one session of an agent's memory (a conversation or a work session) for later recall.
Answer with plain text only: at most three sentences naming who did or decided what, with dates or outcomes when the text gives them.
Only state what the text says; do not add advice, opinions or anything the text does not contain.`

// Summarize asks the model for a short plain-text summary of texts, the events of one session
// in order (the latent layer's optional LLM-assisted method, latent.Summarizer). No texts give
// an empty summary without a request.
func (o *OpenAIChat) Summarize(ctx context.Context, texts []string) (string, error) {
	var b strings.Builder
	for _, t := range texts {
		if t = strings.TrimSpace(t); t != "" {
			b.WriteString("- ")
			b.WriteString(strings.ReplaceAll(t, "\n", " "))
			b.WriteString("\n")
		}
	}
	if b.Len() == 0 {
		return "", nil
	}
	raw, err := o.client.PostJSON(ctx, "/chat/completions", struct {
		Model       string        `json:"model"`
		Messages    []chatMessage `json:"messages"`
		Temperature float64       `json:"temperature"`
	}{Model: o.cfg.Model, Messages: []chatMessage{{Role: "system", Content: summaryPrompt}, {Role: "user", Content: b.String()}}})
	if err != nil {
		return "", fmt.Errorf("llm summarize: %w", err)
	}
	var resp struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return "", fmt.Errorf("%w: response is not JSON: %v", ErrBadResponse, err)
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("%w: no choices", ErrBadResponse)
	}
	return strings.TrimSpace(stripFence(resp.Choices[0].Message.Content)), nil
}
