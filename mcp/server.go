package mcp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/zaxy/zaxy/internal/buildinfo"
)

// Config configures a server.
type Config struct {
	// Profile is the tools listed: ProfileCore (default) or ProfileFull.
	Profile string
	// Token, when set, is the bearer token every tool call carries (zaxy mcp with
	// ZAXY_MCP_TOKEN). When empty, a call carries the Authorization header of the HTTP request
	// it arrived in, if any.
	Token string
	// Version is reported to clients as the server's version. Defaults to the binary's module
	// version (internal/buildinfo; "dev" for a build from a work tree).
	Version string
}

// WithDefaults returns a copy with zero fields set to their defaults.
func (c Config) WithDefaults() Config {
	if c.Profile == "" {
		c.Profile = ProfileCore
	}
	if c.Version == "" {
		c.Version = buildinfo.Get().Version
	}
	return c
}

func (c Config) validate() error {
	_, err := ParseProfile(c.Profile, "profile")
	return err
}

// sdkLogger is what the SDK logs to: logger's warnings and errors (the SDK's per-session
// chatter is dropped: every tool call is logged already, as the API request it becomes); a
// nil logger discards them.
func sdkLogger(logger *slog.Logger) *slog.Logger {
	if logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	if _, quiet := logger.Handler().(warnings); quiet {
		return logger
	}
	return slog.New(warnings{logger.Handler()})
}

// instructions tell the model how to use the server.
const instructions = "Zaxy is your durable, cited memory. Before you plan or act, call memory_checkout with what you " +
	"are about to do (and your session_id): it returns a small packet of what memory knows, each claim cited " +
	"by the seq and hash of its events. Record what happens and what you decide with memory_append; say " +
	"which memories helped or misled you with memory_feedback, and correct wrong ones with memory_invalidate. " +
	"Everything is scoped to a space (a user, project or workspace). memory_capabilities lists every tool."

// schemas are every tool's input schema, inferred once.
var schemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	out := make(map[string]*jsonschema.Schema, len(tools))
	for _, t := range tools {
		s, err := inputSchema(t)
		if err != nil {
			return nil, err
		}
		out[t.name] = s
	}
	return out, nil
})

// NewServer returns an MCP server listing cfg.Profile's tools, each call served by svc.API.
// logger receives the SDK's warnings and errors; nil discards them. The server is one session:
// it carries the Zaxy-Consistency token its calls are answered on to the calls after them.
func NewServer(cfg Config, svc Services, logger *slog.Logger) (*sdk.Server, error) {
	return newServer(cfg, svc, logger, &session{})
}

// newServer is NewServer carrying the consistency token in sess; nil carries none (the HTTP
// endpoint, stateless: each request forwards its own header).
func newServer(cfg Config, svc Services, logger *slog.Logger, sess *session) (*sdk.Server, error) {
	cfg = cfg.WithDefaults()
	if err := errors.Join(cfg.validate(), svc.validate()); err != nil {
		return nil, err
	}
	all, err := schemas()
	if err != nil {
		return nil, err
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "zaxy", Title: "Zaxy memory", Version: cfg.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: sdkLogger(logger)})
	caps := capabilities(cfg.Profile, all)
	for _, t := range tools {
		if !t.listed(cfg.Profile) {
			continue
		}
		def := &sdk.Tool{Name: t.name, Title: t.title, Description: t.description, InputSchema: all[t.name],
			Annotations: annotations(t)}
		if t.method == "" {
			s.AddTool(def, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return capabilitiesResult(caps)
			})
			continue
		}
		s.AddTool(def, handler(cfg, svc, t, all[t.name], sess))
	}
	return s, nil
}

// handler serves calls of t: the request they stand for, with the bearer token and the
// session's consistency token (sess, else the HTTP request's own header or the call's _meta
// metaConsistency: callToken), through svc.API.
func handler(cfg Config, svc Services, t *tool, schema *jsonschema.Schema, sess *session) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		r, err := request(ctx, t, schema, req.Params.Arguments)
		if err != nil {
			return failure(err), nil
		}
		switch {
		case cfg.Token != "":
			r.Header.Set("Authorization", "Bearer "+cfg.Token)
		case req.Extra != nil && req.Extra.Header != nil:
			if v := req.Extra.Header.Get("Authorization"); v != "" {
				r.Header.Set("Authorization", v)
			}
		}
		var header http.Header
		if req.Extra != nil {
			header = req.Extra.Header
		}
		if v := callToken(header, req.Params.Meta); v != "" {
			r.Header.Set(consistencyHeader, v)
		}
		sess.prepare(r)
		return callAPI(svc.API, t, r, sess), nil
	}
}

// annotations are t's hints: nothing is ever destroyed (the log is append-only), reads are
// read-only and idempotent, and no tool reaches outside Zaxy.
func annotations(t *tool) *sdk.ToolAnnotations {
	no := false
	return &sdk.ToolAnnotations{Title: t.title, ReadOnlyHint: t.readOnly, IdempotentHint: t.readOnly,
		DestructiveHint: &no, OpenWorldHint: &no}
}

// ServeStdio serves cfg's tools, each call served by svc.API, over newline-delimited JSON-RPC
// on in and out until the client closes in or ctx ends.
func ServeStdio(ctx context.Context, cfg Config, svc Services, logger *slog.Logger, in io.Reader, out io.Writer) error {
	s, err := NewServer(cfg, svc, logger)
	if err != nil {
		return err
	}
	return s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// warnings passes on only records of level warn and above.
type warnings struct{ slog.Handler }

func (w warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}

func (w warnings) WithAttrs(attrs []slog.Attr) slog.Handler {
	return warnings{w.Handler.WithAttrs(attrs)}
}

func (w warnings) WithGroup(name string) slog.Handler { return warnings{w.Handler.WithGroup(name)} }
