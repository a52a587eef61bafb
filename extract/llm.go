package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/zaxy/zaxy/internal/openaihttp"
)

// Triple is one statement a model proposes. Everything an LLM produces is labelled inferred
// by its callers and is never authoritative.
type Triple struct {
	Subject    string  `json:"subject"`
	Predicate  string  `json:"predicate"`
	Object     string  `json:"object"`
	Confidence float64 `json:"confidence"`
}

// LLMExtractor proposes triples for a text.
type LLMExtractor interface {
	Extract(ctx context.Context, text string) ([]Triple, error)
}

// ErrBadResponse means the model's answer was not the JSON asked for.
var ErrBadResponse = errors.New("bad extraction response")

// OpenAIChatConfig configures an extractor speaking the OpenAI-compatible chat API.
type OpenAIChatConfig struct {
	// BaseURL is the API root; requests go to POST {BaseURL}/chat/completions. Required.
	BaseURL string
	// APIKey, when set, is sent as a bearer token.
	APIKey string
	// Model is sent as "model". Required.
	Model string
	// Timeout bounds each request. Default 60s.
	Timeout time.Duration
	// MaxRetries is how many times 429, 5xx and transport errors are retried. Default 3;
	// negative means no retries.
	MaxRetries int
	// MaxTriples caps the triples kept per text. Default 20.
	MaxTriples int
	// HTTPClient sends the requests. Optional.
	HTTPClient *http.Client
}

// WithDefaults returns c with zero fields set to their defaults.
func (c OpenAIChatConfig) WithDefaults() OpenAIChatConfig {
	if c.Timeout == 0 {
		c.Timeout = 60 * time.Second
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = 3
	}
	if c.MaxTriples == 0 {
		c.MaxTriples = 20
	}
	return c
}

func (c OpenAIChatConfig) validate() error {
	switch {
	case c.BaseURL == "" || !(strings.HasPrefix(c.BaseURL, "http://") || strings.HasPrefix(c.BaseURL, "https://")):
		return fmt.Errorf("llm extractor config: BaseURL must be an http(s) URL, got %q", c.BaseURL)
	case c.Model == "":
		return errors.New("llm extractor config: Model is required")
	case c.Timeout < 0 || c.MaxTriples < 0:
		return errors.New("llm extractor config: Timeout and MaxTriples must not be negative")
	}
	return nil
}

// OpenAIChat is an LLMExtractor over the chat completions API.
type OpenAIChat struct {
	cfg    OpenAIChatConfig
	client *openaihttp.Client
}

// NewOpenAIChat returns an extractor for cfg.
func NewOpenAIChat(cfg OpenAIChatConfig) (*OpenAIChat, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &OpenAIChat{cfg: cfg, client: &openaihttp.Client{
		BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Timeout: cfg.Timeout, MaxRetries: max(cfg.MaxRetries, 0), HTTPClient: cfg.HTTPClient,
	}}, nil
}

// systemPrompt asks for the JSON shape Extract parses.
const systemPrompt = `You extract facts from text for a memory system. Answer with JSON only, in the form
{"triples":[{"subject":"...","predicate":"...","object":"...","confidence":0.0}]}.
Use short noun phrases for subject and object and a short verb phrase for predicate. Only state what the text says. confidence is between 0 and 1.`

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string            `json:"model"`
	Messages       []chatMessage     `json:"messages"`
	Temperature    float64           `json:"temperature"`
	ResponseFormat map[string]string `json:"response_format"`
}

// Extract asks the model for the triples in text. A blank text gives no triples without a
// request.
func (o *OpenAIChat) Extract(ctx context.Context, text string) ([]Triple, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	content, err := o.complete(ctx, "extract", chatRequest{
		Model:          o.cfg.Model,
		Messages:       []chatMessage{{Role: "system", Content: systemPrompt}, {Role: "user", Content: text}},
		Temperature:    0,
		ResponseFormat: map[string]string{"type": "json_object"},
	})
	if err != nil {
		return nil, err
	}
	var answer struct {
		Triples []struct {
			Subject    string   `json:"subject"`
			Predicate  string   `json:"predicate"`
			Object     string   `json:"object"`
			Confidence *float64 `json:"confidence"`
		} `json:"triples"`
	}
	if err := json.Unmarshal([]byte(content), &answer); err != nil {
		return nil, fmt.Errorf("%w: the model's content is not the requested JSON: %v", ErrBadResponse, err)
	}
	out := make([]Triple, 0, len(answer.Triples))
	for _, t := range answer.Triples {
		s, p, obj := strings.TrimSpace(t.Subject), strings.TrimSpace(t.Predicate), strings.TrimSpace(t.Object)
		if s == "" || p == "" || obj == "" {
			continue
		}
		c := 0.5
		if t.Confidence != nil {
			c = min(max(*t.Confidence, 0), 1)
		}
		out = append(out, Triple{Subject: s, Predicate: p, Object: obj, Confidence: c})
		if len(out) == o.cfg.MaxTriples {
			break
		}
	}
	return out, nil
}

// complete posts a chat request and returns its first choice's content without a code fence;
// what names the call in errors.
func (o *OpenAIChat) complete(ctx context.Context, what string, req any) (string, error) {
	raw, err := o.client.PostJSON(ctx, "/chat/completions", req)
	if err != nil {
		return "", fmt.Errorf("llm %s: %w", what, err)
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
	return stripFence(resp.Choices[0].Message.Content), nil
}

// stripFence removes a Markdown code fence around the content: "```json", "```JSON" or a
// bare "```" line before it and "```" after it.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = s[3:]
	if nl := strings.IndexByte(s, '\n'); nl >= 0 {
		s = s[nl+1:] // drop the info string ("json")
	} else {
		s = strings.TrimLeft(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}
