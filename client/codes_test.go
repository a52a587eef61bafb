package client_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCodes_MatchTheServer fails when the server (package api, the one place errors become
// codes) answers a code that client/codes.go has no constant for, or a constant names a code
// the server never answers.
func TestCodes_MatchTheServer(t *testing.T) {
	server := map[string]bool{}
	files, err := filepath.Glob(filepath.Join("..", "api", "*.go"))
	require.NoError(t, err)
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "code" {
					if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						code, err := strconv.Unquote(lit.Value)
						require.NoError(t, err)
						server[code] = true
					}
				}
			}
			return true
		})
	}
	require.Contains(t, server, "invalid_request", "the parse found the server's codes")

	src, err := os.ReadFile("codes.go")
	require.NoError(t, err)
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", src, 0)
	require.NoError(t, err)
	constants := map[string]bool{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				require.True(t, strings.HasPrefix(name.Name, "Code"), name.Name)
				code, err := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
				require.NoError(t, err)
				require.False(t, constants[code], "%s repeats a code", name.Name)
				constants[code] = true
			}
		}
	}
	var missing, stale []string
	for code := range server {
		if !constants[code] {
			missing = append(missing, code)
		}
	}
	for code := range constants {
		if !server[code] {
			stale = append(stale, code)
		}
	}
	slices.Sort(missing)
	slices.Sort(stale)
	require.Empty(t, missing, "codes the server answers without a constant in client/codes.go")
	require.Empty(t, stale, "constants in client/codes.go for codes the server never answers")
}
