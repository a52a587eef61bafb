package bench

// ssDomain is a domain of taste: what a user can like, dislike or habitually do in it, and
// how a question asks for a recommendation in it without naming what was liked.
type ssDomain struct {
	likes, dislikes, habits, questions []string
}

var ssDomains = []ssDomain{
	{likes: []string{"spicy Sichuan dishes", "Ethiopian injera platters", "Neapolitan pizza", "Vietnamese pho", "Peruvian ceviche", "Korean barbecue"},
		dislikes:  []string{"anything with coriander", "heavy cream sauces", "raw onions", "overly sweet desserts"},
		habits:    []string{"I eat vegetarian on weekdays", "I never eat after 8pm", "I cook a big batch of food every Sunday"},
		questions: []string{"Can you recommend a place to eat out this Friday?", "Where should I take my friends for dinner this weekend?", "What should I order for takeout tonight?", "Any ideas for a new restaurant I could try?", "I'm hungry and out of ideas, what should I have for dinner?", "Suggest a lunch spot I'd enjoy."}},
	{likes: []string{"slow-burn Scandinavian crime dramas", "Studio Ghibli films", "old black-and-white screwball comedies", "nature documentaries", "heist movies", "space operas"},
		dislikes:  []string{"horror films", "reality TV", "anything with jump scares", "long superhero franchises"},
		habits:    []string{"I only watch something on Friday nights", "I watch with subtitles on", "I rewatch one favourite series every winter"},
		questions: []string{"What should I watch tonight?", "Can you suggest a film for a quiet evening in?", "Any series recommendations for the weekend?", "I have a free evening, what would I enjoy watching?", "Recommend something to stream later.", "What could I put on for movie night?"}},
	{likes: []string{"hard science fiction", "narrative nonfiction about history", "Japanese literary novels", "cozy mysteries", "essay collections", "epic fantasy series"},
		dislikes:  []string{"self-help books", "romance novels", "books over 600 pages", "celebrity memoirs"},
		habits:    []string{"I read on my commute every morning", "I only read paperbacks, never e-books", "I read before bed for half an hour"},
		questions: []string{"Can you recommend my next book?", "What should I read on my holiday?", "Any suggestions for something to read this month?", "I finished my last novel, what should I pick up next?", "What would I like to read next?", "Suggest a book for a long train ride."}},
	{likes: []string{"jazz piano trios", "80s synth-pop", "bluegrass", "Afrobeat", "baroque chamber music", "post-rock"},
		dislikes:  []string{"country music", "heavy metal", "auto-tuned pop", "EDM drops"},
		habits:    []string{"I listen to full albums start to finish", "I play records every Sunday morning", "I need instrumental music to focus at work"},
		questions: []string{"Can you suggest a playlist for my afternoon?", "Is there a concert I should go to this season?", "What music would I enjoy discovering?", "Recommend some albums for a long drive.", "What should I listen to while I work?", "Any artists you think I'd like?"}},
	{likes: []string{"hiking trips in the mountains", "quiet coastal towns", "cities with great museums", "long train journeys", "camping by lakes", "food-focused city breaks"},
		dislikes:  []string{"crowded beach resorts", "cruises", "long-haul flights", "package tours"},
		habits:    []string{"I always travel with just a carry-on", "I take one long trip every autumn", "I plan trips around local markets"},
		questions: []string{"Where should I go for my next vacation?", "Can you suggest a destination for a week off in spring?", "Any ideas for a long weekend getaway?", "Help me pick somewhere for my next trip.", "What kind of holiday would suit me this year?", "Recommend a place to visit in the autumn."}},
	{likes: []string{"bouldering", "trail running", "yoga classes", "open-water swimming", "cycling long distances", "kettlebell workouts"},
		dislikes:  []string{"treadmills", "crowded gyms", "team sports", "high-intensity interval classes"},
		habits:    []string{"I work out at 6am before work", "I stretch for ten minutes every evening", "I train three times a week, never more"},
		questions: []string{"Can you suggest a new way to stay active?", "What exercise routine would suit me?", "Any ideas for getting fit this spring?", "Recommend a workout I could start next week.", "What sport should I pick up?", "Help me plan my training for next month."}},
	{likes: []string{"light-roast pour-over coffee", "matcha lattes", "oolong tea", "cold brew", "chai with oat milk", "espresso tonics"},
		dislikes:  []string{"anything too sugary", "decaf", "flavoured syrups", "instant coffee"},
		habits:    []string{"I have my last caffeine before noon", "I grind my beans fresh each morning", "I drink tea in the afternoon"},
		questions: []string{"What should I get at the cafe tomorrow?", "Can you recommend a drink for my morning routine?", "Any suggestions for a new brewing setup?", "What would I enjoy ordering at a coffee shop?", "Recommend a gift set of drinks I'd like.", "What could I try instead of my usual morning drink?"}},
	{likes: []string{"cooperative board games", "strategy games with lots of planning", "word puzzles", "retro platformers", "deck-building games", "escape rooms"},
		dislikes:  []string{"first-person shooters", "games that take more than two hours", "party games with forfeits", "mobile games with ads"},
		habits:    []string{"I host a game night every other Thursday", "I play a crossword every morning", "I only game on weekends"},
		questions: []string{"Can you recommend a game for my next game night?", "What game should I buy next?", "Any ideas for something fun to play this weekend?", "Suggest a game I could play with friends.", "What would I enjoy playing?", "Recommend something to play on a rainy day."}},
	{likes: []string{"growing tomatoes and herbs", "succulents", "native wildflowers", "bonsai", "climbing roses", "vegetable raised beds"},
		dislikes:  []string{"plants that need daily watering", "lawns", "pesticides", "plants that attract wasps"},
		habits:    []string{"I garden on Saturday mornings", "I compost all our kitchen scraps", "I only buy plants from the local nursery"},
		questions: []string{"What should I plant on my balcony this spring?", "Can you suggest a gardening project for the summer?", "Any ideas for what to grow next?", "Recommend some plants I'd like.", "What would suit my garden this year?", "Help me choose something new to grow."}},
	{likes: []string{"long-form interview podcasts", "true crime podcasts", "podcasts about economics", "comedy panel shows", "science explainers", "audio dramas"},
		dislikes:  []string{"podcasts with lots of ads", "political shouting matches", "episodes over two hours", "celebrity gossip"},
		habits:    []string{"I listen at 1.5x speed", "I listen while walking the dog", "I listen to one episode every night while cooking"},
		questions: []string{"Can you recommend a podcast for my walks?", "What should I listen to on my commute?", "Any new shows to subscribe to?", "What audio would I enjoy this week?", "Suggest something to listen to while I cook.", "Recommend a series to binge on a long drive."}},
	{likes: []string{"watercolour painting", "pottery", "knitting", "woodworking", "film photography", "calligraphy"},
		dislikes:  []string{"crafts with glitter", "anything that needs a big studio", "expensive hobbies", "sewing machines"},
		habits:    []string{"I make something by hand every weekend", "I set aside Wednesday evenings for my hobby", "I take one evening class each term"},
		questions: []string{"Can you suggest a creative class to take?", "What new hobby would I enjoy?", "Any ideas for a weekend craft project?", "Recommend a workshop I could sign up for.", "What could I make for my mother's birthday?", "Help me find a creative outlet for the winter."}},
}

