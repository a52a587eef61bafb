package metamemorywire

// Request asks whether a space's memory is likely to hold something on a query.
type Request struct {
	// SpaceID is the space asked.
	SpaceID string `json:"-"`
	// Query is the question or task, at most metamemory.MaxQueryChars characters. Required.
	Query string `json:"query"`
}

// Feeling is the answer: a judgement, the probability it names and the signals it came from.
type Feeling struct {
	// Judgement is likely, possible or unlikely (thresholds metamemory.LikelyAt and
	// metamemory.PossibleAt).
	Judgement string `json:"judgement"`
	// Probability estimates that checkout's packet for this query would hold evidence.
	Probability float64 `json:"probability"`
	Signals     Signals `json:"signals"`
	// Sketch describes what the answer was read from.
	Sketch SketchInfo `json:"sketch"`
}

// Signals are what the probability is computed from, and what explains it.
type Signals struct {
	// QueryTerms is the number of distinct content lexemes of the query (stop words dropped).
	QueryTerms int `json:"query_terms"`
	// KnownTerms are the query's lexemes the space holds; UnknownTerms those it does not.
	KnownTerms   []string `json:"known_terms"`
	UnknownTerms []string `json:"unknown_terms"`
	// KnownIDFShare is the share of the query's IDF mass on known lexemes: the sum of their
	// BM25 IDF over the sum over every query lexeme, an unknown one weighing as a lexeme of
	// document frequency 0. Rare known words count most.
	KnownIDFShare float64 `json:"known_idf_share"`
	// MaxKnownSpecificity is the largest IDF of a known query lexeme over the IDF of an unknown
	// one (in [0, 1)): near 1 when the query names something only a few items hold.
	MaxKnownSpecificity float64 `json:"max_known_specificity"`
	// EntityHits are the space's entity names the query names (their keys).
	EntityHits []string `json:"entity_hits"`
	// Speakers are the names that speak in the space that the query names.
	Speakers []string `json:"speakers"`
	// SpeakerSupport, when the query names a speaker, weighs each known lexeme of the query
	// (the speakers' own names left out) by the share of the items holding it that a named
	// speaker said, and averages those shares weighted by IDF: low when the query asks a
	// speaker about words others said. Absent otherwise.
	SpeakerSupport *float64 `json:"speaker_support,omitempty"`
	// SpaceItems is how many memory items the space holds.
	SpaceItems int64 `json:"space_items"`
	// Salience is the space's salience histogram as of its sketch's build, present only where
	// the salience projection exists and has materialised the space's salience.
	Salience *SalienceHistogram `json:"salience,omitempty"`
}

// SketchInfo describes the sketch an answer was read from.
type SketchInfo struct {
	// Watermark is the projection watermark it is current at, and ProjectionLag how many of
	// the space's events are past it (appended, not projected yet: not known to the answer).
	Watermark     int64 `json:"watermark"`
	ProjectionLag int64 `json:"projection_lag"`
	// Cached is true when it was cached and current, false when the call built or brought it
	// forward.
	Cached bool `json:"cached"`
	// Lexemes is how many lexemes it holds exactly; Truncated is true when the space has more
	// (the rest are known through a Bloom filter, with their frequency bounded).
	Lexemes   int  `json:"lexemes"`
	Truncated bool `json:"truncated"`
	// Entities is how many entity names it holds.
	Entities int `json:"entities"`
	// TookMs is the answer's time.
	TookMs float64 `json:"took_ms"`
}
