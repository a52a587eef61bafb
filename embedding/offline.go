package embedding

import (
	"context"
	"math"
	"sync"
	"unicode"
	"unicode/utf8"
)

// OfflineModel is the Model() of the built-in offline embedder. The version after "@" is
// bumped whenever the algorithm, its constants or its dimensions change, because vectors of
// two versions must never be compared.
const OfflineModel = "zaxy-offline@1"

// OfflineDimensions is the length of the offline embedder's vectors.
const OfflineDimensions = 384

// Offline is the built-in embedder: L2-normalized signed feature hashing of stemmed word
// unigrams, word bigrams and character n-grams, with sublinear term frequency. It needs no
// model, no network and no state, is deterministic (the same text gives the same bytes on
// every machine and in every process) and is safe for concurrent use. docs/embeddings.md
// describes the algorithm and its measured quality.
type Offline struct {
	p offlineParams
}

// offlineParams are the algorithm's knobs. They are fixed for a given OfflineModel version;
// the tests vary them only to measure alternatives.
type offlineParams struct {
	dims          int
	uni, bi, char float32  // weight of each feature kind
	charMin       int      // shortest character n-gram
	charMax       int      // longest character n-gram
	charNorm      normMode // how a word's n-gram weight is shared among its n-grams
	stem          bool     // strip common English suffixes from unigrams and bigrams
	stop          bool     // drop stopwords entirely (bigrams then join the words around them)
	tf            tfMode
	common        float32 // weight multiplier for commonWords (1 = no special treatment)
}

type normMode uint8

const (
	normNone   normMode = iota // every n-gram gets the full weight
	normSqrt                   // weight / √(number of n-grams): the word's n-grams have the norm of one feature
	normLinear                 // weight / number of n-grams: the n-grams sum to one feature's weight
)

type tfMode uint8

const (
	tfLinear tfMode = iota // weight × count
	tfLog                  // weight × (1 + ln count)
	tfSqrt                 // weight × √count
)

var defaultOfflineParams = offlineParams{
	dims:     OfflineDimensions,
	uni:      1,
	bi:       0.5,
	char:     1,
	charMin:  3,
	charMax:  5,
	charNorm: normSqrt,
	stem:     true,
	stop:     true,
	tf:       tfLog,
	common:   0.3,
}

var _ Embedder = (*Offline)(nil)

// NewOffline returns the built-in offline embedder (OfflineModel, OfflineDimensions).
func NewOffline() *Offline { return &Offline{p: defaultOfflineParams} }

// Model returns OfflineModel.
func (o *Offline) Model() string { return OfflineModel }

// Dimensions returns OfflineDimensions.
func (o *Offline) Dimensions() int { return o.p.dims }

// Embed returns one unit-length vector per text (the zero vector for a text without words).
// It fails only when ctx is done.
func (o *Offline) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*o.p.dims)
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	for i, t := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		v := flat[i*o.p.dims : (i+1)*o.p.dims : (i+1)*o.p.dims]
		o.embedOne(s, t, v)
		out[i] = v
	}
	if len(s.keys) > maxPooledSlots {
		s.resize(1024)
	}
	return out, nil
}

// Feature kinds seed the hash so the same bytes as a word and as an n-gram land apart.
const (
	kindUni  = 0x75
	kindBi   = 0x62
	kindChar = 0x63
)

// fnv is 64-bit FNV-1a with fixed constants: stable across processes and machines.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvByte(h uint64, b byte) uint64 { return (h ^ uint64(b)) * fnvPrime }

func fnvBytes(h uint64, bs []byte) uint64 {
	for _, b := range bs {
		h = (h ^ uint64(b)) * fnvPrime
	}
	return h
}

