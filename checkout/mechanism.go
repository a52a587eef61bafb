package checkout

// FirstMechanismVersion names the first mechanism record: the one a policy that names none
// (Policy.MechanismVersion "") ranks with, every built-in policy among them.
const FirstMechanismVersion = "mechanism-1"

// Mechanism is the part of ranking a fit does not learn: fusion's constant, the attenuations
// and the other shares and caps checkout ranks, packs and weaves with, and the word counts and
// spans its question is read with. A policy names its record
// (Policy.MechanismVersion); a record never changes once a policy names it, so a built-in
// version ranks the same forever. A change to the mechanism is a new record and a new
// built-in version naming it (docs/checkout.md, "Retrieval policy").
type Mechanism struct {
	// Version names the record.
	Version string

	// MinWordBytes is the fewest bytes a content word of the question has (contentWords): the
	// verbatim lane matches the content words, excerpts are placed by them.
	MinWordBytes int
	// EntityKeyWords is the most words a candidate entity key of the question spans (queryKeys,
	// the exact lane's).
	EntityKeyWords int
	// NameWords is the most words a speaker's name the question is searched for spans
	// (nameCandidates).
	NameWords int
	// MonthYears is how many years back a day or month the question names without a year
	// ("in June") reaches (parseTimeWindows).
	MonthYears int
	// MaxTextWindowDays is the longest time, in days, an item's own text may name and still
	// match a time the question names (timeWindows.matches): a day, a week or a month ("on
	// December 10th", "last week", "in mid-February"), not "last year" or "before 2020", which
	// overlap nearly anything.
	MaxTextWindowDays int

	// RRFK is reciprocal-rank fusion's constant: an item at rank r in a lane weighed w scores
	// w/(RRFK+r) (RankScore).
	RRFK int
	// AttenuateInvalidated multiplies the score of an invalidated event; AttenuateClosed the
	// score of a closed fact version. They leave default ranking but stay reachable.
	AttenuateInvalidated, AttenuateClosed float64
	// SalienceWeight is the exponent salience enters the ranking with: the fused relevance is
	// multiplied by salience^SalienceWeight (Salience.Multiplier). Fusion's reciprocal ranks
	// lie close together (rank 1 and rank 10 of a lane differ by 15%), so salience at full
	// weight would let a fortnight of disuse outrank the one memory that answers the question;
	// attenuation (below the floor) still removes the item outright.
	SalienceWeight float64
	// SessionContextShare is how much of the best other ranked item of its session an item's
	// score gains (session_context.go): an item whose session holds other strong matches is
	// more likely the one asked about than an equally scored stray turn elsewhere.
	SessionContextShare float64
	// CueBoostPerMatch multiplies an item's score for each of the request's cues its event
	// carries, up to CueBoostMax in all (cues.go): enough to lift a cued item over an equally
	// ranked uncued one, too little to bring a stray cued item above clear query matches.
	CueBoostPerMatch, CueBoostMax float64

	// LaneK is how many candidates each lane returns; the item fetch reads the best
	// 2·limit+LaneK fused ones.
	LaneK int
	// RecentK is how many of the session's latest events the recent lane (and so the session
	// tier) considers.
	RecentK int
	// ReplyK is how many of the keyword lane's best items the reply and remedy lanes follow.
	ReplyK int
	// StableK caps the stable tier's candidate facts.
	StableK int
	// TopicK is how many sessions the topic lane returns.
	TopicK int
	// SpeakerTail is how many of a space's events past the projection watermark the exact lane
	// reads for the names that speak in them (lane_exact.sql).
	SpeakerTail int
	// VerbatimRows is how many events past the projection watermark the verbatim lane reads.
	VerbatimRows int
	// KeywordCandidates is the keyword lane's candidate budget (KeywordParams.Candidates).
	KeywordCandidates int
	// BM25K1 and BM25B are the keyword lane's Okapi BM25 term-frequency saturation (k1) and
	// length normalization (b) (KeywordParams.K1, B; lane_keyword.sql).
	BM25K1, BM25B float64
	// HNSWMaxK caps the rows the vector lane takes through the HNSW index
	// (VectorParams.MaxIndexRows).
	HNSWMaxK int
	// RemedyFollow is how many of a failed call's next session events the remedy lane reads.
	RemedyFollow int
	// RemedyMinShare is how close to the keyword lane's best score (BM25) a failed call must
	// score for the remedy lane to follow it: a question about the failure, not one sharing a
	// word with it.
	RemedyMinShare float64
	// PPRRestart is the probability with which the personalized PageRank walk restarts at the
	// seeds at each step (ppr.go).
	PPRRestart float64
	// PPRHops is how many entity hops the PPR lane loads; PPRFanout how many latest items of
	// each kind per entity; PPRFrontier how many entities it expands per hop (each costs up to
	// 2·PPRFanout index probes); PPRNodeBudget how many nodes it loads in all.
	PPRHops, PPRFanout, PPRFrontier, PPRNodeBudget int
	// PPRIterations caps the walk's iterations.
	PPRIterations int
	// PPRVectorSeeds is how many of the vector lane's best items lend their entities as seeds.
	PPRVectorSeeds int
	// MaxItemChars caps an item's text; a longer event's text is an excerpt around the
	// question's words (items.go).
	MaxItemChars int
	// MaxExcerptWords bounds the question's words an excerpt is placed by (its first ones):
	// each is looked for through the whole text, and the longest question holds hundreds
	// (BenchmarkExcerptWindow_1MBLongQuery). MaxExcerptOccurrences bounds each word's
	// occurrences the window is chosen among (its first ones in the text): a megabyte of log
	// repeating a word costs no more than this many, and a rarer word is still found after it
	// (excerpt.go).
	MaxExcerptWords, MaxExcerptOccurrences int

	// StableShare and SessionShare are the shares of a packet's budget (what the weave left of
	// it) the stable and session tiers may take at most; the query tier gets the rest and
	// anything they leave (packet.go).
	StableShare, SessionShare float64
	// QueryCandidates is how many of the best fused items the query tier considers.
	QueryCandidates int
	// MinValueTokens is the floor of an item's cost when the query tier packs by value per
	// token (score / max(tokens, MinValueTokens)), so one-word items do not crowd out the
	// best evidence.
	MinValueTokens int

	// WeaveShare is the share of a packet's budget a weave takes when a checkout asks for one
	// (weave.go); the tiers get what it leaves.
	WeaveShare float64
	// WeaveCandidateItems is how many of the best fused items a weave reads the ranked events
	// from.
	WeaveCandidateItems int
	// WeaveCitedLimit is how many artifacts citing the ranked events a weave's query reads,
	// WeavePhaseLimit how many serving its phase.
	WeaveCitedLimit, WeavePhaseLimit int
	// WeaveVerifyLimit is how many of the best scored artifacts a weave reads in full and
	// verifies; WeaveVerifySources caps the events those cite together (verifying costs a read
	// of each), so the best scored are verified until the next would pass it, and the best one
	// always (a latent episode cites at most latent.EpisodeMaxEvents). The budget takes what
	// fits of them.
	WeaveVerifyLimit, WeaveVerifySources int
	// WeaveEvidencePer is how many cited events back one structured artifact in a weave.
	WeaveEvidencePer int
	// WeaveExcerptChars is how long an evidence line's excerpt may be (an answer longer than
	// it is not shown after its question); WeaveInferredChars how much of an artifact's
	// summary its inferred-context line shows (the line orients, the evidence lines carry what
	// may be claimed); WeaveSummaryChars how much of a prior's summary a prospective pass
	// shows.
	WeaveExcerptChars, WeaveInferredChars, WeaveSummaryChars int
	// WeaveLowConfidence is the confidence below which a woven artifact is warned about as a
	// hypothesis (WeaveWarnLowConfidence).
	WeaveLowConfidence float64

	// PriorRows is how many current procedures, failures and causal links a prospective pass
	// reads (prospective.go); PriorVerify how many of the best matching of each type it
	// verifies; MaxPriors how many of each type it returns, the first that verify.
	PriorRows, PriorVerify, MaxPriors int
	// PriorFailureLast is how many of a failure prior's latest occurrences it shows.
	PriorFailureLast int
}

