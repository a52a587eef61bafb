package main

import "github.com/zaxy/zaxy/testcontainers"

// dbEnv is a getenv that points ZAXY_DATABASE_URL at the test database's app role and
// ZAXY_MODEL_DIR at a directory without weights (so the hashing embedder is chosen on any
// machine) and leaves everything else unset.
func dbEnv(db *testcontainers.Database) func(string) string {
	return func(k string) string {
		switch k {
		case "ZAXY_DATABASE_URL":
			return db.AppURL
		case "ZAXY_MODEL_DIR":
			// No pretrained weights: commands use the hashing embedder, whatever the machine has.
			return "/nonexistent/zaxy-models"
		}
		return ""
	}
}
