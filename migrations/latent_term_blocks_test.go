package migrations_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
	"github.com/zaxy/zaxy/testcontainers/fixture"
	"github.com/zaxy/zaxy/topic"
)

// latentTermBlocksDown runs migration 000070's down file when latent_terms holds blocks, for
// tests of earlier migrations that read it a row a term.
func latentTermBlocksDown(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	var blocks bool
	require.NoError(t, pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_attribute
		WHERE attrelid = 'latent_terms'::regclass AND attname = 'block' AND NOT attisdropped)`).Scan(&blocks))
	if blocks {
		_, err := pool.Exec(ctx, readMigration(t, "000070_latent_term_blocks.down.sql"))
		require.NoError(t, err)
	}
}

// Migration 000070 stores the topic model's term vectors in blocks: the down migration gives
// the terms a rebuild's blocks hold as rows, converting them back keeps every term's vector
// (the codes as found, 8 bits a code) in blocks cut as a rebuild cuts them, and a rebuild
// after it writes the same blocks as before (6-bit codes).
func TestLatentTermBlocksMigration_SameBlocksAsARebuildAndSameRowsBack(t *testing.T) {
	ctx := context.Background()
	pool := testcontainers.NewDatabase(t).AdminPool(t)
	log := fixture.New(t, pool, projection.Config{})
	word := func(i int) string { return fmt.Sprintf("k%c%c%cz", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26) }
	for k, space := range []string{"zeta", "alpha"} {
		var events []eventloom.NewEvent
		for s := range 6 {
			for i := range 17 {
				var words []string
				for j := range 12 {
					words = append(words, word(k*50+s*200+i*6+j))
				}
				words = append(words, "harbour", "src/main.go", "K-9")
				events = append(events, eventloom.NewEvent{Type: "message", SessionID: fmt.Sprintf("s%d", s),
					Content: strings.Join(words, " "), Data: []byte(`{"role":"user"}`)})
			}
		}
		log.Append(t, space, events...)
		log.Project(t, space)
		res, err := topic.NewRefresher(pool, topic.DefaultParams).Refresh(ctx, space)
		require.NoError(t, err)
		require.True(t, res.Rebuilt)
	}
	rows := func(query string) []string {
		t.Helper()
		r, err := pool.Query(ctx, query)
		require.NoError(t, err)
		out, err := pgx.CollectRows(r, pgx.RowTo[string])
		require.NoError(t, err)
		return out
	}
	const blocks = `SELECT concat_ws('|', s.space_id, b.first_lexeme, encode(b.block, 'hex')) FROM latent_terms b JOIN spaces s USING (space_key) ORDER BY s.space_id, b.first_lexeme`
	const terms = `SELECT concat_ws('|', s.space_id, t.lexeme, t.scale, encode(t.q8, 'hex')) FROM latent_terms t JOIN spaces s USING (space_key) ORDER BY 1`
	const unpacked = `SELECT concat_ws('|', s.space_id, t.lexeme, t.scale, encode(t.q8, 'hex')) FROM latent_terms b JOIN spaces s USING (space_key), zaxy_latent_block_terms(b.block) t ORDER BY 1`
	built := rows(blocks)
	perSpace := map[string]int{}
	for _, b := range built {
		perSpace[strings.SplitN(b, "|", 2)[0]]++
	}
	require.Greater(t, perSpace["zeta"], 2, "several blocks a space")
	require.Greater(t, perSpace["alpha"], 2, "several blocks a space")
	listed := rows(unpacked)
	const topics = `SELECT concat_ws('|', space_id, session_id, vec::text) FROM latent_topics ORDER BY 1`
	folded := rows(topics)
	require.Len(t, folded, 12)

	_, err := pool.Exec(ctx, readMigration(t, "000070_latent_term_blocks.down.sql"))
	require.NoError(t, err)
	perTerm := rows(terms)
	require.Equal(t, listed, perTerm, "the down migration gives the terms the blocks hold")
	require.Contains(t, perTerm[0], "|")

	_, err = pool.Exec(ctx, readMigration(t, "000070_latent_term_blocks.up.sql"))
	require.NoError(t, err)
	require.Equal(t, listed, rows(unpacked), "the same terms and vectors")
	require.Equal(t, []string{"8"}, rows(`SELECT DISTINCT get_byte(block, 2)::text FROM latent_terms`), "8 bits a code as found")
	require.NotEqual(t, built, rows(blocks))
	_, err = pool.Exec(ctx, `DELETE FROM latent_topics`)
	require.NoError(t, err)
	for _, space := range []string{"zeta", "alpha"} {
		res, err := topic.NewRefresher(pool, topic.DefaultParams).Refresh(ctx, space)
		require.NoError(t, err)
		require.False(t, res.Rebuilt)
		require.Equal(t, 6, res.Topics)
	}
	require.Equal(t, folded, rows(topics), "topics folded from the 8-bit blocks are the rebuild's")

	// A rebuild after the migration writes the same blocks again.
	_, err = pool.Exec(ctx, `DELETE FROM latent_models`)
	require.NoError(t, err)
	for _, space := range []string{"zeta", "alpha"} {
		res, err := topic.NewRefresher(pool, topic.DefaultParams).Refresh(ctx, space)
		require.NoError(t, err)
		require.True(t, res.Rebuilt)
	}
	require.Equal(t, built, rows(blocks), "a rebuild writes 6-bit blocks again")
	require.Equal(t, []string{"6"}, rows(`SELECT DISTINCT get_byte(block, 2)::text FROM latent_terms`))

	latentTermBlocksDown(t, pool)
	require.Equal(t, perTerm, rows(terms))
}
