package checkout

// QueryEntityKeys are the entity keys a query could name, as the exact lane of
// FirstMechanismVersion looks them up: the graph.Key of every window of one to
// Mechanism.EntityKeyWords words, without single stop words. The feeling of knowing (package
// metamemory) matches them against a space's entity names.
func QueryEntityKeys(query string) []string {
	keys := queryKeys(query, mechanism1.EntityKeyWords)
	out := make([]string, 0, len(keys)/2)
	for i := 0; i < len(keys); i += 2 { // queryKeys pairs each key with the word it began at
		out = append(out, keys[i])
	}
	return out
}
