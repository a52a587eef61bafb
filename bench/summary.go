package bench

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// LevelScores are mean scores at one level (session or turn) over the questions scored there:
// those that are not abstention questions and have evidence at that level.
type LevelScores struct {
	Questions   int     `json:"questions"`
	RecallAny5  float64 `json:"recall_any@5"`
	RecallAny10 float64 `json:"recall_any@10"`
	RecallAll10 float64 `json:"recall_all@10"`
	NDCG10      float64 `json:"ndcg@10"`
	// Recall10 is the mean share of a question's evidence ids in the first 10.
	Recall10 float64 `json:"recall@10"`
}

// Scores are one ranking's scores at session and turn level.
type Scores struct {
	Session LevelScores `json:"session"`
	Turn    LevelScores `json:"turn"`
}

// Group is the summary of a set of questions: all of them, or one question type.
type Group struct {
	// Name is "all" or the question type (LoCoMo: category-<n>).
	Name       string `json:"name"`
	Questions  int    `json:"questions"`
	Abstention int    `json:"abstention"`
	// Fused is the ranking with every lane; KeywordOnly with only the keyword lane.
	Fused       Scores `json:"fused"`
	KeywordOnly Scores `json:"keyword_only"`
	// PacketEvidence is the share of turn-scored questions whose packet cites at least one
	// evidence turn; KeywordPacketEvidence the same for the keyword-only packet.
	PacketEvidence        float64 `json:"packet_evidence"`
	KeywordPacketEvidence float64 `json:"keyword_packet_evidence"`
	// PacketTokensMean and PacketTokensMax are over every question's packet.
	PacketTokensMean float64 `json:"packet_tokens_mean"`
	PacketTokensMax  int     `json:"packet_tokens_max"`
	// LatencyP50Ms and LatencyP95Ms time the fused ranking plus the packet of a question;
	// KeywordLatency* the keyword-only ranking plus its packet.
	LatencyP50Ms        float64 `json:"latency_p50_ms"`
	LatencyP95Ms        float64 `json:"latency_p95_ms"`
	KeywordLatencyP50Ms float64 `json:"keyword_latency_p50_ms"`
	KeywordLatencyP95Ms float64 `json:"keyword_latency_p95_ms"`
	// FoK calibrates the feeling of knowing against the packet holding evidence, when the
	// retriever answers it.
	FoK *FoKScores `json:"fok,omitempty"`
}

// Summary is what Run measured: ingestion and checkout timings and the scores, overall and
// by question type.
type Summary struct {
	// Run names the run's spaces; pass it as Options.Reuse (--reuse-run) to ask them again.
	Run       string `json:"run"`
	Cases     int    `json:"cases"`
	Questions int    `json:"questions"`
	// Turns is how many haystack turns were appended; SkippedTurns had no text to append.
	Turns        int `json:"turns"`
	SkippedTurns int `json:"skipped_turns"`
	K            int `json:"k"`
	PacketTokens int `json:"packet_max_tokens"`
	Parallel     int `json:"parallel"`
	// AppendSeconds and PrepareSeconds are summed over cases (with Parallel > 1 they overlap);
	// AppendEventsPerSec is Turns / AppendSeconds.
	AppendSeconds      float64 `json:"append_seconds"`
	AppendEventsPerSec float64 `json:"append_events_per_sec"`
	PrepareSeconds     float64 `json:"prepare_seconds"`
	// QuestionSeconds is the time spent asking questions, summed over cases.
	QuestionSeconds float64 `json:"question_seconds"`
	WallSeconds     float64 `json:"wall_seconds"`
	Overall         Group   `json:"overall"`
	ByType          []Group `json:"by_type"`
	// Pooled are groups over several question types (pools), when the run has any of them.
	Pooled []Group `json:"pooled,omitempty"`
}

// pools are the pooled groups a summary reports besides the types: LoCoMo's categories 1-4,
// over which its targets are stated (category 5 is adversarial).
var pools = []struct {
	name  string
	types []string
}{
	{"category-1-4", []string{"category-1", "category-2", "category-3", "category-4"}},
}

