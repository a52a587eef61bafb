package checkout

// sessionContextShare is how much of the best other item of its session an item's score gains. An
// item whose session holds other strong matches is more likely to be the one asked about than
// an equally scored stray turn elsewhere: a conversation about the topic. Measured on both dev
// sets (docs/benchmarks.md): with the best other item's 0.2 to 0.35, LoCoMo turn hit@10 rose
// from 0.758 to 0.762–0.766 and LongMemEval's packet from 0.931 to 0.948 (0.966 at 0.3); 0.5
// and more lowered LongMemEval recall_all@10 (whole sessions crowd out the evidence of the
// others). Measured again once the vector lane left speakers' names out, 0.2 / 0.25 / 0.3 /
// 0.35 gave LoCoMo 0.797 / 0.814 / 0.818 / 0.810 and LongMemEval R@10 0.931 / 0.948 / 0.948 /
// 0.931: 0.3 is the best of both sets in both sweeps. Taking the session's best item including
// the item itself only boosted each session's best, and was less stable.
const sessionContextShare = 0.3

// ComponentSession names the session context's part of an item's score in its components
// (beside the lanes' parts); its rank is 0.
const ComponentSession = "session"

// addSessionContext adds to each ranked item with a session sessionContextShare times the score
// of the best other item of that session (items maps ids to fetched items; an item not fetched
// is left alone and does not count). It runs last, on the boosted scores (run on the lanes'
// fused scores before the boosts it cost LongMemEval recall at every share tried, 0.15–0.5), and
// shows in the item's components as the "session" part: an item's score is the sum of its
// lane components times its boosts, plus its session part.
func addSessionContext(fused []*scored, items map[string]*Item) {
	best, second := map[string]float64{}, map[string]float64{}
	for _, c := range fused {
		it := items[c.itemID]
		if it == nil || it.SessionID == "" {
			continue
		}
		sid := it.SessionID
		switch {
		case c.score > best[sid]:
			second[sid], best[sid] = best[sid], c.score
		case c.score > second[sid]:
			second[sid] = c.score
		}
	}
	for _, c := range fused {
		it := items[c.itemID]
		if it == nil || it.SessionID == "" {
			continue
		}
		other := best[it.SessionID]
		if c.score == other {
			other = second[it.SessionID]
		}
		if add := sessionContextShare * other; add > 0 {
			c.score += add
			c.components[ComponentSession] = Component{Weight: sessionContextShare, Score: add}
		}
	}
}
