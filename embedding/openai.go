package embedding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/zaxy/zaxy/internal/openaihttp"
)

// OpenAIConfig configures an embeddings client for any server speaking the OpenAI
// embeddings API (OpenAI, Ollama, vLLM, Hugging Face TEI, ...). Zero fields take the
// defaults stated below (see WithDefaults).
type OpenAIConfig struct {
	// BaseURL is the API root; requests go to POST {BaseURL}/embeddings. Required.
	// Examples: https://api.openai.com/v1, http://localhost:11434/v1 (Ollama),
	// http://localhost:8000/v1 (vLLM), http://localhost:8080/v1 (TEI).
	BaseURL string
	// APIKey, when set, is sent as "Authorization: Bearer <APIKey>". Optional.
	APIKey string
	// Model is sent as the request's "model". Required.
	Model string
	// Version is recorded with the model: Model() is Model+"@"+Version. Change it whenever
	// the server's model changes behind the same name. Default "1".
	Version string
	// Dimensions is the expected vector length; a response of any other length is an
	// error (ErrDimensionMismatch). Required.
	Dimensions int
	// BatchSize is the most texts sent in one request. Default 64.
	BatchSize int
	// Timeout bounds each HTTP request (each attempt). Default 30s.
	Timeout time.Duration
	// MaxRetries is how many times a request is retried after a 429 (honouring
	// Retry-After), a 5xx or a transport error, with exponential backoff and jitter; other
	// 4xx responses are never retried. Default 4; negative means no retries.
	MaxRetries int
	// HTTPClient sends the requests. Default: a client with no overall timeout (Timeout
	// applies per request).
	HTTPClient *http.Client
}

// Defaults of OpenAIConfig.
const (
	defaultOpenAIVersion    = "1"
	defaultOpenAIBatchSize  = 64
	defaultOpenAITimeout    = 30 * time.Second
	defaultOpenAIMaxRetries = 4

	// maxResponseBytes bounds a response body; a longer one is a bad response.
	maxResponseBytes = 256 << 20
)

// WithDefaults returns c with every zero field set to its default.
func (c OpenAIConfig) WithDefaults() OpenAIConfig {
	if c.Version == "" {
		c.Version = defaultOpenAIVersion
	}
	if c.BatchSize == 0 {
		c.BatchSize = defaultOpenAIBatchSize
	}
	if c.Timeout == 0 {
		c.Timeout = defaultOpenAITimeout
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = defaultOpenAIMaxRetries
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = -1
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{}
	}
	return c
}

// validate reports the first unusable field of a config that has had WithDefaults applied.
func (c OpenAIConfig) validate() error {
	u, err := url.Parse(c.BaseURL)
	switch {
	case c.BaseURL == "":
		return errors.New("OpenAIConfig.BaseURL is required")
	case err != nil:
		return fmt.Errorf("OpenAIConfig.BaseURL %q: %w", c.BaseURL, err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("OpenAIConfig.BaseURL %q: want an absolute http or https URL", c.BaseURL)
	case strings.TrimSpace(c.Model) == "":
		return errors.New("OpenAIConfig.Model is required")
	case strings.ContainsAny(c.Version, "@ \t\n"):
		return fmt.Errorf("OpenAIConfig.Version %q: must not contain '@' or spaces", c.Version)
	case c.Dimensions <= 0:
		return fmt.Errorf("OpenAIConfig.Dimensions %d: must be positive (the model's vector length)", c.Dimensions)
	case c.BatchSize < 0:
		return fmt.Errorf("OpenAIConfig.BatchSize %d: must be positive", c.BatchSize)
	case c.Timeout < 0:
		return fmt.Errorf("OpenAIConfig.Timeout %v: must be positive", c.Timeout)
	}
	return nil
}

// OpenAI embeds texts through an OpenAI-compatible embeddings endpoint. It is safe for
// concurrent use.
type OpenAI struct {
	cfg    OpenAIConfig
	client *openaihttp.Client // posts with the timeouts and retries of cfg
	// sleep waits d or until ctx is done before a retry; tests replace it to observe backoff.
	sleep func(ctx context.Context, d time.Duration) error
}

var _ Embedder = (*OpenAI)(nil)

// NewOpenAI returns a client for cfg (defaults applied), or an error naming the bad field.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("configure openai embedder: %w", err)
	}
	o := &OpenAI{cfg: cfg, sleep: openaihttp.Sleep}
	o.client = &openaihttp.Client{
		BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Timeout: cfg.Timeout, MaxRetries: cfg.MaxRetries,
		MaxResponseBytes: maxResponseBytes, HTTPClient: cfg.HTTPClient,
		Sleep: func(ctx context.Context, d time.Duration) error { return o.sleep(ctx, d) },
	}
	return o, nil
}

// Model returns "Model@Version", e.g. "nomic-embed-text@1".
func (o *OpenAI) Model() string { return o.cfg.Model + "@" + o.cfg.Version }

// Dimensions returns the configured vector length.
func (o *OpenAI) Dimensions() int { return o.cfg.Dimensions }

// Embed sends texts in batches of BatchSize, one batch after another, and returns one
// vector per text in order. Any failed batch fails the whole call.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += o.cfg.BatchSize {
		hi := min(lo+o.cfg.BatchSize, len(texts))
		vs, err := o.embedBatch(ctx, texts[lo:hi])
		if err != nil {
			return nil, fmt.Errorf("embed texts %d..%d of %d with %s: %w", lo, hi-1, len(texts), o.Model(), err)
		}
		out = append(out, vs...)
	}
	return out, nil
}

type embeddingsRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

type embeddingsResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
	Model string `json:"model"`
}

// embedBatch posts one batch (openaihttp retries what may succeed on a second try) and checks
// the answer.
func (o *OpenAI) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	raw, err := o.client.PostJSON(ctx, "/embeddings", embeddingsRequest{Model: o.cfg.Model, Input: texts, EncodingFormat: "float"})
	if errors.Is(err, openaihttp.ErrResponseTooLarge) {
		return nil, fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	if err != nil {
		return nil, err
	}
	return o.decode(raw, len(texts))
}

// decode checks a 2xx body: one finite vector of the configured length for each of the n
// inputs, every index in [0, n) exactly once.
func (o *OpenAI) decode(raw []byte, n int) ([][]float32, error) {
	var r embeddingsResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("%w: decode JSON: %v", ErrBadResponse, err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%w: %d embeddings for %d texts", ErrBadResponse, len(r.Data), n)
	}
	out := make([][]float32, n)
	for i, d := range r.Data {
		switch {
		case d.Index == nil:
			return nil, fmt.Errorf("%w: data[%d] has no index", ErrBadResponse, i)
		case *d.Index < 0 || *d.Index >= n:
			return nil, fmt.Errorf("%w: data[%d] index %d out of range [0, %d)", ErrBadResponse, i, *d.Index, n)
		case out[*d.Index] != nil:
			return nil, fmt.Errorf("%w: index %d appears twice", ErrBadResponse, *d.Index)
		case len(d.Embedding) != o.cfg.Dimensions:
			return nil, fmt.Errorf("%w: index %d has %d dimensions, want %d",
				ErrDimensionMismatch, *d.Index, len(d.Embedding), o.cfg.Dimensions)
		}
		for j, x := range d.Embedding {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("%w: index %d value %d is %v", ErrBadResponse, *d.Index, j, x)
			}
		}
		out[*d.Index] = d.Embedding
	}
	return out, nil
}
