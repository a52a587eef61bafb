package extract

import (
	"context"
	"strings"
)

// summaryPrompt asks for the plain-text summary Summarize returns.
const summaryPrompt = `You summarize one episode of an agent's memory (a conversation, a work session or one task of it) for later recall.
Answer with plain text only: at most three sentences naming who did or decided what, with dates or outcomes when the text gives them.
Only state what the text says; do not add advice, opinions or anything the text does not contain.`

// Summarize asks the model for a short plain-text summary of texts, the events of one episode
// (a session, or one task segment of a long one) in order (the latent layer's optional LLM-assisted method, latent.Summarizer). No texts give
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
	content, err := o.complete(ctx, "summarize", struct {
		Model       string        `json:"model"`
		Messages    []chatMessage `json:"messages"`
		Temperature float64       `json:"temperature"`
	}{Model: o.cfg.Model, Messages: []chatMessage{{Role: "system", Content: summaryPrompt}, {Role: "user", Content: b.String()}}})
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(content), nil
}
