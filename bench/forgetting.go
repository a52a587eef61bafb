package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/memoryitem"
	"github.com/zaxy/zaxy/projection"
)

// The forgetting lane (zaxy bench forgetting): a scripted agent works through one task family
// over simulated weeks and teaches memory by its feedback, and the lane measures what salience
// does to the packets it gets. The family: many services, each listening on a port that
// changes now and then; memory also holds unconfirmed guesses at ports and harmless chatter
// about the same services. Every working day the agent asks which port a few services listen
// on (popular services often, the others rarely). It checks out (salience on), records the
// surfacing, then sends helpful feedback for the note it used (the current port), outdated
// for superseded port notes in its packet and unhelpful for guesses in its packet. Time
// advances through occurred_at and as_of only. Each question is also asked with the plain
// profile on the same log at the same moment (today's ranking), so the two packets compare
// directly. Everything is generated here from a seed; no data set is read.
//
// The agent knows which note answers its question: that stands for the real outcome of its
// work (the deploy that used the right port), which is what feedback reports in real use.

// ForgettingOptions configures Forgetting (zaxy bench forgetting's flags).
type ForgettingOptions struct {
	// Services is how many services the family holds. Default 40.
	Services int
	// Weeks is how many simulated weeks the agent works. Default 16.
	Weeks int
	// QueriesPerDay is how many questions the agent asks each working day. Default 4.
	QueriesPerDay int
	// MaxTokens is the packet budget. Default 200 (a small packet, so precision means something).
	MaxTokens int
	// Seed makes the run reproducible. Default 1.
	Seed uint64
	// Embedder is the embedding provider; nil uses the offline one.
	Embedder embedding.Embedder
	// OpenPool opens the scratch database's pool; required.
	OpenPool func(ctx context.Context, url string) (*pgxpool.Pool, error)
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// WithDefaults returns a copy with zero fields set to their defaults.
func (o ForgettingOptions) WithDefaults() ForgettingOptions {
	if o.Services == 0 {
		o.Services = 40
	}
	if o.Weeks == 0 {
		o.Weeks = 16
	}
	if o.QueriesPerDay == 0 {
		o.QueriesPerDay = 4
	}
	if o.MaxTokens == 0 {
		o.MaxTokens = checkout.MinMaxTokens
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Embedder == nil {
		o.Embedder = embedding.NewOffline()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// ProfileScores are one profile's packet scores over the agent's questions.
type ProfileScores struct {
	// Precision is the mean share of a packet's items that answer the question (the current
	// port note of the service asked about).
	Precision float64 `json:"precision"`
	// EvidenceInPacket is the share of questions whose packet holds the answer.
	EvidenceInPacket float64 `json:"evidence_in_packet"`
	// MisleadingPerPacket is the mean count of superseded notes and guesses about the service
	// asked about in a packet.
	MisleadingPerPacket float64 `json:"misleading_per_packet"`
	// LateEvidenceInPacket is EvidenceInPacket over the last quarter of the weeks.
	LateEvidenceInPacket float64 `json:"late_evidence_in_packet"`
}

// ForgettingReport is what Forgetting measured.
type ForgettingReport struct {
	Services  int `json:"services"`
	Weeks     int `json:"weeks"`
	Questions int `json:"questions"`
	Events    int `json:"events"`
	// Salience and Plain score the packets of the two profiles.
	Salience ProfileScores `json:"salience"`
	Plain    ProfileScores `json:"plain"`
	// Attenuated counts the items below the floor at the end (salience_decay as of then).
	Attenuated int `json:"attenuated"`
	// Explicit recall of the attenuated items: each asked by its own text with
	// include_attenuated, found in the top 10 with salience on and with plain. Forgetting is
	// ranking, never erasure: the two must be equal.
	AttenuatedProbed        int     `json:"attenuated_probed"`
	ExplicitRecallSalience  float64 `json:"explicit_recall_salience"`
	ExplicitRecallPlain     float64 `json:"explicit_recall_plain"`
	DefaultRecallAttenuated float64 `json:"default_recall_attenuated"`
	Seconds                 float64 `json:"seconds"`
}

// WriteText prints the report for people.
func (r *ForgettingReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "forgetting lane: %d services, %d weeks, %d questions, %d events (%.1f s)\n", r.Services, r.Weeks, r.Questions, r.Events, r.Seconds)
	fmt.Fprintf(w, "%-9s %9s %9s %11s %14s\n", "profile", "precision", "evidence", "misleading", "late evidence")
	for _, p := range []struct {
		name string
		s    ProfileScores
	}{{"salience", r.Salience}, {"plain", r.Plain}} {
		fmt.Fprintf(w, "%-9s %9.3f %9.3f %11.2f %14.3f\n", p.name, p.s.Precision, p.s.EvidenceInPacket, p.s.MisleadingPerPacket, p.s.LateEvidenceInPacket)
	}
	fmt.Fprintf(w, "attenuated at the end: %d; explicit recall@10 of %d probed: salience %.3f, plain %.3f (default ranking %.3f)\n",
		r.Attenuated, r.AttenuatedProbed, r.ExplicitRecallSalience, r.ExplicitRecallPlain, r.DefaultRecallAttenuated)
}

// forgettingSpace is the lane's space in its scratch database.
const forgettingSpace = "forgetting"

// note is a memory the family wrote, and what it says.
type note struct {
	seq     int64
	service int
	kind    string // port, guess, chatter
	text    string
}

// forgettingWorld is the family's state as the simulation runs.
type forgettingWorld struct {
	names   []string
	notes   map[int64]*note
	current []int64 // per service, the seq of its current port note
	ports   []int
}

// serviceNames makes n distinct pronounceable service names from the seed.
func serviceNames(rng *rand.Rand, n int) []string {
	onsets := []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z"}
	vowels := []string{"a", "e", "i", "o", "u"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var b strings.Builder
		for range 3 {
			b.WriteString(onsets[rng.IntN(len(onsets))])
			b.WriteString(vowels[rng.IntN(len(vowels))])
		}
		if name := b.String(); !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// Forgetting runs the forgetting lane in a scratch database beside dbURL's.
func Forgetting(ctx context.Context, dbURL string, o ForgettingOptions) (*ForgettingReport, error) {
	o = o.WithDefaults()
	if o.OpenPool == nil {
		return nil, errors.New("bench forgetting: OpenPool is required")
	}
	start := time.Now()
	scratch, drop, err := scratchDatabase(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	defer drop()
	pool, err := o.OpenPool(ctx, scratch)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	store := eventloom.NewStore(pool, nil, o.Logger)
	proj, err := projection.New(ctx, pool, projection.Config{Logger: o.Logger})
	if err != nil {
		return nil, err
	}
	emb := projection.NewEmbedder(pool, o.Embedder, 256)
	svc := checkout.New(pool, store, checkout.Config{Embedder: o.Embedder, Logger: o.Logger})
	r := &forgettingRun{o: o, pool: pool, store: store, proj: proj, emb: emb, svc: svc, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x5eed))}
	rep, err := r.run(ctx)
	if err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// forgettingRun is one run of the lane.
type forgettingRun struct {
	o     ForgettingOptions
	pool  *pgxpool.Pool
	store *eventloom.Store
	proj  *projection.Projector
	emb   *projection.Embedder
	svc   *checkout.Service
	rng   *rand.Rand
	w     forgettingWorld
	rep   ForgettingReport
}

// appendNotes appends events at t and returns their seqs; notes are remembered by seq.
func (r *forgettingRun) appendNotes(ctx context.Context, t time.Time, notes []*note, others ...eventloom.NewEvent) ([]int64, error) {
	var evs []eventloom.NewEvent
	for _, n := range notes {
		evs = append(evs, eventloom.NewEvent{Type: "message", Actor: "ops", OccurredAt: &t, Content: n.text, Data: json.RawMessage(`{"role":"user"}`)})
	}
	for _, e := range others {
		e.OccurredAt = &t
		evs = append(evs, e)
	}
	if len(evs) == 0 {
		return nil, nil
	}
	res, err := r.store.Append(ctx, &eventloom.AppendParams{SpaceID: forgettingSpace, Events: evs})
	if err != nil {
		return nil, err
	}
	r.rep.Events += len(evs)
	seqs := make([]int64, len(res.Receipts))
	for i, rc := range res.Receipts {
		seqs[i] = rc.Seq
		if i < len(notes) {
			notes[i].seq = rc.Seq
			r.w.notes[rc.Seq] = notes[i]
			if notes[i].kind == "port" {
				r.w.current[notes[i].service] = rc.Seq
			}
		}
	}
	return seqs, nil
}

// index projects and embeds what was appended, as the workers would.
func (r *forgettingRun) index(ctx context.Context) error {
	if _, err := r.proj.ProjectSpace(ctx, forgettingSpace); err != nil {
		return err
	}
	_, err := r.emb.EmbedSpace(ctx, forgettingSpace)
	return err
}

// weekNotes is what the family writes in week w: port notes (every service in week 0, some
// changes after), guesses and chatter.
func (r *forgettingRun) weekNotes(w int) []*note {
	var out []*note
	for s, name := range r.w.names {
		if w == 0 || r.rng.IntN(6) == 0 {
			p := 2000 + r.rng.IntN(7000)
			verb := "listens on"
			if w > 0 {
				verb = "now listens on"
			}
			r.w.ports[s] = p
			out = append(out, &note{service: s, kind: "port", text: fmt.Sprintf("The %s service %s port %d.", name, verb, p)})
		}
		if w > 0 && r.rng.IntN(5) == 0 {
			out = append(out, &note{service: s, kind: "guess", text: fmt.Sprintf("Someone guessed the %s service might listen on port %d; unconfirmed.", name, 2000+r.rng.IntN(7000))})
		}
		if r.rng.IntN(3) == 0 {
			out = append(out, &note{service: s, kind: "chatter", text: fmt.Sprintf("Standup: the %s service dashboard looked calm this week.", name)})
		}
	}
	return out
}

// pick chooses the service a question is about: a quarter of the services get two thirds of
// the questions.
func (r *forgettingRun) pick() int {
	n := len(r.w.names)
	hot := max(1, n/4)
	if r.rng.IntN(3) < 2 {
		return r.rng.IntN(hot)
	}
	return hot + r.rng.IntN(n-hot)
}

// scoreTally accumulates one profile's scores.
type scoreTally struct {
	n, late                         int
	precision, evidence, misleading float64
	lateEvidence                    float64
}

func (t *scoreTally) scores() ProfileScores {
	d := func(x float64, n int) float64 {
		if n == 0 {
			return 0
		}
		return x / float64(n)
	}
	return ProfileScores{Precision: d(t.precision, t.n), EvidenceInPacket: d(t.evidence, t.n),
		MisleadingPerPacket: d(t.misleading, t.n), LateEvidenceInPacket: d(t.lateEvidence, t.late)}
}

// packetSeqs is the event seqs of a packet's items, in packet order.
func packetSeqs(p *checkout.Packet) []int64 {
	var out []int64
	for _, t := range p.Tiers {
		for _, it := range t.Items {
			if seq := itemSeq(it.ItemID); seq > 0 {
				out = append(out, seq)
			}
		}
	}
	return out
}

// itemSeq is the seq of an event item id ("ev:<seq>"), else 0.
func itemSeq(id string) int64 {
	seq, _ := memoryitem.ParseEventID(id)
	return seq
}

// judge scores a packet for a question about service s and sorts its items into the answer,
// the misleading ones (superseded port notes and guesses about s) and the rest.
func (r *forgettingRun) judge(t *scoreTally, seqs []int64, s int, late bool) (used []int64, outdated, misled []int64) {
	t.n++
	if late {
		t.late++
	}
	answer := r.w.current[s]
	hits := 0
	for _, seq := range seqs {
		n := r.w.notes[seq]
		switch {
		case seq == answer:
			hits++
			used = append(used, seq)
		case n != nil && n.service == s && n.kind == "port":
			outdated = append(outdated, seq)
		case n != nil && n.service == s && n.kind == "guess":
			misled = append(misled, seq)
		}
	}
	if len(seqs) > 0 {
		t.precision += float64(hits) / float64(len(seqs))
	}
	if hits > 0 {
		t.evidence++
		if late {
			t.lateEvidence++
		}
	}
	t.misleading += float64(len(outdated) + len(misled))
	return used, outdated, misled
}

// feedback is the feedback.recorded event of signal on seqs.
func feedback(signal string, seqs []int64) eventloom.NewEvent {
	b, _ := json.Marshal(map[string]any{"target_seqs": seqs, "signal": signal})
	return eventloom.NewEvent{Type: "feedback.recorded", Actor: "agent", Data: b}
}

func (r *forgettingRun) run(ctx context.Context) (*ForgettingReport, error) {
	o := r.o
	r.w = forgettingWorld{names: serviceNames(r.rng, o.Services), notes: map[int64]*note{}, current: make([]int64, o.Services), ports: make([]int, o.Services)}
	r.rep.Services, r.rep.Weeks = o.Services, o.Weeks
	t0 := time.Date(2025, 1, 6, 8, 0, 0, 0, time.UTC) // a Monday
	var on, off scoreTally
	var end time.Time
	for w := 0; w < o.Weeks; w++ {
		monday := t0.AddDate(0, 0, 7*w)
		if _, err := r.appendNotes(ctx, monday, r.weekNotes(w)); err != nil {
			return nil, err
		}
		if err := r.index(ctx); err != nil {
			return nil, err
		}
		late := w >= o.Weeks-max(1, o.Weeks/4)
		for d := 0; d < 5; d++ {
			for q := 0; q < o.QueriesPerDay; q++ {
				now := monday.AddDate(0, 0, d).Add(time.Duration(1+q) * time.Hour)
				end = now
				s := r.pick()
				req := checkout.Request{SpaceID: forgettingSpace, Query: fmt.Sprintf("Which port does the %s service listen on?", r.w.names[s]),
					MaxTokens: o.MaxTokens, AsOf: &now, NoRecord: true}
				plainReq := req
				plainReq.RetrievalProfile = checkout.ProfilePlain
				pp, err := r.svc.Checkout(ctx, &plainReq)
				if err != nil {
					return nil, err
				}
				r.judge(&off, packetSeqs(pp), s, late)
				p, err := r.svc.Checkout(ctx, &req)
				if err != nil {
					return nil, err
				}
				used, outdated, misled := r.judge(&on, packetSeqs(p), s, late)
				r.rep.Questions++
				surfaced, err := checkout.SurfacedEvent(&req, p)
				if err != nil {
					return nil, err
				}
				events := []eventloom.NewEvent{surfaced}
				for _, f := range []struct {
					signal string
					seqs   []int64
				}{{"helpful", used}, {"outdated", outdated}, {"unhelpful", misled}} {
					if len(f.seqs) > 0 {
						events = append(events, feedback(f.signal, f.seqs))
					}
				}
				if _, err := r.appendNotes(ctx, now, nil, events...); err != nil {
					return nil, err
				}
			}
			if err := r.index(ctx); err != nil {
				return nil, err
			}
		}
	}
	r.rep.Salience, r.rep.Plain = on.scores(), off.scores()
	if err := r.probeAttenuated(ctx, end); err != nil {
		return nil, err
	}
	return &r.rep, nil
}

// probeAttenuated materialises salience as of the end (the salience_decay job's work) and
// asks for up to 100 attenuated notes by their own text: with include_attenuated (salience
// on), with plain, and with default ranking.
func (r *forgettingRun) probeAttenuated(ctx context.Context, end time.Time) error {
	dec, err := projection.DecaySalience(ctx, r.pool, forgettingSpace, end)
	if err != nil {
		return err
	}
	r.rep.Attenuated = int(dec.Attenuated)
	rows, err := r.pool.Query(ctx, `SELECT item_id FROM salience_decayed WHERE space_id = $1 AND attenuated ORDER BY item_id`, forgettingSpace)
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	r.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	ids = ids[:min(len(ids), 100)]
	var sal, plain, def int
	for _, id := range ids {
		n := r.w.notes[itemSeq(id)]
		if n == nil {
			continue
		}
		r.rep.AttenuatedProbed++
		found := func(profile string, include bool) (bool, error) {
			res, err := r.svc.Query(ctx, &checkout.Request{SpaceID: forgettingSpace, Query: n.text, AsOf: &end, Limit: 10,
				RetrievalProfile: profile, IncludeAttenuated: include})
			if err != nil {
				return false, err
			}
			return slices.ContainsFunc(res.Items, func(it *checkout.Item) bool { return it.ItemID == id }), nil
		}
		for _, c := range []struct {
			profile string
			include bool
			n       *int
		}{{"", true, &sal}, {checkout.ProfilePlain, false, &plain}, {"", false, &def}} {
			ok, err := found(c.profile, c.include)
			if err != nil {
				return err
			}
			if ok {
				*c.n++
			}
		}
	}
	if k := r.rep.AttenuatedProbed; k > 0 {
		r.rep.ExplicitRecallSalience = float64(sal) / float64(k)
		r.rep.ExplicitRecallPlain = float64(plain) / float64(k)
		r.rep.DefaultRecallAttenuated = float64(def) / float64(k)
	}
	return nil
}
