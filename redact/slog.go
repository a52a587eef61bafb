package redact

import (
	"context"
	"log/slog"
)

// LogHandler returns a slog.Handler that redacts before h writes: the message, and every
// string, error and fmt.Stringer attribute (in groups too) goes through String. Servers log
// what clients send (URL paths, request ids, errors quoting a header or a body); wrapped this
// way a secret in them never reaches the server log. Other kinds (numbers, times, bools) are
// passed as they are.
func LogHandler(h slog.Handler) slog.Handler {
	if lh, ok := h.(logHandler); ok {
		return lh
	}
	return logHandler{h}
}

type logHandler struct{ next slog.Handler }

func (l logHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return l.next.Enabled(ctx, level)
}

func (l logHandler) Handle(ctx context.Context, r slog.Record) error {
	msg, _ := String(r.Message)
	out := slog.NewRecord(r.Time, r.Level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return l.next.Handle(ctx, out)
}

func (l logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		red[i] = redactAttr(a)
	}
	return logHandler{l.next.WithAttrs(red)}
}

func (l logHandler) WithGroup(name string) slog.Handler { return logHandler{l.next.WithGroup(name)} }

// redactAttr returns a with its value redacted.
func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		s, _ := String(v.String())
		return slog.String(a.Key, s)
	case slog.KindGroup:
		group := v.Group()
		red := make([]any, len(group))
		for i, g := range group {
			red[i] = redactAttr(g)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			s, _ := String(x.Error())
			return slog.String(a.Key, s)
		case interface{ String() string }:
			s, _ := String(x.String())
			return slog.String(a.Key, s)
		case []byte:
			s, _ := String(string(x))
			return slog.String(a.Key, s)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