// mix is the splitmix64 finalizer, spreading FNV's weak high/low bits over the whole word.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// scratch is per-call working memory, pooled so embedding allocates only its result.
type scratch struct {
	word    []byte // current word, lowercased
	prev    []byte // previous kept word (stemmed), for bigrams
	gram    []byte // "^word$" for character n-grams
	stemBuf []byte // the stem of the current word

	// An open-addressing table of the text's features (keys 0 = empty slot); used lists
	// the filled slots in first-seen order, which is the order they are summed in.
	keys []uint64
	wts  []float32 // summed weight of each feature's occurrences
	cnt  []uint32  // occurrences of each feature
	used []int32
	mask uint64

	vec64 []float64 // float64 accumulators, one per dimension
}

// maxPooledSlots bounds the table kept in the pool after one very long text.
const maxPooledSlots = 1 << 15

var scratchPool = sync.Pool{New: func() any {
	s := &scratch{word: make([]byte, 0, 64), prev: make([]byte, 0, 64), gram: make([]byte, 0, 72)}
	s.resize(1024)
	return s
}}

func (s *scratch) resize(n int) {
	s.keys = make([]uint64, n)
	s.wts = make([]float32, n)
	s.cnt = make([]uint32, n)
	s.mask = uint64(n - 1)
	s.used = s.used[:0]
}

// add counts one occurrence of feature h with weight w.
func (s *scratch) add(h uint64, w float32) {
	h = mix(h)
	if h == 0 {
		h = 1
	}
	if len(s.used)*2 >= len(s.keys) {
		s.grow()
	}
	i := h & s.mask
	for {
		switch s.keys[i] {
		case h:
			s.cnt[i]++
			s.wts[i] += w
			return
		case 0:
			s.keys[i] = h
			s.wts[i] = w
			s.cnt[i] = 1
			s.used = append(s.used, int32(i))
			return
		}
		i = (i + 1) & s.mask
	}
}

func (s *scratch) grow() {
	keys, wts, cnt, used := s.keys, s.wts, s.cnt, append([]int32(nil), s.used...)
	s.resize(len(keys) * 2)
	for _, u := range used {
		h := keys[u]
		i := h & s.mask
		for s.keys[i] != 0 {
			i = (i + 1) & s.mask
		}
		s.keys[i], s.wts[i], s.cnt[i] = h, wts[u], cnt[u]
		s.used = append(s.used, int32(i))
	}
}

// logTF[c] is 1+ln(c), written out so no platform's math.Log can change a vector's bytes.
var logTF = [...]float32{0, 1, 1.6931472, 2.0986123, 2.3862944, 2.6094379, 2.7917595, 2.9459101,
	3.0794415, 3.1972246, 3.3025851, 3.3978953, 3.4849066, 3.5649493, 3.6390573, 3.7080502,
	3.7725887, 3.8332133, 3.8903718, 3.9444390, 3.9957323, 4.0445224, 4.0910425, 4.1354942,
	4.1780538, 4.2188758, 4.2580965, 4.2958369, 4.3322045, 4.3672958, 4.4011974, 4.4339872,
	4.4657359}

func (p *offlineParams) tfWeight(c uint32) float32 {
	switch p.tf {
	case tfLog:
		if int(c) >= len(logTF) {
			c = uint32(len(logTF) - 1)
		}
		return logTF[c]
	case tfSqrt:
		return float32(math.Sqrt(float64(c)))
	}
	return float32(c)
}

