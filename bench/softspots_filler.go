package bench

import "strings"

// ssTopic is a filler conversation topic: what a user asks and what an assistant answers.
type ssTopic struct {
	asks, followUps, answers []string
}

// ssTopics are everyday assistant conversations that carry the sets' statements in passing
// and fill the haystack around them.
var ssTopics = []ssTopic{
	{asks: []string{"Can you help me write an email to my landlord about the heating not working?", "I need to draft a polite note asking my landlord to fix the radiator."},
		followUps: []string{"Could you make it a bit firmer?", "Can you shorten it to three sentences?"},
		answers:   []string{"Here is a draft that states the problem, when it started and what you need.", "Mention the date you first noticed the issue so there is a clear record.", "Ask for a repair date rather than an open-ended promise.", "Keep the tone factual; landlords respond better to specifics than to frustration.", "You can close by thanking them and offering times when you are home."}},
	{asks: []string{"How does compound interest actually work?", "Can you explain the difference between APR and APY?"},
		followUps: []string{"So how much would 5000 grow to in ten years at 4 percent?", "Is monthly compounding much better than yearly?"},
		answers:   []string{"Compound interest is interest earned on both the principal and the interest already added.", "The more often interest compounds, the faster the balance grows, though the effect shrinks at higher frequencies.", "At 4 percent compounded yearly, 5000 becomes roughly 7400 after ten years.", "APY includes the effect of compounding while APR does not.", "For comparing savings accounts, APY is the more honest number."}},
	{asks: []string{"What's a good way to organise files on my laptop?", "My downloads folder is a mess, how should I sort it?"},
		followUps: []string{"Should I use tags or folders?", "How often should I clean it up?"},
		answers:   []string{"Start with a small number of top-level folders by area of life: work, personal, finances, archive.", "Name files with a date prefix like 2025-03-14 so they sort chronologically.", "Tags help when a file belongs in two places; folders are simpler to keep up.", "A ten-minute tidy every Friday keeps the downloads folder from growing again.", "Move anything older than a year into the archive folder."}},
	{asks: []string{"How do I get a stubborn stain out of a wool sweater?", "What's the safest way to wash a wool jumper?"},
		followUps: []string{"Can I use vinegar?", "What about drying it?"},
		answers:   []string{"Blot the stain with cold water first; hot water can set protein stains.", "Use a wool-specific detergent and keep the water lukewarm.", "A little white vinegar in the rinse helps remove detergent residue.", "Dry it flat on a towel, reshaping it while damp, never on a radiator.", "Avoid wringing; press the water out instead."}},
	{asks: []string{"Can you explain how a mortgage offset account works?", "What does it mean to refinance a loan?"},
		followUps: []string{"Is it worth it for a small balance?", "What fees should I watch for?"},
		answers:   []string{"An offset account reduces the loan balance on which interest is charged by the amount you hold in it.", "Refinancing replaces an existing loan with a new one, usually for a better rate or terms.", "Watch for break fees, valuation fees and application fees.", "The benefit depends on how long you keep the new loan.", "A comparison rate includes most fees and is a better guide than the headline rate."}},
	{asks: []string{"What are some tips for a job interview next week?", "How should I prepare for a panel interview?"},
		followUps: []string{"How do I answer the weakness question?", "What should I ask them at the end?"},
		answers:   []string{"Research the organisation and prepare two or three examples in the situation, task, action, result form.", "For the weakness question, name a real one and what you are doing about it.", "Ask about what success looks like in the first six months.", "Arrive ten minutes early and bring a printed copy of your resume.", "Follow up with a short thank-you note the same day."}},
	{asks: []string{"Can you summarise the main causes of the French Revolution?", "Why did the Roman Republic fall?"},
		followUps: []string{"Which of those mattered most?", "Can you give me a short reading list?"},
		answers:   []string{"Historians usually point to fiscal crisis, social inequality and new political ideas together.", "No single cause explains it; the pressures reinforced each other.", "Long wars and debt left the state unable to reform on its own terms.", "A short survey book is a better start than a long narrative history.", "Primary sources in translation are worth sampling once you have the outline."}},
	{asks: []string{"How do I set up a monthly budget?", "What's the 50/30/20 budgeting rule?"},
		followUps: []string{"Where do savings go in that?", "What app would track it?"},
		answers:   []string{"The 50/30/20 rule splits take-home pay into needs, wants and savings.", "List fixed costs first, then variable ones, then decide what is left to save.", "Automating the transfer to savings on payday makes the plan stick.", "A spreadsheet works as well as an app if you update it weekly.", "Review the categories after the first month; estimates are usually off."}},
	{asks: []string{"My houseplant's leaves are turning yellow, what's wrong?", "How often should I water a fiddle leaf fig?"},
		followUps: []string{"Should I repot it?", "Does it need more light?"},
		answers:   []string{"Yellow leaves most often mean overwatering; check whether the soil stays wet.", "Water when the top few centimetres of soil are dry.", "Repot only when roots circle the pot, and in spring.", "Bright indirect light suits most indoor plants.", "Drainage holes matter more than the watering schedule."}},
	{asks: []string{"Can you help me plan a baby shower for my cousin?", "What games work well at a small birthday party for adults?"},
		followUps: []string{"How many people should I invite?", "What about decorations on a budget?"},
		answers:   []string{"Pick a date and a guest list first; everything else follows from the headcount.", "Simple games that let people mingle work better than long structured ones.", "Paper decorations and a few plants look good and cost little.", "Send invitations three to four weeks ahead.", "Ask one or two people to help with setup so you can enjoy it."}},
	{asks: []string{"What's the best way to learn basic Spanish in three months?", "How can I keep up a language I learned at school?"},
		followUps: []string{"How many minutes a day is enough?", "Are flashcards worth it?"},
		answers:   []string{"Short daily practice beats long weekly sessions for vocabulary.", "Spaced-repetition flashcards are efficient for words, less so for grammar.", "Listening to slow podcasts builds comprehension early.", "Speaking with a tutor once a week keeps you honest about progress.", "Twenty minutes a day is enough to make steady gains."}},
	{asks: []string{"How do I fix a dripping kitchen tap?", "Why does my bathroom door keep sticking?"},
		followUps: []string{"Do I need special tools?", "Should I just call a plumber?"},
		answers:   []string{"Turn off the water supply under the sink before you start.", "A dripping tap usually needs a new washer or cartridge.", "Take the old part to the hardware shop so you buy the right size.", "A sticking door often means the hinges have loosened; tighten the screws first.", "If the valve is corroded, a plumber is the safer choice."}},
	{asks: []string{"Can you explain what inflation means for my savings?", "What is a stock index fund?"},
		followUps: []string{"Is that risky?", "How do fees affect it over time?"},
		answers:   []string{"Inflation lowers what a fixed amount of money can buy over time.", "An index fund holds the shares of a whole market index instead of picking stocks.", "Low fees compound in your favour over decades.", "Diversification reduces the risk of any one company failing.", "Money you need within a few years is better kept out of the stock market."}},
	{asks: []string{"How do I write a good cover letter?", "Can you proofread my LinkedIn summary?"},
		followUps: []string{"Is it too long?", "Should I mention my career break?"},
		answers:   []string{"Open with why this role, then one or two concrete achievements.", "Keep it under a page and match its words to the job description.", "A career break can be one neutral sentence; you need not explain it at length.", "End with a clear line about your availability.", "Read it aloud once; awkward sentences stand out."}},
}

