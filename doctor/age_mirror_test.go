package doctor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/doctor"
	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/projection"
	"github.com/zaxy/zaxy/testcontainers"
)

func TestDoctor_AGEMirrorDivergenceIsReportedAndRebuildRepairsIt(t *testing.T) {
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	pool, admin := db.AppPool(t), db.AdminPool(t)
	store := eventloom.NewStore(pool, nil, nil)
	proj, err := projection.New(ctx, pool, projection.Config{})
	require.NoError(t, err)
	for _, space := range []string{"mirror-a", "mirror-b"} {
		_, err := store.Append(ctx, &eventloom.AppendParams{SpaceID: space, Events: []eventloom.NewEvent{
			{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Alice","predicate":"works at","object":"Acme"}`)},
			{Type: "fact.asserted", Data: json.RawMessage(`{"subject":"Alice","predicate":"age","value":41}`)},
		}})
		require.NoError(t, err)
		_, err = proj.ProjectSpace(ctx, space)
		require.NoError(t, err)
	}
	mirror := func() doctor.Check {
		return check(t, doctor.Run(ctx, pool, doctor.Options{}), "age_mirror")
	}
	c := mirror()
	require.Equal(t, doctor.StatusOK, c.Status, c.Message)
	require.Contains(t, c.Message, "2 spaces")

	// Behind the service's back: delete a's vertices and edges, rename a node of b.
	graph := func(space string) string {
		var g string
		require.NoError(t, admin.QueryRow(ctx, `SELECT graph_name FROM age_graphs WHERE space_id = $1`, space).Scan(&g))
		return g
	}
	_, err = admin.Exec(ctx, fmt.Sprintf(`DELETE FROM %[1]s."FACT"; DELETE FROM %[1]s."Entity"`, graph("mirror-a")))
	require.NoError(t, err)
	c = mirror()
	require.Equal(t, doctor.StatusFail, c.Status)
	require.Contains(t, c.Message, "1 of 2 spaces")
	require.Contains(t, c.Message, "mirror-a")
	require.Equal(t, "rebuild each from the log: zaxy rebuild --space mirror-a", c.Remedy)

	_, err = admin.Exec(ctx, fmt.Sprintf(`UPDATE %[1]s."Entity" SET properties = ag_catalog.agtype_build_map('name', 'Mallory')
		WHERE ctid = (SELECT ctid FROM %[1]s."Entity" LIMIT 1)`, graph("mirror-b")))
	require.NoError(t, err)
	c = mirror()
	require.Contains(t, c.Message, "2 of 2 spaces")

	for _, space := range []string{"mirror-a", "mirror-b"} {
		_, err = proj.Rebuild(ctx, space)
		require.NoError(t, err)
	}
	c = mirror()
	require.Equal(t, doctor.StatusOK, c.Status, c.Message)
}
