package metamemory

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/metamemory/internal/dbsqlc"
)

// MaxQueryChars is the longest query a feeling of knowing takes: checkout's.
const MaxQueryChars = checkout.MaxQueryChars

// Config configures a Service.
type Config struct {
	// TextSearchConfig must match the projector's. Defaults to "english".
	TextSearchConfig string
	// Limits bound the sketches kept in the process; zero fields take their defaults.
	Limits Limits
	// Logger reports sketch rebuilds; nil logs nothing.
	Logger *slog.Logger
}

// Service answers feelings of knowing from sketches cached in the process.
type Service struct {
	db    pgexec.Executor
	cfg   Config
	cache *cache
}

// New returns a Service reading through db.
func New(db pgexec.Executor, cfg Config) *Service {
	if cfg.TextSearchConfig == "" {
		cfg.TextSearchConfig = "english"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Limits = cfg.Limits.WithDefaults()
	return &Service{db: db, cfg: cfg, cache: newCache(cfg.Limits.Spaces)}
}

// validateRequest checks r (its query as checkout does); errors name the field.
func validateRequest(r *Request) error {
	if err := eventloom.ValidateSpaceID(r.SpaceID); err != nil {
		return err
	}
	return checkout.ValidateQuery(r.Query)
}

// Feel answers r: one round trip for the query's lexemes and the space's watermark and totals,
// and, only when the space's projection moved since its sketch was cached, a read of what was
// added. It never embeds, walks the graph or reads vectors. A space with an erased event whose
// purge is pending is eventloom.ErrErasurePending.
func (s *Service) Feel(ctx context.Context, r *Request) (*Feeling, error) {
	t0 := time.Now()
	if err := validateRequest(r); err != nil {
		return nil, err
	}
	st, err := queries.State(ctx, s.db, dbsqlc.StateParams{SpaceID: r.SpaceID, TsConfig: s.cfg.TextSearchConfig, Query: r.Query})
	if err != nil {
		return nil, fmt.Errorf("feeling of knowing: %w", err)
	}
	if !st.SpaceExists {
		// A space with no events knows nothing yet: the answer of an empty sketch.
		f := feel(&sketch{}, st.Lexemes, checkout.QueryEntityKeys(r.Query))
		f.Sketch.TookMs = float64(time.Since(t0).Microseconds()) / 1000
		return f, nil
	}
	if st.ErasurePending {
		// The sketch's frequencies are aggregates: what an erased event added cannot be taken
		// out of them, so the space answers nothing until its projections are purged.
		return nil, fmt.Errorf("feeling of knowing: %w", eventloom.ErrErasurePending)
	}
	e := s.cache.get(r.SpaceID)
	e.mu.Lock()
	defer e.mu.Unlock()
	cached := e.sk != nil && !e.sk.rebuild &&
		e.sk.watermark == st.Watermark && e.sk.items == st.Items && e.sk.tokens == st.Tokens
	if !cached {
		sk, err := refresh(ctx, s.db, r.SpaceID, e.sk, s.cfg.Limits)
		if err != nil {
			return nil, err
		}
		if sk != e.sk {
			s.cfg.Logger.DebugContext(ctx, "feeling of knowing sketch built", "space_id", r.SpaceID,
				"watermark", sk.watermark, "lexemes", len(sk.df), "entities", len(sk.entities), "bytes", sk.bytes())
		}
		e.sk = sk
	}
	f := feel(e.sk, st.Lexemes, checkout.QueryEntityKeys(r.Query))
	f.Sketch.Cached = cached
	f.Sketch.ProjectionLag = max(0, st.HeadSeq-e.sk.watermark)
	f.Sketch.TookMs = float64(time.Since(t0).Microseconds()) / 1000
	return f, nil
}

// feel computes the signals of a query's lexemes and entity keys against a sketch, and the
// probability and judgement they give.
func feel(sk *sketch, lexemes, entityKeys []string) *Feeling {
	sig := Signals{QueryTerms: len(lexemes), KnownTerms: []string{}, UnknownTerms: []string{}, EntityHits: []string{},
		Speakers: []string{}, SpaceItems: sk.items, Salience: sk.salience}
	for _, k := range entityKeys {
		if sk.speakers[k] && !slices.Contains(sig.Speakers, k) {
			sig.Speakers = append(sig.Speakers, k)
		}
	}
	if sk.items > 0 {
		unknownIDF := sk.idf(0)
		var known, all float64
		for _, l := range lexemes {
			if namesSpeaker(l, sig.Speakers) {
				// A speaker's name is known as who speaks, whether or not the texts say it; it
				// is left out of the IDF signals.
				sig.KnownTerms = append(sig.KnownTerms, l)
				continue
			}
			df := sk.lookup(l)
			if df == 0 {
				sig.UnknownTerms = append(sig.UnknownTerms, l)
				all += unknownIDF
				continue
			}
			idf := sk.idf(df)
			sig.KnownTerms = append(sig.KnownTerms, l)
			known += idf
			all += idf
			sig.MaxKnownSpecificity = max(sig.MaxKnownSpecificity, idf/unknownIDF)
		}
		switch {
		case all > 0:
			sig.KnownIDFShare = known / all
		case len(sig.Speakers) > 0:
			sig.KnownIDFShare = 1 // the query names only speakers
		}
		if len(sig.Speakers) > 0 {
			sig.SpeakerSupport = speakerSupport(sk, sig.KnownTerms, sig.Speakers)
		}
	} else {
		sig.UnknownTerms = append(sig.UnknownTerms, lexemes...)
	}
	for _, k := range entityKeys {
		if _, ok := sk.entities[k]; ok && !slices.Contains(sig.EntityHits, k) {
			sig.EntityHits = append(sig.EntityHits, k)
		}
	}
	p := probability(&sig)
	return &Feeling{Judgement: judge(p), Probability: p, Signals: sig,
		Sketch: SketchInfo{Watermark: sk.watermark, Lexemes: len(sk.df), Truncated: sk.tail != nil, Entities: len(sk.entities)}}
}

// speakerSupport is Signals.SpeakerSupport: the IDF-weighted mean over the known lexemes of the
// share of their items a named speaker said (the largest over the named speakers), leaving out
// the lexemes of the names themselves (a stem is a prefix of its name); nil when no lexeme is
// left.
func speakerSupport(sk *sketch, known, speakers []string) *float64 {
	var used, all float64
	for _, l := range known {
		if namesSpeaker(l, speakers) {
			continue
		}
		df := sk.lookup(l)
		idf := sk.idf(df)
		all += idf
		var said uint32
		for _, sp := range speakers {
			said = max(said, sk.spoken.count(speakerTerm(sp, l)))
		}
		used += idf * min(1, float64(said)/float64(df))
	}
	if all == 0 {
		return nil
	}
	v := used / all
	return &v
}

// namesSpeaker reports whether a query lexeme is (the stem of) one of the named speakers' names:
// a prefix of it.
func namesSpeaker(lexeme string, speakers []string) bool {
	return slices.ContainsFunc(speakers, func(sp string) bool { return strings.HasPrefix(sp, lexeme) })
}

// CachedSpaces is how many spaces' sketches the service holds.
func (s *Service) CachedSpaces() int { return s.cache.len() }
