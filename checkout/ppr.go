package checkout

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/zaxy/zaxy/checkout/internal/dbsqlc"
	"github.com/zaxy/zaxy/internal/pgexec"
)

// The personalized PageRank lane (lane_ppr.go) walks the graph of entities and the items that
// mention them (events through mentions, facts through their subject and object) from the
// entities the question names, and ranks items by the walk's stationary mass.
//
// The walk is bounded: the neighbourhood is loaded breadth-first for Mechanism.PPRHops entity
// hops (seed entities → their items → those items' entities → their items: three queries), at
// most PPRFanout latest items of each kind per entity, at most PPRFrontier entities expanded per
// hop and at most PPRNodeBudget nodes in all, each cut keeping the nodes with the highest
// one-step estimate of their mass. Then the walk iterates in Go (PPRIterations at most) with
// restart to the seeds with probability PPRRestart. A step from an entity goes to each of
// its items with probability 1/degree over all its items, not only the loaded ones, so the mass
// of an entity most items mention mostly leaks away instead of flooding its latest items.

// pprGraph is the loaded neighbourhood: nodes are entity ids and item ids ("ev:", "fact:").
type pprGraph struct {
	out    map[string][]string // each node's loaded neighbours
	degree map[string]float64  // each node's full degree (at least its loaded neighbours)
	items  map[string]bool     // which nodes are items
}

func (g *pprGraph) has(n string) bool { _, ok := g.out[n]; return ok }

func (g *pprGraph) link(a, b string) {
	if !slices.Contains(g.out[a], b) {
		g.out[a] = append(g.out[a], b)
	}
	if !slices.Contains(g.out[b], a) {
		g.out[b] = append(g.out[b], a)
	}
}

// splitItemIDs splits item ids into event seqs and fact ids.
func splitItemIDs(ids []string) (seqs []int64, facts []string) {
	for _, id := range ids {
		if seq := seqOfItem(id); seq > 0 {
			seqs = append(seqs, seq)
		} else if f, ok := strings.CutPrefix(id, "fact:"); ok {
			facts = append(facts, f)
		}
	}
	return seqs, facts
}

// loadPPRGraph loads the seeds' neighbourhood breadth-first: m.PPRHops rounds of entities →
// items → entities, then the last entities' items, within budget nodes (m.PPRNodeBudget).
func loadPPRGraph(ctx context.Context, q pgexec.Executor, m *Mechanism, space string, seed map[string]float64, asOf time.Time, budget int) (*pprGraph, error) {
	g := &pprGraph{out: map[string][]string{}, degree: map[string]float64{}, items: map[string]bool{}}
	// est is a one-step push estimate of each node's mass, to keep the likeliest nodes when the
	// budget cuts a frontier.
	est := map[string]float64{}
	var frontier []string
	for e, w := range seed {
		est[e] = w
		frontier = append(frontier, e)
	}
	frontier = g.admit(frontier, est, min(budget, m.PPRFrontier))
	for hop := 0; hop < m.PPRHops && len(frontier) > 0; hop++ {
		// Entities → items.
		rows, err := queries.PprEntityItems(ctx, q, dbsqlc.PprEntityItemsParams{SpaceID: space, AsOf: asOf, EntityIDs: frontier, Fanout: int32(m.PPRFanout)})
		if err != nil {
			return nil, err
		}
		var next []string
		for _, row := range rows {
			g.degree[row.EntityID] = float64(row.Degree)
			if !g.has(row.ItemID) && est[row.ItemID] == 0 {
				next = append(next, row.ItemID)
			}
			est[row.ItemID] += est[row.EntityID] / float64(max(row.Degree, 1))
		}
		kept := g.admit(next, est, budget-len(g.out))
		for _, row := range rows {
			if g.has(row.ItemID) {
				g.items[row.ItemID] = true
				g.link(row.EntityID, row.ItemID)
			}
		}
		if hop == m.PPRHops-1 || len(kept) == 0 {
			// The last hop's items are leaves: their other entities are not loaded, and the
			// mass that would go there leaks. Their degree is still asked for, below.
			frontier = kept
			break
		}
		// Items → entities.
		seqs, facts := splitItemIDs(kept)
		links, err := queries.PprItemEntities(ctx, q, dbsqlc.PprItemEntitiesParams{SpaceID: space, Seqs: seqs, FactIds: facts})
		if err != nil {
			return nil, err
		}
		next = next[:0]
		perItem := map[string]int{}
		for _, l := range links {
			perItem[l.ItemID]++
		}
		for _, l := range links {
			g.degree[l.ItemID] = float64(perItem[l.ItemID])
			if !g.has(l.EntityID) && est[l.EntityID] == 0 {
				next = append(next, l.EntityID)
			}
			est[l.EntityID] += est[l.ItemID] / float64(perItem[l.ItemID])
		}
		frontier = g.admit(next, est, min(budget-len(g.out), m.PPRFrontier))
		for _, l := range links {
			if g.has(l.EntityID) {
				g.link(l.ItemID, l.EntityID)
			}
		}
	}
	// Every node's degree is at least its loaded neighbours; a leaf item's unknown degree is
	// taken as its loaded neighbours (its step goes back to them).
	for n, nb := range g.out {
		g.degree[n] = max(g.degree[n], float64(len(nb)))
	}
	return g, nil
}

