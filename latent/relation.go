package latent

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zaxy/zaxy/graph"
	"github.com/zaxy/zaxy/internal/pgexec"
	"github.com/zaxy/zaxy/latent/internal/dbsqlc"
)

// The nine relation kinds between artifacts (docs/latent.md, "Relations between artifacts").
// The first four are columns or sources of the artifacts; the other five are derived by the
// build into latent_relations. In the AGE mirror each is an edge label, the kind upper-cased.
const (
	// RelDerivedFrom: an artifact → each event it cites.
	RelDerivedFrom = "derived_from"
	// RelCovers: an artifact → each entity it covers.
	RelCovers = "covers"
	// RelSupersedes: an artifact → the stale artifact of its slot it replaces.
	RelSupersedes = "supersedes"
	// RelContradicts: an artifact → an artifact it contradicts (a changed preference).
	RelContradicts = "contradicts"
	// RelOccursIn: a causal link → each episode citing its cause or its effect.
	RelOccursIn = "occurs_in"
	// RelFollows: an episode → the episode of its session's previous segment.
	RelFollows = "follows"
	// RelExplains: a causal link → the failure pattern of its tool citing its effect.
	RelExplains = "explains"
	// RelSharesCause: a causal link → another causal link with the same cause event (both ways).
	RelSharesCause = "shares_cause"
	// RelWarns: a causal link → each procedure whose steps run the tool it saw fail.
	RelWarns = "warns"
)

// RelationKinds lists the nine kinds.
var RelationKinds = []string{RelDerivedFrom, RelCovers, RelSupersedes, RelContradicts, RelOccursIn, RelFollows,
	RelExplains, RelSharesCause, RelWarns}

// The ways Relations can read.
const (
	// ReadAGE reads through the space's AGE mirror with Cypher.
	ReadAGE = "age"
	// ReadTables reads the relational tables.
	ReadTables = "tables"
)

// errNoMirror is SQLSTATE ZX031: the space's AGE mirror cannot answer (migration 000061).
const errNoMirror = "ZX031"

// Relations returns every relation, of the nine kinds, with one of the space's artifacts ids
// at either end (relations to events and entities only from them), stale artifacts' included,
// sorted by kind, from, to, seq and entity. With viaAGE it reads through the space's AGE
// mirror, and falls back to the relational tables when AGE is not installed or the mirror
// cannot answer (the space was never mirrored, or its artifacts changed since the last
// sync); how it read is the second result. Both ways return the same relations
// (TestRelations_AGEAndTablesAgreeOnEveryKind).
func Relations(ctx context.Context, db pgexec.Executor, space string, ids []string, viaAGE bool) ([]Relation, string, error) {
	if len(ids) == 0 {
		return []Relation{}, ReadTables, nil
	}
	if viaAGE {
		rels, err := relationsAGE(ctx, db, space, ids)
		if err == nil {
			return rels, ReadAGE, nil
		}
		if !errors.Is(err, errMirrorCannotAnswer) {
			return nil, "", err
		}
	}
	rows, err := queries.RelationsTables(ctx, db, dbsqlc.RelationsTablesParams{SpaceID: space, Ids: ids})
	if err != nil {
		return nil, "", fmt.Errorf("read relations: %w", err)
	}
	out := make([]Relation, len(rows))
	for i, r := range rows {
		out[i] = Relation{Kind: r.Kind, From: r.FromID, To: r.ToID, ToSeq: r.ToSeq, ToEntity: r.ToEntity}
	}
	return out, ReadTables, nil
}

// errMirrorCannotAnswer means the AGE read was not possible and the tables should be read.
var errMirrorCannotAnswer = errors.New("the latent AGE mirror cannot answer")

// relationsAGE reads the relations through the AGE mirror (in a savepoint when db is a
// transaction, so a refused read leaves it usable).
func relationsAGE(ctx context.Context, db pgexec.Executor, space string, ids []string) ([]Relation, error) {
	installed, err := graph.AGEInstalled(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("check for AGE: %w", err)
	}
	if !installed {
		return nil, errMirrorCannotAnswer
	}
	var rows []dbsqlc.RelationsAGERow
	params := dbsqlc.RelationsAGEParams{SpaceID: space, Ids: ids}
	if _, inTx := db.(pgx.Tx); inTx {
		err = pgx.BeginFunc(ctx, db, func(sp pgx.Tx) error {
			var err error
			rows, err = queries.RelationsAGE(ctx, sp, params)
			return err
		})
	} else {
		rows, err = queries.RelationsAGE(ctx, db, params)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == errNoMirror {
		return nil, errMirrorCannotAnswer
	}
	if err != nil {
		return nil, fmt.Errorf("read relations through AGE: %w", err)
	}
	out := make([]Relation, len(rows))
	for i, r := range rows {
		out[i] = Relation{Kind: r.Kind, From: r.FromID, To: r.ToID, ToSeq: r.ToSeq, ToEntity: r.ToEntity}
	}
	return out, nil
}