// embedOne writes the normalized embedding of text into v (len dims, zeroed).
func (o *Offline) embedOne(s *scratch, text string, v []float32) {
	p := &o.p
	s.word, s.prev = s.word[:0], s.prev[:0]
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				s.word = append(s.word, c)
			case 'A' <= c && c <= 'Z':
				s.word = append(s.word, c+('a'-'A'))
			case c == '\'' && len(s.word) > 0:
				// don't → dont, user's → users
			default:
				o.flush(s)
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			s.word = utf8.AppendRune(s.word, unicode.ToLower(r))
		case r == '’' && len(s.word) > 0:
		default:
			o.flush(s)
		}
	}
	o.flush(s)

	// Sum the features into float64 accumulators in insertion order (deterministic).
	acc := s.vec64[:0]
	if cap(acc) < p.dims {
		acc = make([]float64, p.dims)
	}
	acc = acc[:p.dims]
	clear(acc)
	dims := uint64(p.dims)
	for _, u := range s.used {
		h := s.keys[u]
		// float32(...) conversions stop the compiler from fusing multiply-adds, which
		// would round differently on FMA platforms.
		w := float64(float32(float32(s.wts[u]/float32(s.cnt[u])) * p.tfWeight(s.cnt[u])))
		b := (h >> 32) * dims >> 32
		if h&1 == 1 {
			w = -w
		}
		acc[b] += w
		s.keys[u] = 0
	}
	s.used = s.used[:0]
	var norm float64
	for _, x := range acc {
		norm += float64(x * x)
	}
	if norm > 0 {
		inv := 1 / math.Sqrt(norm)
		for j, x := range acc {
			v[j] = float32(x * inv)
		}
	}
	s.vec64 = acc
}

// flush emits the features of the word in s.word and clears it.
func (o *Offline) flush(s *scratch) {
	w := s.word
	if len(w) == 0 {
		return
	}
	p := &o.p
	if len(w) > 48 {
		w = w[:48]
	}
	s.word = s.word[:0]
	if p.stop && isStopword(w) {
		return
	}
	st := w
	if p.stem {
		st = stem(append(s.stemBuf[:0], w...))
		s.stemBuf = st
	}
	scale := float32(1)
	if p.common != 1 && isCommon(st, p.stem) {
		if p.common == 0 {
			return
		}
		scale = p.common
	}
	// Character n-grams of "^word$".
	if p.char > 0 && len(w) >= 3 {
		g := append(append(append(s.gram[:0], '^'), w...), '$')
		s.gram = g
		total := 0
		for n := p.charMin; n <= p.charMax; n++ {
			if k := len(g) - n + 1; k > 0 {
				total += k
			}
		}
		cw := float32(p.char * scale)
		switch p.charNorm {
		case normLinear:
			cw = float32(cw / float32(total))
		case normSqrt:
			cw = float32(cw / sqrtInt(total))
		}
		for i := 0; i+p.charMin <= len(g); i++ {
			h := fnvBytes(fnvByte(fnvOffset, kindChar), g[i:i+p.charMin-1])
			for n := p.charMin; n <= p.charMax && i+n <= len(g); n++ {
				h = fnvByte(h, g[i+n-1])
				s.add(h, cw)
			}
		}
	}
	s.add(fnvBytes(fnvByte(fnvOffset, kindUni), st), float32(p.uni*scale))
	if p.bi > 0 {
		if len(s.prev) > 0 {
			h := fnvBytes(fnvByte(fnvOffset, kindBi), s.prev)
			s.add(fnvBytes(fnvByte(h, ' '), st), float32(p.bi*scale))
		}
		s.prev = append(s.prev[:0], st...)
	}
}

