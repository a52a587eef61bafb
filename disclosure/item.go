package disclosure

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/validation"
)

// Item kinds.
const (
	KindEvent     = "event"
	KindFact      = "fact"
	KindEntity    = "entity"
	KindSession   = "session"
	KindEventType = "event_type"
	KindPredicate = "predicate"
)

// ItemParams names the item to show.
type ItemParams struct {
	// SpaceID is required.
	SpaceID string
	// ID is one of: "ev:<seq>" (an event), "fact:<fact id>" or the bare fact id ("f…"), an
	// entity id ("e…", or "entity:<id>"), or a listing the index refers to: "session:<id>",
	// "type:<event type>", "predicate:<predicate>".
	ID string
}

// ref is a parsed item id.
type ref struct {
	kind string
	seq  int64
	name string // fact or entity id, session id, event type or predicate
}

var (
	factIDPattern   = regexp.MustCompile(`^f[0-9a-f]{8,64}$`)
	entityIDPattern = regexp.MustCompile(`^e[0-9a-f]{8,64}$`)
	typePattern     = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)
)

// canonical is the id an item is known by.
func (r ref) canonical() string {
	switch r.kind {
	case KindEvent:
		return memoryitem.EventID(r.seq)
	case KindFact:
		return memoryitem.FactID(r.name)
	case KindSession:
		return "session:" + r.name
	case KindEventType:
		return "type:" + r.name
	case KindPredicate:
		return "predicate:" + r.name
	}
	return r.name
}

func badID(msg string) error { return &validation.Error{Field: "id", Message: msg} }

// parseRef parses an item id; errors name the field "id".
func parseRef(id string) (ref, error) {
	prefix, rest, found := strings.Cut(id, ":")
	if !found {
		switch {
		case factIDPattern.MatchString(id):
			return ref{kind: KindFact, name: id}, nil
		case entityIDPattern.MatchString(id):
			return ref{kind: KindEntity, name: id}, nil
		}
		return ref{}, badID(fmt.Sprintf("unknown id format %q: want ev:<seq>, fact:<id>, an entity id, session:<id>, type:<event type> or predicate:<name>", clip(id, 80)))
	}
	switch prefix {
	case "ev":
		seq, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || seq < 1 || strings.HasPrefix(rest, "+") {
			return ref{}, badID("ev:<seq> needs a positive integer seq")
		}
		return ref{kind: KindEvent, seq: seq}, nil
	case "fact":
		if !factIDPattern.MatchString(rest) {
			return ref{}, badID("fact:<id> needs a fact id (f followed by hex digits)")
		}
		return ref{kind: KindFact, name: rest}, nil
	case "entity":
		if !entityIDPattern.MatchString(rest) {
			return ref{}, badID("entity:<id> needs an entity id (e followed by hex digits)")
		}
		return ref{kind: KindEntity, name: rest}, nil
	case "session":
		if rest == "" || utf8.RuneCountInString(rest) > 256 {
			return ref{}, badID("session:<id> needs a session id of 1-256 characters")
		}
		return ref{kind: KindSession, name: rest}, nil
	case "type":
		if !typePattern.MatchString(rest) || len(rest) > 128 {
			return ref{}, badID("type:<event type> needs a dotted lowercase event type")
		}
		return ref{kind: KindEventType, name: rest}, nil
	case "predicate":
		p := graph.Key(rest)
		if p == "" || utf8.RuneCountInString(p) > 512 {
			return ref{}, badID("predicate:<name> needs a predicate of 1-512 characters")
		}
		return ref{kind: KindPredicate, name: p}, nil
	}
	return ref{}, badID(fmt.Sprintf("unknown id prefix %q: want ev, fact, entity, session, type or predicate", clip(prefix, 40)))
}

// Item returns one item of a space in full, with its citations, labels and token cost.
// Errors: a *validation.Error naming "space" or "id" for bad input, ErrItemNotFound for an
// unknown item (in a space with no events, every item) or a bookkeeping event.
func Item(ctx context.Context, q Querier, p ItemParams) (*ItemView, error) {
	if err := eventloom.ValidateSpaceID(p.SpaceID); err != nil {
		return nil, err
	}
	r, err := parseRef(p.ID)
	if err != nil {
		return nil, err
	}
	var v *ItemView
	err = snapshot(ctx, q, func(q Querier) error {
		head, err := loadSpace(ctx, q, p.SpaceID)
		if err != nil {
			return err
		}
		switch r.kind {
		case KindEvent:
			v, err = eventItem(ctx, q, p.SpaceID, r.seq, head)
		case KindFact:
			v, err = factItem(ctx, q, p.SpaceID, r.name)
		case KindEntity:
			v, err = entityItem(ctx, q, p.SpaceID, r.name)
		default:
			v, err = listItem(ctx, q, p.SpaceID, r)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	v.SpaceID, v.ID, v.Kind = p.SpaceID, r.canonical(), r.kind
	if v.Labels == nil {
		v.Labels = []string{}
	}
	v.Tokens = EstimateTokens(v.Text)
	return v, nil
}

func notFound(space, id string) error {
	return fmt.Errorf("%w: no %s in space %q", ErrItemNotFound, id, space)
}

// citations collects, sorts and de-duplicates citations.
type citations map[int64]eventloom.Hash

func (c citations) add(seq int64, h eventloom.Hash) string {
	c[seq] = h
	return marker(seq, h)
}

func (c citations) list() []Citation {
	out := make([]Citation, 0, len(c))
	for seq, h := range c {
		out = append(out, Citation{Seq: seq, Hash: h})
	}
	slices.SortFunc(out, func(a, b Citation) int { return compareInt(a.Seq, b.Seq) })
	return out
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