// pooled groups the results of each pool's types, for the pools the results have.
func pooled(rs []questionResult) []Group {
	var out []Group
	for _, p := range pools {
		var in []questionResult
		for _, r := range rs {
			if slices.Contains(p.types, r.typ) {
				in = append(in, r)
			}
		}
		if len(in) > 0 {
			out = append(out, group(p.name, in))
		}
	}
	return out
}

// questionResult is one question's outcome.
type questionResult struct {
	typ                  string
	abstain              bool
	hasSession, hasTurn  bool
	fusedSess, fusedTurn levelScore
	kwSess, kwTurn       levelScore
	packetHit            bool
	kwPacketHit          bool
	tokens               int
	latency, kwLatency   time.Duration
	// fok is the feeling of knowing's probability and its target, when there is both.
	fok *fokOutcome
}

// summarize groups question results overall and by type.
func summarize(rs []questionResult) (Group, []Group) {
	byType := map[string][]questionResult{}
	for _, r := range rs {
		byType[r.typ] = append(byType[r.typ], r)
	}
	names := make([]string, 0, len(byType))
	for n := range byType {
		names = append(names, n)
	}
	sort.Strings(names)
	groups := make([]Group, 0, len(names))
	for _, n := range names {
		groups = append(groups, group(n, byType[n]))
	}
	return group("all", rs), groups
}

func group(name string, rs []questionResult) Group {
	g := Group{Name: name, Questions: len(rs)}
	var fs, ft, ks, kt []levelScore
	var lat, kwLat []time.Duration
	hits, kwHits, tokens := 0, 0, 0
	var fok []fokOutcome
	for _, r := range rs {
		lat, kwLat = append(lat, r.latency), append(kwLat, r.kwLatency)
		if r.fok != nil {
			fok = append(fok, *r.fok)
		}
		tokens += r.tokens
		g.PacketTokensMax = max(g.PacketTokensMax, r.tokens)
		if r.abstain {
			g.Abstention++
			continue
		}
		if r.hasSession {
			fs, ks = append(fs, r.fusedSess), append(ks, r.kwSess)
		}
		if r.hasTurn {
			ft, kt = append(ft, r.fusedTurn), append(kt, r.kwTurn)
			if r.packetHit {
				hits++
			}
			if r.kwPacketHit {
				kwHits++
			}
		}
	}
	g.Fused = Scores{Session: mean(fs), Turn: mean(ft)}
	g.KeywordOnly = Scores{Session: mean(ks), Turn: mean(kt)}
	if len(ft) > 0 {
		g.PacketEvidence = float64(hits) / float64(len(ft))
		g.KeywordPacketEvidence = float64(kwHits) / float64(len(ft))
	}
	if len(rs) > 0 {
		g.PacketTokensMean = float64(tokens) / float64(len(rs))
	}
	g.LatencyP50Ms, g.LatencyP95Ms = percentile(lat, 50), percentile(lat, 95)
	g.KeywordLatencyP50Ms, g.KeywordLatencyP95Ms = percentile(kwLat, 50), percentile(kwLat, 95)
	g.FoK = fokScores(fok)
	return g
}

func mean(ss []levelScore) LevelScores {
	l := LevelScores{Questions: len(ss)}
	if len(ss) == 0 {
		return l
	}
	for _, s := range ss {
		l.RecallAny5 += s.anyAt5
		l.RecallAny10 += s.anyAt10
		l.RecallAll10 += s.allAt10
		l.NDCG10 += s.ndcgAt10
		l.Recall10 += s.recallAt10
	}
	n := float64(len(ss))
	l.RecallAny5, l.RecallAny10, l.RecallAll10, l.NDCG10 = l.RecallAny5/n, l.RecallAny10/n, l.RecallAll10/n, l.NDCG10/n
	l.Recall10 /= n
	return l
}

