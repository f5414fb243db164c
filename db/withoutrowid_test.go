package db_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPlanWritesAreMarked: the pre-update hook does not see the WITHOUT
// ROWID table of conditional moves, so every statement that writes it must
// go through execPlans, which marks the transaction; otherwise a plan read
// from memory would outlive its change.
func TestPlanWritesAreMarked(t *testing.T) {
	writes := regexp.MustCompile(`(?is)\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+conditional_moves\b`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			for _, a := range call.Args {
				lit, ok := a.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				q, err := strconv.Unquote(lit.Value)
				if err != nil || !writes.MatchString(q) {
					continue
				}
				found++
				if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "execPlans" {
					t.Errorf("%s: a write to conditional_moves not through execPlans", fset.Position(call.Pos()))
				}
			}
			return true
		})
	}
	if found == 0 {
		t.Fatal("no write to conditional_moves found: the check reads nothing")
	}
}
