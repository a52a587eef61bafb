package tokenize

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Tokenizer names.
const (
	// O200kBase is the encoding of GPT-4o, GPT-4.1, GPT-5 and the o-series models.
	O200kBase = "o200k_base"
	// CL100kBase is the encoding of GPT-4 and GPT-3.5.
	CL100kBase = "cl100k_base"
	// Chars4 is the estimate ceil(characters/4): no tables, the same on every client.
	Chars4 = "chars4"
)

// Names lists every tokenizer a request may name.
var Names = []string{O200kBase, CL100kBase, Chars4}

// ErrUnknown is returned by Get for a name not in Names.
var ErrUnknown = errors.New("unknown tokenizer")

// Counter counts the tokens of a text under one tokenizer. It is safe for concurrent use.
type Counter interface {
	// Name is the tokenizer's name, one of Names.
	Name() string
	// Count returns the number of tokens s encodes to.
	Count(s string) int
}

// Get returns the Counter named name. An empty name is an error, like any name not in Names.
func Get(name string) (Counter, error) {
	switch name {
	case Chars4:
		return chars4{}, nil
	case O200kBase:
		return o200k, nil
	case CL100kBase:
		return cl100k, nil
	}
	return nil, fmt.Errorf("get tokenizer %q: %w; tokenizers are %s", name, ErrUnknown, strings.Join(Names, ", "))
}

// Valid reports whether name is one of Names.
func Valid(name string) bool { return slices.Contains(Names, name) }

// Default is the counter of an empty configuration: chars4, whose numbers need no tables.
var Default Counter = chars4{}

// chars4 counts ceil(characters/4).
type chars4 struct{}

func (chars4) Name() string       { return Chars4 }
func (chars4) Count(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// bpe counts with a tiktoken encoding, loading its tables on first use (tens of megabytes, a
// few hundred milliseconds), so a server that never counts with it never pays for them.
type bpe struct {
	enc   tokenizer.Encoding
	once  sync.Once
	codec tokenizer.Codec
	err   error
}

var (
	o200k  = &bpe{enc: tokenizer.O200kBase}
	cl100k = &bpe{enc: tokenizer.Cl100kBase}
)

func (b *bpe) Name() string { return string(b.enc) }

// Count encodes s. Invalid UTF-8 is counted as the U+FFFD each invalid sequence becomes; a
// failure of the encoder (which its splitter can report on pathological input) or a panic in
// it counts one token per byte of s, an upper bound for a byte-level BPE, so a budget checked
// with it is never exceeded.
func (b *bpe) Count(s string) (n int) {
	if s == "" {
		return 0
	}
	b.once.Do(func() {
		b.codec, b.err = tokenizer.Get(b.enc)
		if b.err == nil {
			b.codec.SetErrorMode(tokenizer.ErrorModeReplace)
		}
	})
	if b.err != nil {
		return len(s)
	}
	defer func() {
		if recover() != nil {
			n = len(s)
		}
	}()
	n, err := b.codec.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}