// WriteTable prints the summary as text: a line of ingestion and timing figures, then two
// Markdown tables (fused with its packet, and keyword only), one row per question type and
// one per pool and one for all questions. S is session level, T turn level; R@k is
// recall_any@k, rec@10 recall@10; "-" marks a level without scored questions.
func (s *Summary) WriteTable(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d cases, %d questions (%d abstention), %d turns appended", s.Cases, s.Questions, s.Overall.Abstention, s.Turns)
	if s.SkippedTurns > 0 {
		fmt.Fprintf(&b, " (%d without text skipped)", s.SkippedTurns)
	}
	fmt.Fprintf(&b, " in %.1f s (%.0f events/s); prepare (projection + embeddings) %.1f s; questions %.1f s; wall %.1f s; k %d, packet %d tokens, parallel %d\n\n",
		s.AppendSeconds, s.AppendEventsPerSec, s.PrepareSeconds, s.QuestionSeconds, s.WallSeconds, s.K, s.PacketTokens, s.Parallel)
	groups := append(append(append([]Group{}, s.ByType...), s.Pooled...), s.Overall)
	scoreHead := []string{"S R@5", "S R@10", "S all@10", "S rec@10", "S NDCG@10", "T R@5", "T R@10", "T all@10", "T rec@10", "T NDCG@10"}
	// A level with no scored questions shows "-", not a misleading 0.
	level := func(l LevelScores) []string {
		if l.Questions == 0 {
			return []string{"-", "-", "-", "-", "-"}
		}
		return []string{f3(l.RecallAny5), f3(l.RecallAny10), f3(l.RecallAll10), f3(l.Recall10), f3(l.NDCG10)}
	}
	scoreCells := func(sc Scores) []string { return append(level(sc.Session), level(sc.Turn)...) }
	fmt.Fprintf(&b, "fused (all lanes), packet of at most %d tokens:\n\n", s.PacketTokens)
	head := append(append([]string{"type", "n", "abst"}, scoreHead...), "in packet", "tokens", "p50 ms", "p95 ms")
	var rows [][]string
	for _, g := range groups {
		row := append([]string{g.Name, strconv.Itoa(g.Questions), strconv.Itoa(g.Abstention)}, scoreCells(g.Fused)...)
		inPacket := "-"
		if g.Fused.Turn.Questions > 0 {
			inPacket = f3(g.PacketEvidence)
		}
		rows = append(rows, append(row, inPacket, fmt.Sprintf("%.0f", g.PacketTokensMean), f1(g.LatencyP50Ms), f1(g.LatencyP95Ms)))
	}
	writeMarkdown(&b, head, rows)
	b.WriteString("\nkeyword only:\n\n")
	head = append(append([]string{"type", "n", "abst"}, scoreHead...), "in packet", "p50 ms", "p95 ms")
	rows = rows[:0]
	for _, g := range groups {
		row := append([]string{g.Name, strconv.Itoa(g.Questions), strconv.Itoa(g.Abstention)}, scoreCells(g.KeywordOnly)...)
		inPacket := "-"
		if g.KeywordOnly.Turn.Questions > 0 {
			inPacket = f3(g.KeywordPacketEvidence)
		}
		rows = append(rows, append(row, inPacket, f1(g.KeywordLatencyP50Ms), f1(g.KeywordLatencyP95Ms)))
	}
	writeMarkdown(&b, head, rows)
	if s.Overall.FoK != nil {
		b.WriteString("\n")
		for i := range s.Pooled {
			writeFoK(&b, &s.Pooled[i])
		}
		writeFoK(&b, &s.Overall)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func f3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// writeMarkdown writes a padded Markdown table; the first column is left-aligned, the rest
// right-aligned.
func writeMarkdown(b *strings.Builder, head []string, rows [][]string) {
	width := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	line := func(cells []string) {
		for i, c := range cells {
			if i == 0 {
				fmt.Fprintf(b, "| %-*s ", width[i], c)
			} else {
				fmt.Fprintf(b, "| %*s ", width[i], c)
			}
		}
		b.WriteString("|\n")
	}
	line(head)
	for i, wd := range width {
		if i == 0 {
			b.WriteString("|" + strings.Repeat("-", wd+2))
		} else {
			b.WriteString("|" + strings.Repeat("-", wd+1) + ":")
		}
	}
	b.WriteString("|\n")
	for _, r := range rows {
		line(r)
	}
}
