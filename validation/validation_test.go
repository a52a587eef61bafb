package validation_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/validation"
)

func TestError_NamesTheFieldAndMatchesErrInvalid(t *testing.T) {
	err := fmt.Errorf("append: %w", validation.Errorf("events[2].type", "must match %s", "^[a-z]+$"))
	require.ErrorIs(t, err, validation.ErrInvalid)
	var ve *validation.Error
	require.ErrorAs(t, err, &ve)
	require.Equal(t, "events[2].type", ve.Field)
	require.Equal(t, "append: events[2].type: must match ^[a-z]+$", err.Error())
	require.Equal(t, "too large", (&validation.Error{Message: "too large"}).Error())
	require.False(t, errors.Is(errors.New("invalid input"), validation.ErrInvalid))
}
