package tokenize_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/tokenize"
)

// TestGet_CountsAsTheEncodingsDo: the counts are tiktoken's for texts whose encodings are
// known (tiktoken's own tests: "hello world" is two tokens in both encodings).
func TestGet_CountsAsTheEncodingsDo(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int
	}{
		{tokenize.O200kBase, "hello world", 2},
		{tokenize.CL100kBase, "hello world", 2},
		{tokenize.Chars4, "hello world", 3},
		{tokenize.O200kBase, "", 0},
		{tokenize.Chars4, "", 0},
		{tokenize.Chars4, "日本語", 1},
	} {
		c, err := tokenize.Get(tc.name)
		require.NoError(t, err)
		require.Equal(t, tc.name, c.Name())
		require.Equal(t, tc.want, c.Count(tc.text), "%s %q", tc.name, tc.text)
	}
}

// TestGet_RejectsUnknownNames: an empty or unknown name is ErrUnknown, naming the choices.
func TestGet_RejectsUnknownNames(t *testing.T) {
	for _, name := range []string{"", "gpt2", "O200K_BASE", "p50k_base"} {
		_, err := tokenize.Get(name)
		require.True(t, errors.Is(err, tokenize.ErrUnknown), name)
		require.ErrorContains(t, err, "o200k_base, cl100k_base, chars4")
		require.False(t, tokenize.Valid(name))
	}
}

// TestCount_InvalidUTF8AndHugeInputs: invalid UTF-8 and a megabyte of text count without a
// panic, within one token per byte.
func TestCount_InvalidUTF8AndHugeInputs(t *testing.T) {
	huge := strings.Repeat("func f(x int) error { return nil } // 日本語のテキスト\n", 20000)
	for _, name := range tokenize.Names {
		c, _ := tokenize.Get(name)
		for _, s := range []string{"\xff\xfe\xfd", "ok\xc3", "a\x00b", huge} {
			n := c.Count(s)
			require.Positive(t, n)
			require.LessOrEqual(t, n, max(len(s), 3*utf8.RuneCountInString(s)), "%s", name)
		}
	}
}

// FuzzCount: no input panics a counter, and every count is at least zero and at most three
// per byte (an invalid byte counts as the three-byte replacement character).
func FuzzCount(f *testing.F) {
	for _, s := range []string{"", "hello world", "\xff", "日本語", "<|endoftext|>", "   \n\n\t", "'s'll'VE", "1234567890"} {
		f.Add(s)
	}
	counters := make([]tokenize.Counter, 0, len(tokenize.Names))
	for _, name := range tokenize.Names {
		c, _ := tokenize.Get(name)
		counters = append(counters, c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range counters {
			if n := c.Count(s); n < 0 || n > 3*len(s) {
				t.Fatalf("%s counts %d tokens in %d bytes", c.Name(), n, len(s))
			}
		}
	})
}