// fillerSession is a conversation on a random topic; carry, when set, is appended to the
// user's first message (a statement made in passing).
func (g *ssGen) fillerSession(carry string, keys ...string) ssSession {
	t := ssTopics[g.r.IntN(len(ssTopics))]
	first := g.one(t.asks)
	if carry != "" {
		if g.r.IntN(2) == 0 {
			first = carry + " " + first
		} else {
			first = first + " " + carry
		}
	}
	s := ssSession{turns: []ssTurn{{role: "user", text: first, keys: keys}, {role: "assistant", text: g.answer(t)}}}
	for n := g.r.IntN(3); n > 0; n-- {
		s.turns = append(s.turns, ssTurn{role: "user", text: g.one(t.followUps)}, ssTurn{role: "assistant", text: g.answer(t)})
	}
	return s
}

// answer is three or four of a topic's answer sentences.
func (g *ssGen) answer(t ssTopic) string {
	idx := g.r.Perm(len(t.answers))
	n := 3 + g.r.IntN(2)
	parts := make([]string, 0, n)
	for _, i := range idx[:min(n, len(idx))] {
		parts = append(parts, t.answers[i])
	}
	return strings.Join(parts, " ")
}

// fillers adds n filler sessions.
func (g *ssGen) fillers(n int) {
	for range n {
		g.sessions = append(g.sessions, g.fillerSession(""))
	}
}
