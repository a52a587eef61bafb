package checkoutwire

// Cues are what the agent is doing when it checks out (task, repo, tool, phase and free keys): a
// flat object of short strings, compared with the cues events were appended with. An item whose
// event (a fact's: the event that recorded it) carries the same value under the same key is boosted
// (cueBoost, Mechanism.CueBoostPerMatch), and phase and tool steer the inferred purpose
// (cuePurpose).
type Cues map[string]string