// stem strips common English inflections in place: plural -s/-ies, -ing, -ed, -ly and a
// final -e, undoubling a consonant left by -ing/-ed ("running" → "run"). It is deliberately
// light: the same stem for a word's common forms matters more than a linguistic root.
func stem(w []byte) []byte {
	n := len(w)
	if n <= 3 || !isASCIILetters(w) {
		return w
	}
	switch {
	case n > 4 && hasSuffix(w, "ies"), n > 4 && hasSuffix(w, "ied"):
		w[n-3] = 'y'
		return w[:n-2]
	case w[n-1] == 's' && w[n-2] != 's' && w[n-2] != 'u' && w[n-2] != 'i':
		w = w[:n-1]
		n--
	}
	cut := false
	switch {
	case n >= 6 && hasSuffix(w, "ing"):
		w, n, cut = w[:n-3], n-3, true
	case n >= 5 && hasSuffix(w, "ed"):
		w, n, cut = w[:n-2], n-2, true
	case n >= 5 && hasSuffix(w, "ly"):
		w, n = w[:n-2], n-2
	}
	if cut && n >= 3 && w[n-1] == w[n-2] && !isVowel(w[n-1]) && w[n-1] != 'l' && w[n-1] != 's' && w[n-1] != 'z' {
		w, n = w[:n-1], n-1
	}
	if n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

func hasSuffix(w []byte, suf string) bool {
	return len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf
}

func isVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

func isASCIILetters(w []byte) bool {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// stopwords are frequent English function words (apostrophes removed, as the tokenizer does).
var stopwords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range []string{
		"a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at",
		"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
		"can", "cant", "could", "couldnt", "did", "didnt", "do", "does", "doesnt", "doing", "dont", "down", "during",
		"each", "etc", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers",
		"herself", "him", "himself", "his", "how", "i", "id", "if", "im", "in", "into", "is", "isnt", "it", "its",
		"itself", "ive", "just", "ll", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off",
		"on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "re", "s", "same", "she",
		"should", "so", "some", "such", "t", "than", "that", "thats", "the", "their", "theirs", "them", "themselves",
		"then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very",
		"was", "wasnt", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will",
		"with", "would", "you", "youd", "youll", "your", "youre", "yours", "yourself", "yourselves", "youve",
	} {
		m[w] = struct{}{}
	}
	return m
}()

func isStopword(w []byte) bool {
	_, ok := stopwords[string(w)]
	return ok
}

// commonWords are frequent English content words, chat pleasantries and discourse words:
// they carry little about what a memory is about, so their features are down-weighted.
var commonWords = []string{
	"able", "actually", "add", "ago", "ahead", "already", "always", "amazing", "another", "anyone",
	"anything", "appreciate", "ask", "away", "awesome", "back", "bad", "best", "better", "big", "bit",
	"bring", "call", "certainly", "change", "come", "consider", "day", "definitely", "different",
	"done", "easy", "else", "end", "enough", "especially", "even", "ever", "every", "everything", "example",
	"excellent", "fantastic", "far", "feel", "find", "first", "get", "give", "glad", "go", "going", "gone",
	"good", "got", "great", "happy", "hear", "hello", "help", "helpful", "hey", "hi", "hope", "idea", "important",
	"interested", "interesting", "keep", "kind", "know", "last", "lately", "let", "like", "little", "long",
	"look", "lot", "lots", "love", "make", "many", "may", "maybe", "mean", "might", "mind", "much", "must", "need",
	"new", "next", "nice", "okay", "ok", "one", "particular", "perfect", "please", "point", "possible", "pretty",
	"probably", "put", "quite", "rather", "really", "recently", "recommend", "recommendation", "right", "say",
	"see", "seem", "share", "something", "sometimes", "sound", "specific", "start", "still", "sure", "take",
	"tell", "thank", "thanks", "thing", "think", "though", "thought", "tip", "today", "totally", "try",
	"trying", "two", "use", "useful", "usually", "want", "way", "well", "whether", "wonderful", "wonder",
	"work", "yeah", "yes", "yet", "suggest", "suggestion", "advice", "interest",
}

var commonStems, commonRaw = func() (map[string]struct{}, map[string]struct{}) {
	st, raw := map[string]struct{}{}, map[string]struct{}{}
	for _, w := range commonWords {
		raw[w] = struct{}{}
		st[string(stem([]byte(w)))] = struct{}{}
	}
	return st, raw
}()

func isCommon(w []byte, stemmed bool) bool {
	m := commonRaw
	if stemmed {
		m = commonStems
	}
	_, ok := m[string(w)]
	return ok
}

// sqrtInt is √n for the small n-gram counts of one word; math.Sqrt is exact (IEEE 754
// correctly rounded) on every platform.
func sqrtInt(n int) float32 { return float32(math.Sqrt(float64(n))) }
