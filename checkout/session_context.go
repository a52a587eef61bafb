package checkout

// ComponentSession names the session context's part of an item's score in its components
// (beside the lanes' parts); its rank is 0.
const ComponentSession = "session"

// addSessionContext adds to each ranked item with a session share (Mechanism.SessionContextShare)
// times the score
// of the best other item of that session (items maps ids to fetched items; an item not fetched
// is left alone and does not count). It runs on the boosted scores, after the boosts, and
// shows in the item's components as the "session" part: an item's score is the sum of its
// lane components times its boosts, plus its session part.
func addSessionContext(share float64, fused []*scored, items map[string]*rankedItem) {
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
		if add := share * other; add > 0 {
			c.score += add
			c.components[ComponentSession] = Component{Weight: share, Score: add}
		}
	}
}
