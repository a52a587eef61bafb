package checkout_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
	"github.com/zaxy/zaxy/embedding"
)

// rankTexts ranks query in space under the built-in policy version and returns the items' texts.
func rankTexts(t *testing.T, f *fixture, space, version, query string) []string {
	t.Helper()
	return rankTextsWith(t, f, space, checkout.BuiltinPolicyOf(version), query)
}

// rankTextsWith ranks query in space under policy p and returns the items' texts.
func rankTextsWith(t *testing.T, f *fixture, space string, p *checkout.Policy, query string) []string {
	t.Helper()
	svc := checkout.New(f.pool, f.store, checkout.Config{Embedder: embedding.NewOffline(), Policy: p})
	res, err := svc.Query(context.Background(), &checkout.Request{SpaceID: space, Query: query})
	require.NoError(t, err)
	var out []string
	for _, it := range res.Items {
		out = append(out, it.Text)
	}
	return out
}

// TestTastePrior_TheUsersOwnTasteOutranksTalkAboutTheTopic: a request for a recommendation
// shares its words with the assistant's general advice and with a friend's taste, not with the
// user's own dislike said in passing. Under builtin-7 the dislike ranks below them; under
// builtin-8 the taste prior lifts the user's own statement of taste above them.
func TestTastePrior_TheUsersOwnTasteOutranksTalkAboutTheTopic(t *testing.T) {
	f := newFixture(t)
	const space = "taste"
	own := "Before we start on the budget: I really can't stand horror films, so keep that in mind."
	f.append(t, space,
		said("s1", "user", own, 0),
		said("s1", "assistant", "Noted. For the budget, list your fixed costs first.", 1),
		said("s2", "user", "My flatmate has a film on every night, mostly thrillers.", 10),
		said("s2", "assistant", "A film a night is a lot; a watch list helps.", 11),
		said("s3", "user", "The film club meets on Thursday at the library.", 20),
		said("s3", "assistant", "Thursday at the library works; bring the film list.", 21),
	)
	f.index(t, space)
	q := "Can you recommend a film I could watch tonight?"
	seven, eight := rankTexts(t, f, space, "builtin-7", q), rankTexts(t, f, space, "builtin-8", q)
	require.Greater(t, slices.Index(seven, own), 2, "under builtin-7: %q", seven)
	require.Less(t, slices.Index(eight, own), slices.Index(seven, own), "under builtin-8: %q", eight)
}

// TestResolutionPrior_TheFixOutranksTheLogs: a question about how a failure was fixed shares
// the component's and the error's names with the logs pasted while debugging it, many times
// over, and few words with the turn that states the fix. Under builtin-8 two logs rank above
// the fix; under builtin-9 (the resolution prior at 2) it ranks among the first two.
func TestResolutionPrior_TheFixOutranksTheLogs(t *testing.T) {
	f := newFixture(t)
	const space = "resolution"
	fix := "Giving the client a 10 second deadline and passing the context through solved it."
	f.append(t, space,
		said("s1", "user", "uploader timeout again: level=error component=uploader msg=\"upload timeout\" uploader retry=3 uploader timeout", 0),
		said("s1", "assistant", "The uploader's http client has no deadline, so a slow peer holds it.", 1),
		said("s1", "assistant", fix, 2),
		said("s1", "user", "level=info component=uploader msg=\"upload ok\" uploader timeout=10s", 3),
		said("s2", "user", "level=warn component=uploader msg=\"slow upload\" uploader timeout nearly reached", 10),
	)
	f.index(t, space)
	q := "How did we fix the uploader timeout?"
	eight, nine := rankTexts(t, f, space, "builtin-8", q), rankTexts(t, f, space, "builtin-9", q)
	require.Greater(t, slices.Index(eight, fix), 1, "under builtin-8: %q", eight)
	require.Less(t, slices.Index(nine, fix), 2, "under builtin-9: %q", nine)
}

// uploaderLog is a pasted log of n lines about the uploader's timeouts.
func uploaderLog(intro string, n int) string {
	var b strings.Builder
	b.WriteString(intro + "\n\n")
	for i := range n {
		fmt.Fprintf(&b, "2025-03-0%d 10:%02d:07.614 level=error component=uploader msg=\"upload timeout\" uploader timeout retry=%d\n", 1+i%9, i, i%4)
	}
	return b.String()
}

