package extract_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/extract"
)

// chatServer is a stand-in OpenAI-compatible server: each request to /v1/chat/completions
// is answered by respond(n, w, body) with n counting requests from 1.
type chatServer struct {
	*httptest.Server
	calls atomic.Int32
}

func newChatServer(t *testing.T, respond func(n int32, w http.ResponseWriter, r *http.Request, body map[string]any)) *chatServer {
	t.Helper()
	cs := &chatServer{}
	cs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := cs.calls.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"no such route"}}`, http.StatusNotFound)
			return
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, `{"error":{"message":"body is not JSON"}}`, http.StatusBadRequest)
			return
		}
		respond(n, w, r, body)
	}))
	t.Cleanup(cs.Close)
	return cs
}

// answer writes a chat completion whose first choice has content.
func answer(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
	})
}

func newExtractor(t *testing.T, srv *chatServer, mod func(*extract.OpenAIChatConfig)) *extract.OpenAIChat {
	t.Helper()
	cfg := extract.OpenAIChatConfig{BaseURL: srv.URL + "/v1", Model: "stand-in-mini", APIKey: "sk-test"}
	if mod != nil {
		mod(&cfg)
	}
	x, err := extract.NewOpenAIChat(cfg)
	require.NoError(t, err)
	return x
}

const meetingText = "Alice moved the billing service from Redis to Postgres on Monday."

func TestOpenAIChat_SendsTheChatRequestAndParsesTriples(t *testing.T) {
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, r *http.Request, body map[string]any) {
		if r.Header.Get("Authorization") != "Bearer sk-test" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, `{"error":{"message":"bad headers"}}`, http.StatusBadRequest)
			return
		}
		require.Equal(t, "stand-in-mini", body["model"])
		temp, ok := body["temperature"]
		require.True(t, ok, "temperature must be sent even though it is 0")
		require.Equal(t, float64(0), temp)
		require.Equal(t, map[string]any{"type": "json_object"}, body["response_format"])
		msgs, ok := body["messages"].([]any)
		require.True(t, ok)
		require.Len(t, msgs, 2)
		system, user := msgs[0].(map[string]any), msgs[1].(map[string]any)
		require.Equal(t, "system", system["role"])
		require.Contains(t, system["content"], `{"triples":[{"subject"`)
		require.Equal(t, "user", user["role"])
		require.Equal(t, meetingText, user["content"])
		answer(w, `{"triples":[
			{"subject":"Alice","predicate":"moved","object":"billing service","confidence":0.9},
			{"subject":"billing service","predicate":"uses","object":"Postgres","confidence":1.7},
			{"subject":"billing service","predicate":"used","object":"Redis","confidence":-0.2},
			{"subject":"  Alice ","predicate":"works on","object":"billing"},
			{"subject":"","predicate":"happened on","object":"Monday","confidence":0.8},
			{"subject":"Alice","predicate":" ","object":"Monday"},
			{"subject":"Alice","predicate":"moved on","object":""}
		]}`)
	})
	x := newExtractor(t, srv, nil)

	got, err := x.Extract(context.Background(), meetingText)
	require.NoError(t, err)
	require.Equal(t, []extract.Triple{
		{Subject: "Alice", Predicate: "moved", Object: "billing service", Confidence: 0.9},
		{Subject: "billing service", Predicate: "uses", Object: "Postgres", Confidence: 1},
		{Subject: "billing service", Predicate: "used", Object: "Redis", Confidence: 0},
		{Subject: "Alice", Predicate: "works on", Object: "billing", Confidence: 0.5},
	}, got)
	require.EqualValues(t, 1, srv.calls.Load())
}

func TestOpenAIChat_CapsAtMaxTriples(t *testing.T) {
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		answer(w, `{"triples":[
			{"subject":"a","predicate":"p","object":"1"},{"subject":"","predicate":"p","object":"x"},
			{"subject":"b","predicate":"p","object":"2"},{"subject":"c","predicate":"p","object":"3"}]}`)
	})
	x := newExtractor(t, srv, func(c *extract.OpenAIChatConfig) { c.MaxTriples = 2 })
	got, err := x.Extract(context.Background(), "a, b and c")
	require.NoError(t, err)
	require.Equal(t, []extract.Triple{
		{Subject: "a", Predicate: "p", Object: "1", Confidence: 0.5},
		{Subject: "b", Predicate: "p", Object: "2", Confidence: 0.5},
	}, got)
}

func TestOpenAIChat_ToleratesACodeFence(t *testing.T) {
	for name, content := range map[string]string{
		"json fence":       "```json\n{\"triples\":[{\"subject\":\"Zaxy\",\"predicate\":\"uses\",\"object\":\"pgvector\",\"confidence\":0.8}]}\n```",
		"bare fence":       "```\n{\"triples\":[{\"subject\":\"Zaxy\",\"predicate\":\"uses\",\"object\":\"pgvector\",\"confidence\":0.8}]}\n```",
		"upper-case label": "```JSON\n{\"triples\":[{\"subject\":\"Zaxy\",\"predicate\":\"uses\",\"object\":\"pgvector\",\"confidence\":0.8}]}\n```",
		"padded":           "  \n```json\n {\"triples\":[{\"subject\":\"Zaxy\",\"predicate\":\"uses\",\"object\":\"pgvector\",\"confidence\":0.8}]} \n```\n",
	} {
		t.Run(name, func(t *testing.T) {
			srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) { answer(w, content) })
			got, err := newExtractor(t, srv, nil).Extract(context.Background(), "Zaxy uses pgvector.")
			require.NoError(t, err)
			require.Equal(t, []extract.Triple{{Subject: "Zaxy", Predicate: "uses", Object: "pgvector", Confidence: 0.8}}, got)
		})
	}
}