// mechanism1 is FirstMechanismVersion.
var mechanism1 = &Mechanism{
	Version:               FirstMechanismVersion,
	MinWordBytes:          3,
	EntityKeyWords:        4,
	NameWords:             3,
	MonthYears:            10,
	MaxTextWindowDays:     31,
	RRFK:                  60,
	AttenuateInvalidated:  0.2,
	AttenuateClosed:       0.3,
	SalienceWeight:        0.25,
	SessionContextShare:   0.3,
	CueBoostPerMatch:      1.2,
	CueBoostMax:           1.5,
	LaneK:                 100,
	RecentK:               10,
	ReplyK:                30,
	StableK:               40,
	TopicK:                20,
	SpeakerTail:           1000,
	VerbatimRows:          1000,
	KeywordCandidates:     1000,
	BM25K1:                1.2,
	BM25B:                 0.75,
	HNSWMaxK:              40,
	RemedyFollow:          6,
	RemedyMinShare:        0.5,
	PPRRestart:            0.15,
	PPRHops:               2,
	PPRFanout:             20,
	PPRFrontier:           32,
	PPRNodeBudget:         500,
	PPRIterations:         30,
	PPRVectorSeeds:        5,
	MaxItemChars:          1200,
	MaxExcerptWords:       32,
	MaxExcerptOccurrences: 1024,
	StableShare:           0.25,
	SessionShare:          0.20,
	QueryCandidates:       60,
	MinValueTokens:        300,
	WeaveShare:            0.5,
	WeaveCandidateItems:   60,
	WeaveCitedLimit:       64,
	WeavePhaseLimit:       16,
	WeaveVerifyLimit:      16,
	WeaveVerifySources:    384,
	WeaveEvidencePer:      3,
	WeaveExcerptChars:     280,
	WeaveInferredChars:    100,
	WeaveSummaryChars:     240,
	WeaveLowConfidence:    0.5,
	PriorRows:             200,
	PriorVerify:           6,
	MaxPriors:             3,
	PriorFailureLast:      3,
}

// mechanisms are the mechanism records by version.
var mechanisms = map[string]*Mechanism{FirstMechanismVersion: mechanism1}

// MechanismOf returns the mechanism record named version ("" is FirstMechanismVersion), or
// nil when there is none.
func MechanismOf(version string) *Mechanism {
	if version == "" {
		return mechanism1
	}
	return mechanisms[version]
}

// RankScore is what an item at rank (1 for a lane's best) in a lane weighed weight adds to its
// fused score: weight/(RRFK+rank). Checkout's fusion and the policy replay both score with it.
func (m *Mechanism) RankScore(weight float64, rank int) float64 {
	return weight / float64(m.RRFK+rank)
}