// Statements of a taste, said in passing; {v} is the value.
var (
	ssLikeSay = []string{
		"By the way, I've been really into {v} lately.",
		"Honestly, nothing beats {v} for me.",
		"{V} are my absolute favourite, always have been.",
		"I've been hooked on {v} for a few months now.",
		"Side note: {v} is pretty much all I want these days.",
		"My partner teases me because I'm obsessed with {v}.",
		"I keep coming back to {v}, they never get old.",
		"Lately I can't get enough of {v}.",
		"If it were up to me it would always be {v}.",
	}
	ssDislikeSay = []string{
		"Just so you know, I really can't stand {v}.",
		"I'm not a fan of {v} at all.",
		"{V} just isn't for me.",
		"Please keep in mind I avoid {v}.",
		"I've never liked {v}, honestly.",
		"Whatever you do, no {v} for me.",
		"I stay away from {v} whenever I can.",
		"Ugh, {v} really put me off.",
		"I find {v} unbearable.",
	}
	ssHabitSay = []string{
		"For context, {v}.",
		"Worth knowing: {v}.",
		"Just a bit of background, {v}.",
		"{V}, which is why I'm asking.",
		"{V}, it's a routine I stick to.",
		"Ever since last year {v}.",
	}
	ssOtherSay = []string{
		"My brother is obsessed with {v}, which I don't get.",
		"My flatmate keeps telling me about {v}.",
		"A colleague of mine swears by {v}.",
		"My sister loves {v} but I've never tried it.",
	}
)

// say fills a statement template, with {V} capitalised.
func say(tmpl, v string) string { return fill(tmpl, "v", v, "V", capFirst(v)) }

// preferenceCase: five domains, each stated once or twice in passing (a like, and a dislike
// or a habit, in different sessions), someone else's taste in the same domain as a decoy, and
// one recommendation question per domain whose evidence is the user's own statements.
func (g *ssGen) preferenceCase() {
	order := g.r.Perm(len(ssDomains))
	for qi, di := range order[:5] {
		d := ssDomains[di]
		key := "pref" + string(rune('a'+qi))
		like := g.fresh(d.likes)
		g.sessions = append(g.sessions, g.fillerSession(say(g.phrase(ssLikeSay), like), key))
		switch g.r.IntN(3) {
		case 0:
			g.sessions = append(g.sessions, g.fillerSession(say(g.phrase(ssDislikeSay), g.fresh(d.dislikes)), key))
		case 1:
			g.sessions = append(g.sessions, g.fillerSession(say(g.phrase(ssHabitSay), g.fresh(d.habits)), key))
		}
		g.sessions = append(g.sessions, g.fillerSession(say(g.one(ssOtherSay), g.fresh(d.likes))))
		g.questions = append(g.questions, ssQuestion{typ: SoftSpotPreference, text: g.phrase(d.questions), keys: []string{key}})
	}
	g.fillers(14)
}
