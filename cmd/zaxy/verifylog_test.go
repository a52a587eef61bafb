package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/zaxy/zaxy/eventloom"
	"github.com/zaxy/zaxy/testcontainers"
)

const verifylogScript = "../../tools/verifylog/verifylog.py"

// runVerifylog runs the independent Python verifier on a file and returns its exit status and
// output.
func runVerifylog(t *testing.T, path string, args ...string) (int, string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to run tools/verifylog/verifylog.py (it is part of the CI machine image): %v", err)
	}
	cmd := exec.Command(python, append([]string{verifylogScript}, append(args, path)...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if exitErr, ok := err.(*exec.ExitError); ok {
		return exitErr.ExitCode(), out.String()
	}
	require.NoError(t, err, out.String())
	return 0, out.String()
}

// variedEvents are append JSON lines meant to exercise every rule of the hashed bytes: unicode,
// escapes, nested data, numbers whose written form jsonb keeps or normalizes, empty and absent
// fields, explicit occurred_at in other zones, many keys of different lengths, one key at
// several depths. (Duplicate keys are refused when an append is decoded, so none reaches the
// log.)
func variedEvents() string {
	many := make([]string, 0, 40)
	for i := 0; i < 40; i++ {
		many = append(many, fmt.Sprintf("%q:%d", strings.Repeat(string(rune('z'-i%26)), 1+i%7)+fmt.Sprint(i), i))
	}
	lines := []string{
		`{"type":"message","content":"héllo wörld 😀 中文 עברית","data":{"role":"user","name":"Zoë"}}`,
		`{"type":"note.varied","content":"","data":{"nested":{"deeper":{"list":[1,[2,[3,{"k":"v"}]],{}],"empty":[]}},"t":true,"f":false,"n":null}}`,
		`{"type":"note.varied","content":"numbers","data":{"a":1.50,"b":1e3,"c":-0,"d":0.0001,"e":1E-7,"f":12345678901234567890,"g":-2.500e2,"h":[0.10,100]}}`,
		`{"type":"note.varied","content":"escapes \" \\ \t \n <&> \u2028 \u0001","data":{"s":"quote \" backslash \\ tab \t nl \n cr \r ff \f bs \b ctl \u001f del \u007f <b>&amp;</b> \u2028\u2029 \ud83d\ude00 slash /"},"cues":{"task":"t <1>","repo":"zaxy"}}`,
		`{"type":"note.varied","content":"many keys","data":{` + strings.Join(many, ",") + `},"cues":{"bb":1,"a":2,"ccc":3,"é":4,"z":5}}`,
		`{"type":"note.varied","session_id":"sess-1","actor":"agent:ann","content":"with session and actor","occurred_at":"2024-02-29T23:59:59.123456+05:30","data":{}}`,
		`{"type":"note.varied","content":"whole second in UTC","occurred_at":"2024-01-01T00:00:00Z"}`,
		`{"type":"note.varied","content":"one key at several depths","data":{"k":1,"x":{"k":2,"y":{"k":"last"}}}}`,
		`{"type":"note.varied","content":"  leading and trailing spaces  ","data":{"  key with spaces ":" value ","":"empty key"}}`,
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestVerifylog_IndependentVerifierAcceptsExportAndNamesTamperedSeq(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testcontainers.NewDatabase(t)
	getenv := dbEnv(db)
	var out, errOut bytes.Buffer
	// Two appends: a varied batch, then single events, so the chain spans transactions.
	require.Equal(t, 0, run(ctx, []string{"append", "--space", "vl", "--json"}, getenv, strings.NewReader(variedEvents()), &out, &errOut), errOut.String())
	for i := 0; i < 3; i++ {
		require.Equal(t, 0, run(ctx, []string{"append", "--space", "vl", "--type", "note.single", "--content", fmt.Sprintf("single %d", i)}, getenv, nil, &out, &errOut), errOut.String())
	}
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"replay", "--space", "vl"}, getenv, nil, &out, &errOut), errOut.String())
	export := out.String()
	lines := strings.Split(strings.TrimSuffix(export, "\n"), "\n")
	require.Len(t, lines, 12)

	dir := t.TempDir()
	write := func(name string, lines []string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
		return p
	}
	code, msg := runVerifylog(t, write("export.jsonl", lines))
	require.Equal(t, 0, code, msg)
	require.Contains(t, msg, "OK: space vl, 12 events, head seq 12")

	// The chain head zaxy verify reports must be where the export ends.
	out.Reset()
	require.Equal(t, 0, run(ctx, []string{"verify", "--space", "vl", "--json"}, getenv, nil, &out, &errOut), errOut.String())
	var v eventloom.VerifyResult
	require.NoError(t, json.Unmarshal(out.Bytes(), &v))
	require.Contains(t, msg, v.HeadHash.String())
	code, msg = runVerifylog(t, write("export.jsonl", lines), "--head-hash", v.HeadHash.String())
	require.Equal(t, 0, code, msg)

	// The same events re-encoded with Go's default HTML escaping (as JSON APIs often write
	// them) still verify: the rule is about the JSON value, not the escaping.
	escaped := make([]string, len(lines))
	for i, l := range lines {
		var e eventloom.Event
		require.NoError(t, json.Unmarshal([]byte(l), &e))
		b, err := json.Marshal(&e)
		require.NoError(t, err)
		escaped[i] = string(b)
	}
	require.NotEqual(t, lines, escaped, "the test data should contain characters Go escapes")
	code, msg = runVerifylog(t, write("escaped.jsonl", escaped))
	require.Equal(t, 0, code, msg)

	replace := func(i int, old, new string) []string {
		c := append([]string(nil), lines...)
		require.Contains(t, c[i], old)
		c[i] = strings.Replace(c[i], old, new, 1)
		return c
	}
	var prev struct {
		PrevHash string `json:"prev_hash"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[6]), &prev))
	cases := []struct {
		name   string
		lines  []string
		args   []string
		broken string
	}{
		{"content edited", replace(2, `"content":"numbers"`, `"content":"Numbers"`), nil, "BROKEN at seq 3: hash does not match"},
		{"number rewritten with another scale", replace(2, `"a":1.50`, `"a":1.5`), nil, "BROKEN at seq 3: hash does not match"},
		{"cue edited", replace(3, `"repo":"zaxy"`, `"repo":"zaxx"`), nil, "BROKEN at seq 4: hash does not match"},
		{"occurred_at moved", replace(5, `"occurred_at":"2024-02-29T18:29:59.123456Z"`, `"occurred_at":"2024-02-29T18:29:59.123457Z"`), nil, "BROKEN at seq 6: hash does not match"},
		{"prev_hash rewritten", replace(6, prev.PrevHash, strings.Repeat("0", 64)), nil, "BROKEN at seq 7: prev_hash does not match"},
		{"line removed", append(append([]string(nil), lines[:7]...), lines[8:]...), nil, "BROKEN at seq 8: seq 8 is missing"},
		{"lines swapped", append(append(append([]string(nil), lines[:3]...), lines[4], lines[3]), lines[5:]...), nil, "BROKEN at seq 4: seq 4 is missing"},
		{"end cut off", lines[:11], []string{"--head-hash", v.HeadHash.String()}, "BROKEN at seq 12:"},
		{"not JSON", replace(9, `{`, `{{`), nil, "BROKEN at seq 10: line 10 is not JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, msg := runVerifylog(t, write("tampered.jsonl", tc.lines), tc.args...)
			require.Equal(t, 1, code, msg)
			require.Contains(t, msg, tc.broken)
		})
	}
}