func TestOpenAIChat_BadResponsesAreErrBadResponseAndNotRetried(t *testing.T) {
	tests := []struct {
		name  string
		write func(w http.ResponseWriter)
	}{
		{"garbage content", func(w http.ResponseWriter) { answer(w, "Sure! Here are the facts: Alice likes Go.") }},
		{"truncated JSON", func(w http.ResponseWriter) { answer(w, `{"triples":[{"subject":"Alice","predi`) }},
		{"wrong shape", func(w http.ResponseWriter) { answer(w, `{"triples":"Alice likes Go"}`) }},
		{"empty choices", func(w http.ResponseWriter) { _, _ = w.Write([]byte(`{"choices":[]}`)) }},
		{"no choices", func(w http.ResponseWriter) { _, _ = w.Write([]byte(`{"object":"chat.completion"}`)) }},
		{"body not JSON", func(w http.ResponseWriter) { _, _ = w.Write([]byte(`<html>gateway</html>`)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) { tt.write(w) })
			got, err := newExtractor(t, srv, nil).Extract(context.Background(), meetingText)
			require.ErrorIs(t, err, extract.ErrBadResponse)
			require.Nil(t, got)
			require.EqualValues(t, 1, srv.calls.Load(), "a bad answer is not retried")
		})
	}
}

func TestOpenAIChat_RetriesServerErrorsThenSucceeds(t *testing.T) {
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusTooManyRequests} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			srv := newChatServer(t, func(n int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				if n == 1 {
					http.Error(w, `{"error":{"message":"overloaded"}}`, status)
					return
				}
				answer(w, `{"triples":[{"subject":"Alice","predicate":"moved","object":"billing","confidence":0.6}]}`)
			})
			got, err := newExtractor(t, srv, nil).Extract(context.Background(), meetingText)
			require.NoError(t, err)
			require.Equal(t, []extract.Triple{{Subject: "Alice", Predicate: "moved", Object: "billing", Confidence: 0.6}}, got)
			require.EqualValues(t, 2, srv.calls.Load())
		})
	}
}

func TestOpenAIChat_GivesUpAfterMaxRetries(t *testing.T) {
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		http.Error(w, `{"error":{"message":"model is loading"}}`, http.StatusServiceUnavailable)
	})
	_, err := newExtractor(t, srv, func(c *extract.OpenAIChatConfig) { c.MaxRetries = 1 }).Extract(context.Background(), meetingText)
	require.ErrorContains(t, err, "503")
	require.ErrorContains(t, err, "model is loading")
	require.EqualValues(t, 2, srv.calls.Load(), "one attempt and one retry")
}

