package main

import "github.com/zaxy/zaxy/testcontainers"

// dbEnv is a getenv that points ZAXY_DATABASE_URL at the test database's app role and
// leaves everything else unset.
func dbEnv(db *testcontainers.Database) func(string) string {
	return func(k string) string {
		if k == "ZAXY_DATABASE_URL" {
			return db.AppURL
		}
		return ""
	}
}
