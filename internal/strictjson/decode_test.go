package strictjson_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/internal/strictjson"
)

func TestDecodeObject_ReturnsTheFieldsAsWritten(t *testing.T) {
	fields, err := strictjson.DecodeObject([]byte(` {"a": 1, "b": {"c": [true, null]}} `))
	require.NoError(t, err)
	require.Equal(t, map[string]json.RawMessage{"a": json.RawMessage(`1`), "b": json.RawMessage(`{"c": [true, null]}`)}, fields)

	fields, err = strictjson.DecodeObject([]byte(`{}`))
	require.NoError(t, err)
	require.NotNil(t, fields, "an empty object has no fields, not a nil map")
	require.Empty(t, fields)
}

func TestDecodeObject_RefusesWhatIsNotAStrictObject(t *testing.T) {
	// "\v", "\f" and U+00A0 are spaces to bytes.TrimSpace but no JSON whitespace.
	for _, in := range []string{``, `  `, `null`, `[1]`, `"x"`, `7`, "\v{}", "\f{}", "\u00a0{}"} {
		_, err := strictjson.DecodeObject([]byte(in))
		require.ErrorIs(t, err, strictjson.ErrNotObject, "%q", in)
	}

	_, err := strictjson.DecodeObject([]byte(`{"a": 1} trailing`))
	var syntax *strictjson.SyntaxError
	require.ErrorAs(t, err, &syntax)
	require.Equal(t, "invalid character 't' after top-level value (at byte 10)", err.Error())

	_, err = strictjson.DecodeObject([]byte(`{"a": {"b": 1, "b": 2}}`))
	var se *strictjson.Error
	require.ErrorAs(t, err, &se, "a duplicate key is refused, not silently dropped")
	require.Equal(t, "a.b", se.Path)
}

func TestValid_GivesTheSyntaxErrorWithItsOffset(t *testing.T) {
	require.NoError(t, strictjson.Valid([]byte(`[1, {"a": "b"}]`)))
	err := strictjson.Valid([]byte(`{"a": x}`))
	require.EqualError(t, err, "invalid character 'x' looking for beginning of value (at byte 7)")
	err = strictjson.Valid([]byte(`{"a": `))
	require.EqualError(t, err, "unexpected end of JSON input (at byte 6)")
}

func TestDecode_NamesTheFieldOfEveryError(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type Embedded struct {
		Max int `json:"max_tokens"`
	}
	type body struct {
		Embedded
		Name  string `json:"name"`
		Inner inner  `json:"inner"`
	}
	tests := []struct {
		in, path, message string
	}{
		{`{"name": 3}`, "name", "must be a string"},
		{`{"inner": {"n": "x"}}`, "inner.n", "must be an integer"},
		{`{"max_tokens": true}`, "max_tokens", "must be an integer"},
		{`{"nmae": "x"}`, "nmae", "is not a known field"},
		{`{"name": "a", "name": "b"}`, "name", "is a duplicate key (each key may appear once in an object)"},
		{`{"name": "a"} {}`, "", "must hold exactly one JSON object"},
		{`{"name": `, "", "must be a JSON object: unexpected EOF"},
		{``, "", "must be a JSON object: EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var b body
			err := strictjson.Decode([]byte(tt.in), &b)
			var se *strictjson.Error
			require.True(t, errors.As(err, &se), "got %v", err)
			require.Equal(t, tt.path, se.Path)
			require.Equal(t, tt.message, se.Message)
		})
	}
	var b body
	require.NoError(t, strictjson.Decode([]byte(`{"name": "a", "max_tokens": 5, "inner": {"n": 2}}`), &b))
	require.Equal(t, body{Embedded: Embedded{Max: 5}, Name: "a", Inner: inner{N: 2}}, b)
}
