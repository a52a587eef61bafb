package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zaxy/zaxy/api"
)

// metaStatus is the _meta key of a result carrying the HTTP status the API answered with.
const metaStatus = "zaxy/http_status"

// result turns the API's answer to a tool call into the tool's result. A success carries the
// response body as structured content and, as text, the JSON itself or, for tools with a
// prompt-ready rendering (checkout, assemble, after-turn), that rendering. A failure is a tool
// error (IsError) whose structured content is the API's error body, byte for byte, and whose
// text is "code: message".
func result(t *tool, status int, body []byte) *sdk.CallToolResult {
	if status < 200 || status > 299 {
		var eb api.ErrorBody
		if err := json.Unmarshal(body, &eb); err != nil || eb.Error.Code == "" {
			eb.Error = api.ErrorDetail{Code: "internal", Message: fmt.Sprintf("the API answered %d without an error body", status)}
		}
		return errorResult(status, eb)
	}
	text := strings.TrimSuffix(string(body), "\n")
	if t.text != nil {
		text = t.text(body)
	}
	return &sdk.CallToolResult{
		Meta:              sdk.Meta{metaStatus: status},
		Content:           []sdk.Content{&sdk.TextContent{Text: text}},
		StructuredContent: json.RawMessage(body),
	}
}

// errorResult is the tool error for an API error body.
func errorResult(status int, body api.ErrorBody) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		Meta:              sdk.Meta{metaStatus: status},
		IsError:           true,
		Content:           []sdk.Content{&sdk.TextContent{Text: body.Error.Code + ": " + body.Error.Message}},
		StructuredContent: body,
	}
}

// failure is the tool error for err, found before the call reached the API (a missing space,
// an unknown argument), mapped by the API's own error mapping.
func failure(err error) *sdk.CallToolResult {
	status, body := api.ErrorResponse(err)
	return errorResult(status, body)
}

// packetSummary is what the renderings read from a checkout packet.
type packetSummary struct {
	Text     string `json:"text"`
	Purpose  string `json:"purpose"`
	Warnings []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"warnings"`
	Budget struct {
		Requested int   `json:"requested"`
		Used      int   `json:"used"`
		Elided    []any `json:"elided"`
	} `json:"budget"`
	Diagnostics struct {
		ProjectionLag int64 `json:"projection_lag"`
	} `json:"diagnostics"`
	SurfacedSeq int64 `json:"surfaced_seq"`
}

// footer says, after a packet's text, what the agent may need next: the warnings, the budget
// and the surfaced_seq to give memory_feedback.
func (p *packetSummary) footer(b *strings.Builder) {
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(b, "warning (%s): %s\n", w.Code, w.Message)
	}
	fmt.Fprintf(b, "-- %s, %d of %d tokens, %d elided, projection lag %d", p.Purpose, p.Budget.Used, p.Budget.Requested,
		len(p.Budget.Elided), p.Diagnostics.ProjectionLag)
	if p.SurfacedSeq > 0 {
		fmt.Fprintf(b, ", surfaced_seq %d (memory_feedback's checkout_seq)", p.SurfacedSeq)
	}
	b.WriteString("\n")
}

// packetText renders POST /checkout's answer: the packet's prompt-ready text, then its footer.
func packetText(body []byte) string {
	var p packetSummary
	if err := json.Unmarshal(body, &p); err != nil {
		return string(body)
	}
	var b strings.Builder
	b.WriteString(p.Text)
	p.footer(&b)
	return b.String()
}

// assembled is what the renderings read from assembled context.
type assembled struct {
	Packet   packetSummary `json:"packet"`
	Text     string        `json:"text"`
	Tokens   int           `json:"tokens"`
	Recovery *struct {
		Text string `json:"text"`
	} `json:"recovery"`
}

func (a *assembled) render(b *strings.Builder) {
	if a.Recovery != nil && a.Recovery.Text != "" {
		b.WriteString(a.Recovery.Text)
		if !strings.HasSuffix(a.Recovery.Text, "\n") {
			b.WriteString("\n")
		}
	}
	b.WriteString(a.Text)
	a.Packet.footer(b)
}

// assembledText renders POST /context/assemble's answer.
func assembledText(body []byte) string {
	var a assembled
	if err := json.Unmarshal(body, &a); err != nil {
		return string(body)
	}
	var b strings.Builder
	a.render(&b)
	return b.String()
}

// afterTurnText renders POST /context/after-turn's answer: the receipts, then the context.
func afterTurnText(body []byte) string {
	var r struct {
		Receipts []struct {
			Seq int64 `json:"seq"`
		} `json:"receipts"`
		Context assembled `json:"context"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return string(body)
	}
	var b strings.Builder
	seqs := make([]string, len(r.Receipts))
	for i, rc := range r.Receipts {
		seqs[i] = fmt.Sprint(rc.Seq)
	}
	fmt.Fprintf(&b, "appended seq %s\n", strings.Join(seqs, ", "))
	r.Context.render(&b)
	return b.String()
}

// callAPI serves req with h and returns the result; a result whose answer carried a
// consistency token (a write, with standbys configured) has it in _meta as metaConsistency.
func callAPI(h http.Handler, t *tool, req *http.Request, sess *session) *sdk.CallToolResult {
	rec := newRecorder()
	h.ServeHTTP(rec, req)
	sess.observe(rec.header)
	res := result(t, rec.status, rec.body.Bytes())
	if tok := rec.header.Get(consistencyHeader); tok != "" {
		res.Meta[metaConsistency] = tok
	}
	return res
}

// weaveText renders a weave or a prospective pass as its text (the JSON when it has none).
func weaveText(body []byte) string {
	var w struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(body, &w); err != nil || w.Text == "" {
		return string(body)
	}
	return w.Text
}