func TestOpenAIChat_DoesNotRetryClientErrors(t *testing.T) {
	for _, tt := range []struct {
		status  int
		message string
	}{
		{http.StatusUnauthorized, "Incorrect API key provided: sk-test"},
		{http.StatusBadRequest, "response_format json_object is not supported by this model"},
		{http.StatusNotFound, "model stand-in-mini does not exist"},
	} {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
				b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": tt.message, "type": "invalid_request_error"}})
				http.Error(w, string(b), tt.status)
			})
			_, err := newExtractor(t, srv, nil).Extract(context.Background(), meetingText)
			require.Error(t, err)
			require.NotErrorIs(t, err, extract.ErrBadResponse)
			require.ErrorContains(t, err, tt.message, "the server's message is in the error")
			require.EqualValues(t, 1, srv.calls.Load(), "a 4xx other than 429 is not retried")
		})
	}
}

func TestOpenAIChat_TimesOutEachAttempt(t *testing.T) {
	release := make(chan struct{})
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, r *http.Request, _ map[string]any) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	x := newExtractor(t, srv, func(c *extract.OpenAIChatConfig) {
		c.Timeout = 100 * time.Millisecond
		c.MaxRetries = -1
	})
	start := time.Now()
	_, err := x.Extract(context.Background(), meetingText)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 3*time.Second)
	require.EqualValues(t, 1, srv.calls.Load())
}

func TestOpenAIChat_RetriesATimedOutAttempt(t *testing.T) {
	srv := newChatServer(t, func(n int32, w http.ResponseWriter, r *http.Request, _ map[string]any) {
		if n == 1 {
			<-r.Context().Done()
			return
		}
		answer(w, `{"triples":[]}`)
	})
	x := newExtractor(t, srv, func(c *extract.OpenAIChatConfig) { c.Timeout = 100 * time.Millisecond })
	got, err := x.Extract(context.Background(), meetingText)
	require.NoError(t, err)
	require.Empty(t, got)
	require.EqualValues(t, 2, srv.calls.Load())
}

func TestOpenAIChat_StopsWhenTheCallerGivesUp(t *testing.T) {
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	x := newExtractor(t, srv, func(c *extract.OpenAIChatConfig) { c.MaxRetries = 100 })
	start := time.Now()
	_, err := x.Extract(ctx, meetingText)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 3*time.Second)
}

func TestOpenAIChat_EmptyTextAsksNothing(t *testing.T) {
	srv := newChatServer(t, func(_ int32, w http.ResponseWriter, _ *http.Request, _ map[string]any) { answer(w, `{"triples":[]}`) })
	got, err := newExtractor(t, srv, nil).Extract(context.Background(), " \n\t")
	require.NoError(t, err)
	require.Empty(t, got)
	require.EqualValues(t, 0, srv.calls.Load())
}

func TestNewOpenAIChat_NamesTheBadField(t *testing.T) {
	tests := []struct {
		name  string
		cfg   extract.OpenAIChatConfig
		field string
	}{
		{"missing base URL", extract.OpenAIChatConfig{Model: "m"}, "BaseURL"},
		{"base URL without scheme", extract.OpenAIChatConfig{BaseURL: "localhost:11434/v1", Model: "m"}, "BaseURL"},
		{"missing model", extract.OpenAIChatConfig{BaseURL: "http://127.0.0.1:11434/v1"}, "Model"},
		{"negative timeout", extract.OpenAIChatConfig{BaseURL: "http://127.0.0.1:11434/v1", Model: "m", Timeout: -time.Second}, "Timeout"},
		{"negative max triples", extract.OpenAIChatConfig{BaseURL: "http://127.0.0.1:11434/v1", Model: "m", MaxTriples: -1}, "MaxTriples"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := extract.NewOpenAIChat(tt.cfg)
			require.ErrorContains(t, err, tt.field)
			require.Nil(t, x)
		})
	}
	x, err := extract.NewOpenAIChat(extract.OpenAIChatConfig{BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.2"})
	require.NoError(t, err)
	require.NotNil(t, x)
}

func TestOpenAIChatConfig_WithDefaults(t *testing.T) {
	c := extract.OpenAIChatConfig{}.WithDefaults()
	require.Equal(t, 60*time.Second, c.Timeout)
	require.Equal(t, 3, c.MaxRetries)
	require.Equal(t, 20, c.MaxTriples)
	kept := extract.OpenAIChatConfig{Timeout: time.Second, MaxRetries: -1, MaxTriples: 5}.WithDefaults()
	require.Equal(t, time.Second, kept.Timeout)
	require.Equal(t, -1, kept.MaxRetries)
	require.Equal(t, 5, kept.MaxTriples)
}
