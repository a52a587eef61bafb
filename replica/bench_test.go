package replica

import (
	"context"
	"testing"

	"github.com/zaxy/zaxy/testcontainers"
)

// BenchmarkPick is the cost the consistency check adds to a read before its query: choosing
// the pool without standbys, with a token the last measurement already covers (no round
// trip), and without a token; plus parsing the header.
func BenchmarkPick(b *testing.B) {
	ctx := context.Background()
	st := &Standby{Name: "s"}
	st.observe(1 << 40)
	st.up.Store(true)
	with := NewSet(nil, []*Standby{st}, Config{})
	without := NewSet(nil, nil, Config{})
	b.Run("no-standbys", func(b *testing.B) {
		for b.Loop() {
			without.Pick(ctx, Token{LSN: 1})
		}
	})
	b.Run("covered-token", func(b *testing.B) {
		for b.Loop() {
			with.Pick(ctx, Token{LSN: 1 << 39})
		}
	})
	b.Run("no-token", func(b *testing.B) {
		for b.Loop() {
			with.Pick(ctx, Token{})
		}
	})
	b.Run("parse-header", func(b *testing.B) {
		for b.Loop() {
			if _, err := ParseToken("lsn:16/B374D848"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRoundTrip is what costs a round trip: a write's token (pg_current_wal_lsn on the
// primary, once per write when standbys are configured) and one poll of a standby's replay
// position (a read whose token the last measurement does not cover, every 10 ms while it
// waits).
func BenchmarkRoundTrip(b *testing.B) {
	ctx := context.Background()
	primary := testcontainers.StartCluster(b, "benchprim")
	db := primary.NewDatabase(b)
	pool := db.AppPool(b)
	standby := testcontainers.StartStandby(b, primary, testcontainers.StandbyOptions{})
	rpool := standby.Database(db).AppPool(b)
	s := NewSet(pool, nil, Config{})
	b.Run("write-token", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Token(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("standby-poll", func(b *testing.B) {
		for b.Loop() {
			if _, err := replayLSN(ctx, rpool); err != nil {
				b.Fatal(err)
			}
		}
	})
}
