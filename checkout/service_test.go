package checkout_test

import (
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/checkout"
)

// A checkout's lanes run concurrently, each on a connection of its own; on one connection or
// transaction they failed with "conn busy". New says so in its type: it takes a pool, and a
// pgx.Tx or *pgx.Conn does not compile.
func TestNew_TakesAPool(t *testing.T) {
	require.Equal(t, reflect.TypeFor[*pgxpool.Pool](), reflect.TypeOf(checkout.New).In(0))
}
