package checkout

import "time"

// lineWhoWhen opens an event's line when a checkout asks for who_when (Request.WhoWhen): the
// UTC day the event happened and, for a message, who said it, its speaker (data.name, else
// the actor) or else its role: "2023-05-08 Caroline: ", "2026-03-02 user: "; the day alone
// for another event ("2026-03-02 " before a tool call's output). Lines are ranked, not in time order, and a text says neither who said it
// nor when ("Thanks! I painted it after my visit"), which a model answering from the packet
// needs.
func lineWhoWhen(at time.Time, kind, speaker, role string) string {
	s := at.UTC().Format(time.DateOnly) + " "
	switch {
	case kind != "message":
	case speaker != "":
		s += speaker + ": "
	case role != "":
		s += role + ": "
	}
	return s
}
