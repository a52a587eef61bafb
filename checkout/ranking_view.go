package checkout

// usedPolicy is the retrieval policy rk was ranked with. The weave and the prospective pass
// read a ranking only through the methods of this file.
func (rk *ranking) usedPolicy() *Policy { return rk.policy }

// usedQuestion is the question rk answered, analysed once.
func (rk *ranking) usedQuestion() *question { return rk.question }

// usedPurpose is the purpose rk was ranked for (asked or inferred).
func (rk *ranking) usedPurpose() string { return rk.purpose }

// count is the tokens s takes under the request's tokenizer.
func (rk *ranking) count(s string) int { return rk.tok.Count(s) }

// fetchedItems are the items rk fetched for its candidates, by item id.
func (rk *ranking) fetchedItems() map[string]*rankedItem { return rk.items }

// rankedEvents are the events of rk's best n fused candidates, best first, with each one's
// place among them (0 is the best): an event item is its seq, a fact item the events it cites
// (an item's repeats are not ranked events of their own). A candidate whose item was not
// fetched counts towards n and brings no event.
func (rk *ranking) rankedEvents(n int) ([]int64, map[int64]int) {
	rankOf := map[int64]int{}
	var seqs []int64
	for i, c := range rk.fused {
		if i == n {
			break
		}
		it := rk.items[c.itemID]
		if it == nil {
			continue
		}
		for _, ct := range it.ownCitations() {
			if _, ok := rankOf[ct.Seq]; !ok {
				rankOf[ct.Seq] = len(seqs)
				seqs = append(seqs, ct.Seq)
			}
		}
	}
	return seqs, rankOf
}

// replyAnswers are the events of the reply lane's best n hits among rk's fused candidates, each
// with its rank in that lane (1 is the best); nil when n is 0. The reply lane ranks an answer by
// the question before it, and fusion sets a hit only that lane ranks below events several
// lanes rank.
func (rk *ranking) replyAnswers(n int) map[int64]int {
	if n <= 0 {
		return nil
	}
	out := map[int64]int{}
	for _, c := range rk.fused {
		reply, ok := c.components[LaneReply]
		it := rk.items[c.itemID]
		if !ok || reply.Rank > n || it == nil {
			continue
		}
		for _, ct := range it.ownCitations() {
			out[ct.Seq] = reply.Rank
		}
	}
	return out
}