// TestResolutionPrior_LiftsTheFixWhereTheQuestionWasFound: a space holds several fixes; the one
// asked about is said without the words of fixing ("I gave the client ..."), in the session
// whose pasted logs share the question's names. Lifting every stated fix in the space puts the
// other sessions' fixes above it; builtin-9 lifts only the statements inside the sessions the
// question's own words found and lowers the pasted logs, and the answer ranks first of the
// prose.
func TestResolutionPrior_LiftsTheFixWhereTheQuestionWasFound(t *testing.T) {
	f := newFixture(t)
	const space = "resolution-sessions"
	fix := "I gave the uploader's client a 10 second deadline and pass the context through; uploads finish now."
	f.append(t, space,
		said("s1", "user", uploaderLog("The uploader keeps timing out, here's the log:", 12), 0),
		said("s1", "assistant", "The uploader's http client has no deadline, so a slow peer holds it open until the timeout.", 1),
		said("s1", "assistant", fix, 2),
		said("s1", "user", uploaderLog("Re-ran it:", 8), 3),
		said("s2", "user", "The billing export skipped the last invoice of every page.", 10),
		said("s2", "assistant", "Fixed the billing export by ending the loop at the page's length.", 11),
		said("s3", "user", "The search page was slow for big accounts.", 20),
		said("s3", "assistant", "We fixed the search page by adding an index on account id.", 21),
		said("s4", "user", "The mailer dropped messages on a restart.", 30),
		said("s4", "assistant", "The mailer is fixed: the retry queue now keeps failed messages.", 31),
	)
	f.index(t, space)
	q := "How did we fix the uploader timeout?"
	everywhere := checkout.BuiltinPolicyOf("builtin-8")
	everywhere.ResolutionBoost = 2
	eight, anywhere, nine := rankTexts(t, f, space, "builtin-8", q), rankTextsWith(t, f, space, everywhere, q), rankTexts(t, f, space, "builtin-9", q)
	others := []string{"Fixed the billing export by ending the loop at the page's length.",
		"We fixed the search page by adding an index on account id.", "The mailer is fixed: the retry queue now keeps failed messages."}
	for _, o := range others {
		require.Less(t, slices.Index(anywhere, o), slices.Index(anywhere, fix), "lifted anywhere: %q", anywhere)
		require.Less(t, slices.Index(nine, fix), slices.Index(nine, o), "under builtin-9: %q", nine)
	}
	require.Less(t, slices.Index(nine, fix), 2, "under builtin-9: %q", nine)
	require.Less(t, slices.Index(nine, fix), slices.Index(eight, fix), "under builtin-8: %q", eight)
}

// TestActivityPrior_TheAskersAccountsOutrankTalkAboutTheTopic: a question that gathers what its
// asker did ("what have I read lately?") shares its words with requests and answers about the
// topic, and few with the asker's own accounts, each said in passing in a session about
// something else. Under builtin-9 the accounts rank below the talk about reading; under
// builtin-10 the activity prior lifts the asker's accounts of something done above it, and not
// a friend's account nor the asker's requests.
func TestActivityPrior_TheAskersAccountsOutrankTalkAboutTheTopic(t *testing.T) {
	f := newFixture(t)
	const space = "activity"
	accounts := []string{"Can you explain index funds to me? I finished Wolf Hall on the bus home.",
		"I finally read the last chapter of Middlemarch. How do I get wax out of a tablecloth?"}
	f.append(t, space,
		said("s1", "user", accounts[0], 0),
		said("s1", "assistant", "An index fund holds every share of an index, so its costs stay low.", 1),
		said("s2", "user", "Can you give me a short reading list for the summer?", 10),
		said("s2", "assistant", "For a summer reading list, mix one long novel with short essays; read a little every day.", 11),
		said("s3", "user", accounts[1], 20),
		said("s3", "assistant", "Freeze the wax, lift it off, then iron it between paper towels.", 21),
		said("s4", "user", "My friend told me about a novel she liked, sounded nice.", 30),
		said("s4", "assistant", "Novels friends recommend are a good way to find new authors.", 31),
		said("s5", "user", "How can I read more books every month?", 40),
		said("s5", "assistant", "Read twenty pages a day and keep a book with you; a reading habit grows from small steps.", 41),
	)
	f.index(t, space)
	q := "Which books have I read lately?"
	nine, ten := rankTexts(t, f, space, "builtin-9", q), rankTexts(t, f, space, "builtin-10", q)
	friend, answer := "My friend told me about a novel she liked, sounded nice.",
		"For a summer reading list, mix one long novel with short essays; read a little every day."
	for _, a := range accounts {
		require.Less(t, slices.Index(ten, a), slices.Index(nine, a), "under builtin-9: %q\nunder builtin-10: %q", nine, ten)
	}
	// The account that shares no word with the question ranks below the friend's and the
	// answer about reading under builtin-9, above them under builtin-10.
	for _, o := range []string{friend, answer} {
		require.Greater(t, slices.Index(nine, accounts[0]), slices.Index(nine, o), "under builtin-9: %q", nine)
		require.Less(t, slices.Index(ten, accounts[0]), slices.Index(ten, o), "under builtin-10: %q", ten)
	}
}