// admit adds up to budget of the candidate nodes to g, the highest estimates first (ties by
// id), and returns those it added.
func (g *pprGraph) admit(cands []string, est map[string]float64, budget int) []string {
	slices.SortFunc(cands, func(a, b string) int {
		if est[a] != est[b] {
			return cmp.Compare(est[b], est[a])
		}
		return cmp.Compare(a, b)
	})
	cands = slices.Compact(cands)
	if budget < 0 {
		budget = 0
	}
	cands = cands[:min(len(cands), budget)]
	for _, n := range cands {
		if !g.has(n) {
			g.out[n] = nil
		}
	}
	return cands
}

// walkPPR iterates personalized PageRank on g: mass = r·seed + (1-r)·(mass spread over each
// node's degree), the seeds normalized to sum 1, until it settles or m.PPRIterations. It works on
// dense indexes (nodes sorted by id, so the floating-point sums are the same every run).
func walkPPR(m *Mechanism, g *pprGraph, seed map[string]float64) map[string]float64 {
	nodes := make([]string, 0, len(g.out))
	for n := range g.out {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	index := make(map[string]int32, len(nodes))
	for i, n := range nodes {
		index[n] = int32(i)
	}
	restart := make([]float64, len(nodes))
	total := 0.0
	for n, w := range seed {
		if i, ok := index[n]; ok {
			restart[i] = w
			total += w
		}
	}
	if total == 0 {
		return nil
	}
	// Each node's neighbours, in id order, and its step share: d / degree.
	adj := make([][]int32, len(nodes))
	share := make([]float64, len(nodes))
	for i, n := range nodes {
		for _, nb := range g.out[n] {
			adj[i] = append(adj[i], index[nb])
		}
		slices.Sort(adj[i])
		if len(adj[i]) > 0 {
			share[i] = (1 - m.PPRRestart) / g.degree[n]
		}
	}
	mass := make([]float64, len(nodes))
	for i := range restart {
		restart[i] /= total
		mass[i] = restart[i]
	}
	next := make([]float64, len(nodes))
	for range m.PPRIterations {
		for i, w := range restart {
			next[i] = m.PPRRestart * w
		}
		for i, m := range mass {
			if m == 0 || share[i] == 0 {
				continue
			}
			step := m * share[i]
			for _, j := range adj[i] {
				next[j] += step
			}
		}
		diff := 0.0
		for i := range mass {
			diff += math.Abs(next[i] - mass[i])
		}
		mass, next = next, mass
		if diff < 1e-9 {
			break
		}
	}
	out := make(map[string]float64, len(nodes))
	for i, m := range mass {
		if m > 0 {
			out[nodes[i]] = m
		}
	}
	return out
}
