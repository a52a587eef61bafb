package bench

// ssGroup is a kind of thing a user mentions over time (purchases for one hobby, trips,
// books finished, ...): the mentions, said in passing, and the questions that need them all.
type ssGroup struct {
	items, says, asks []string
}

var ssGroups = []ssGroup{
	{items: []string{"a two-person tent for $240", "a down sleeping bag for $180", "a headlamp for $35", "a camp stove for $90", "trekking poles for $60"},
		says: []string{"I finally bought {v}.", "Picked up {v} at the outdoor shop yesterday.", "Just ordered {v} online.", "Treated myself to {v} last weekend."},
		asks: []string{"How much have I spent on camping gear so far?", "What outdoor equipment have I bought recently, and what did it cost in total?", "Can you add up what I've paid for my camping kit?"}},
	{items: []string{"Lisbon in March", "Kyoto in April", "Oslo in June", "Marrakesh in September", "Montreal in October"},
		says: []string{"I just got back from {v}.", "The trip to {v} was wonderful.", "Still recovering from jet lag after {v}.", "Photos from {v} are finally sorted."},
		asks: []string{"Which cities have I travelled to this year?", "List all the trips I've taken recently.", "Where have I been on holiday so far this year?"}},
	{items: []string{"finished 'The Overstory'", "finished 'Piranesi'", "finished 'Educated'", "finished 'The Remains of the Day'", "finished 'Project Hail Mary'"},
		says: []string{"I {v} last night.", "I {v} on the train this morning.", "Finally {v}, took me ages."},
		asks: []string{"How many books have I finished lately, and which ones?", "Which novels and memoirs have I read recently?", "What have I completed on my reading list so far?"}},
	{items: []string{"a 10k race in 52 minutes", "a half marathon in 1:58", "a 5k park run in 24 minutes", "a 15k trail race in 1:31"},
		says: []string{"I ran {v} on Sunday.", "Did {v}, new personal best!", "My legs are sore after {v}."},
		asks: []string{"What races have I run, and what were my times?", "Summarise my running results so far.", "Which events have I completed this season?"}},
	{items: []string{"Biscuit's vaccinations, $85", "Biscuit's dental cleaning, $310", "Biscuit's ear infection visit, $120", "Biscuit's annual check-up, $65"},
		says: []string{"We took the dog in for {v}.", "Vet bill today: {v}.", "Another vet trip, {v}."},
		asks: []string{"How much have the vet bills come to overall?", "What has my dog been to the vet for, and what did it cost?", "Total up what I've spent on the pet's health care."}},
	{items: []string{"a pottery class on Tuesdays", "a beginner Spanish course", "a first-aid certificate", "an evening photography workshop"},
		says: []string{"I signed up for {v}.", "Started {v} this week.", "Just enrolled in {v}."},
		asks: []string{"What courses and classes have I signed up for?", "List everything I've enrolled in lately.", "Which lessons am I taking at the moment?"}},
	{items: []string{"a cast-iron skillet for $45", "a stand mixer for $329", "a chef's knife for $120", "a pasta maker for $75"},
		says: []string{"Bought {v} for the kitchen.", "My new purchase: {v}.", "I caved and got {v}."},
		asks: []string{"What kitchen things have I bought, and for how much in all?", "How much did I spend on cookware recently?", "Add up my kitchen purchases for me."}},
	{items: []string{"the Hockney exhibition at the Tate", "a Radiohead concert", "a production of Hamlet at the Globe", "the jazz festival in the park"},
		says: []string{"Went to {v} on Saturday.", "Just saw {v}, what a night.", "Still thinking about {v}."},
		asks: []string{"What shows and exhibitions have I been to?", "Which cultural events have I attended recently?", "List the performances and exhibits I've seen."}},
}

// multiSessionCase: four groups, each mentioned two to four times in passing in as many
// sessions (plus a friend's mention as a decoy), and one question per group that needs every
// mention.
func (g *ssGen) multiSessionCase() {
	order := g.r.Perm(len(ssGroups))
	for qi, gi := range order[:4] {
		gr := ssGroups[gi]
		key := "group" + string(rune('a'+qi))
		items := g.r.Perm(len(gr.items))
		n := 2 + g.r.IntN(min(3, len(gr.items)-2))
		for _, it := range items[:n] {
			g.sessions = append(g.sessions, g.fillerSession(fill(g.phrase(gr.says), "v", gr.items[it]), key))
		}
		decoy := gr.items[items[n%len(items)]]
		g.sessions = append(g.sessions, g.fillerSession("My friend told me about "+decoy+", sounded nice."))
		g.questions = append(g.questions, ssQuestion{text: g.phrase(gr.asks), keys: []string{key}})
	}
	g.fillers(14)
}
