package views

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	templparser "github.com/a-h/templ/parser/v2"
)

// verbs returns the fmt verbs of a message, in order of their argument
// (explicit indexes resolved), as "1:d 2:s".
var verbRE = regexp.MustCompile(`%(\[(\d+)\])?[-+# 0]*[0-9]*(\.[0-9]+)?([a-zA-Z%])`)

func verbs(s string) string {
	var out []string
	next := 1
	for _, m := range verbRE.FindAllStringSubmatch(s, -1) {
		if m[4] == "%" {
			continue
		}
		n := next
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		next = n + 1
		out = append(out, strconv.Itoa(n)+":"+m[4])
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestCataloguesHaveEveryMessage: every catalogue reads, holds exactly
// the messages of the English one, with plural forms where English has
// them and the same values (fmt verbs) in every form.
func TestCataloguesHaveEveryMessage(t *testing.T) {
	if err := CatalogueError(); err != nil {
		t.Fatal(err)
	}
	en := catalogues["en"]
	if len(en.seen) == 0 {
		t.Fatal("the English catalogue is empty")
	}
	for _, l := range Languages {
		c := catalogues[l.Code]
		if c == nil {
			t.Fatalf("no catalogue for %s", l.Code)
		}
		for id, m := range en.seen {
			tm, ok := c.seen[id]
			if !ok {
				t.Errorf("%s.toml lacks %q", l.Code, id)
				continue
			}
			if en.plural[id] != c.plural[id] {
				t.Errorf("%s.toml: %q has plural forms in one catalogue and not in the other", l.Code, id)
			}
			want := verbs(m.Other)
			for form, text := range map[string]string{"zero": tm.Zero, "one": tm.One, "two": tm.Two, "few": tm.Few, "many": tm.Many, "other": tm.Other} {
				if text == "" {
					continue
				}
				// A "one" form may spell out the count ("une heure") and
				// so drop its verb.
				if got := verbs(text); got != want && !(form == "one" && strings.Contains(want, got)) {
					t.Errorf("%s.toml: %q (%s) has values %q, want %q like the English", l.Code, id, form, got, want)
				}
			}
			if tm.Other == "" {
				t.Errorf("%s.toml: %q is empty", l.Code, id)
			}
		}
		for id := range c.seen {
			if _, ok := en.seen[id]; !ok {
				t.Errorf("%s.toml has %q, which the English catalogue does not", l.Code, id)
			}
		}
	}
}

// callRE finds the messages given to the translating functions in Go and
// templ source: T(ctx, "…"), TN(ctx, "…", n), tr(c, "…"), trn(c, "…", n),
// and the formats of db.Errorf and db.TooMany, which the error handler
// translates.
var callRE = regexp.MustCompile("\\b(?:T|TN|tr|trn|Errorf|TooMany)\\(\\s*[\\w.]+(?:\\(\\))?,\\s*(\"(?:[^\"\\\\\\n]|\\\\.)*\"|`[^`]*`)")

// sourceFiles lists the non-test Go and templ files under the project's
// handlers, views and db directories (generated templ code excluded).
func sourceFiles(t *testing.T) []string {
	var files []string
	for _, dir := range []string{"../handlers", "../views", "../db"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			n := e.Name()
			if strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, "_templ.go") {
				continue
			}
			if strings.HasSuffix(n, ".go") || strings.HasSuffix(n, ".templ") {
				files = append(files, filepath.Join(dir, n))
			}
		}
	}
	return files
}

// TestEveryMessageShownIsInTheCatalogue: each message the source passes
// to a translating function, and each db error's format, is in the
// English catalogue (and so, by the test above, in every catalogue).
func TestEveryMessageShownIsInTheCatalogue(t *testing.T) {
	if err := CatalogueError(); err != nil {
		t.Fatal(err)
	}
	en := catalogues["en"]
	n := 0
	for _, f := range sourceFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range callRE.FindAllStringSubmatch(string(b), -1) {
			if strings.Contains(m[0], "fmt.Errorf") || strings.Contains(m[0], "Logger().Errorf") {
				continue
			}
			id, err := strconv.Unquote(m[1])
			if err != nil {
				t.Fatalf("%s: %s: %v", f, m[1], err)
			}
			n++
			if _, ok := en.seen[id]; !ok {
				t.Errorf("%s: %q is not in locales/en.toml", f, id)
			}
		}
	}
	if n == 0 {
		t.Fatal("found no message in the source: the pattern is broken")
	}
}

// shownAttributes are the attributes whose text a user reads or hears.
var shownAttributes = map[string]bool{"aria-label": true, "title": true, "placeholder": true, "alt": true,
	"aria-description": true, "aria-roledescription": true, "aria-valuetext": true, "label": true}

// untranslatedText reports whether s, text of a template, holds words:
// letters, beyond the site's name.
func untranslatedText(s string) bool {
	s = html.UnescapeString(s)
	s = strings.NewReplacer("TRENCH", "", "Trench", "").Replace(s)
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// TestTemplatesHaveNoUntranslatedText: no template writes words of its
// own; every text a user reads or hears comes through T or TN.
func TestTemplatesHaveNoUntranslatedText(t *testing.T) {
	files, err := filepath.Glob("*.templ")
	if err != nil || len(files) == 0 {
		t.Fatal("no templates", err)
	}
	for _, f := range files {
		tf, err := templparser.Parse(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var walk func(nodes []templparser.Node)
		check := func(n templparser.Node) {
			switch n := n.(type) {
			case *templparser.Text:
				if untranslatedText(n.Value) {
					t.Errorf("%s:%d: text %q is not translated", f, n.Range.From.Line+1, strings.TrimSpace(n.Value))
				}
			case *templparser.Element:
				for _, a := range n.Attributes {
					if ca, ok := a.(*templparser.ConstantAttribute); ok {
						if shownAttributes[ca.Key.String()] && untranslatedText(ca.Value) {
							t.Errorf("%s:%d: attribute %s=%q is not translated", f, n.Range.From.Line+1, ca.Key.String(), ca.Value)
						}
					}
				}
			}
		}
		walk = func(nodes []templparser.Node) {
			for _, n := range nodes {
				check(n)
				for _, c := range children(n) {
					walk(c)
				}
			}
		}
		for _, n := range tf.Nodes {
			if ht, ok := n.(*templparser.HTMLTemplate); ok {
				walk(ht.Children)
			}
		}
	}
}

// children returns the lists of nodes inside n (an element's children, the
// branches of an if or switch, a loop's body, a call's children).
func children(n templparser.Node) [][]templparser.Node {
	switch n := n.(type) {
	case *templparser.Element:
		return [][]templparser.Node{n.Children}
	case *templparser.IfExpression:
		out := [][]templparser.Node{n.Then, n.Else}
		for _, e := range n.ElseIfs {
			out = append(out, e.Then)
		}
		return out
	case *templparser.SwitchExpression:
		var out [][]templparser.Node
		for _, c := range n.Cases {
			out = append(out, c.Children)
		}
		return out
	case *templparser.ForExpression:
		return [][]templparser.Node{n.Children}
	case *templparser.TemplElementExpression:
		return [][]templparser.Node{n.Children}
	}
	return nil
}

// proseRE matches a Go string literal that reads as words to a person:
// two words of letters in a row.
var proseRE = regexp.MustCompile(`\p{L}{2,}[ ,’']+\p{L}{2,}`)

// quiet are the calls whose string arguments never reach a user as they
// are: logs, wrapped errors, the translating functions themselves (their
// messages are checked above), SQL and headers.
var quiet = regexp.MustCompile(`^(T|TN|tr|trn|Errorf|TooMany|Error|Errorf|Printf|Println|Fatalf|Warnf|Infof|Debugf|Sprintf|New|Wrap|Exec|ExecContext|QueryContext|QueryRowContext|Set|Add|Get|Header|Fprintf|Panicf)$`)

// TestGoCodeHasNoUntranslatedText: in the Go code of handlers and views,
// a string literal that reads as words is given to a translating
// function, or marked with a comment "// not shown" on its line (a log, a
// machine-readable value).
func TestGoCodeHasNoUntranslatedText(t *testing.T) {
	fset := token.NewFileSet()
	for _, f := range sourceFiles(t) {
		if !strings.HasSuffix(f, ".go") || strings.HasPrefix(f, "../db/") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		marked := map[int]bool{}
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				if strings.Contains(c.Text, "not shown") {
					marked[fset.Position(c.Pos()).Line] = true
				}
			}
		}
		var stack []ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !proseRE.MatchString(s) {
				return true
			}
			line := fset.Position(lit.Pos()).Line
			if marked[line] || marked[line-1] {
				return true
			}
			for i := len(stack) - 2; i >= 0; i-- {
				switch p := stack[i].(type) {
				case *ast.CallExpr:
					name := ""
					switch fn := p.Fun.(type) {
					case *ast.Ident:
						name = fn.Name
					case *ast.SelectorExpr:
						name = fn.Sel.Name
					}
					if quiet.MatchString(name) {
						return true
					}
				case *ast.Field, *ast.ImportSpec:
					return true // struct tags, imports
				}
			}
			t.Errorf("%s:%d: %q is not translated", f, line, s)
			return true
		})
	}
}

// TestDatesAndDurationsPerLanguage: a moment and a span of time read as
// each language writes them.
func TestDatesAndDurationsPerLanguage(t *testing.T) {
	at := time.Date(2026, time.March, 21, 13, 0, 0, 0, time.UTC)
	span := 2*24*time.Hour + 23*time.Hour
	for _, c := range []struct{ lang, date, span, one, number string }{
		{"en", "21 March 2026 13:00 UTC", "2 days 23 hours", "1 minute", "12,345"},
		{"fr", "21 mars 2026 à 13:00 UTC", "2 jours 23 heures", "1 minute", "12\u00a0345"},
		{"pt", "21 de março de 2026, 13:00 UTC", "2 dias 23 horas", "1 minuto", "12.345"},
		{"es", "21 de marzo de 2026, 13:00 UTC", "2 días 23 horas", "1 minuto", "12.345"},
		{"de", "21. März 2026, 13:00 UTC", "2 Tage 23 Stunden", "1 Minute", "12.345"},
	} {
		ctx := WithLang(context.Background(), c.lang)
		if got := DateTime(ctx, at); got != c.date {
			t.Errorf("%s: DateTime = %q, want %q", c.lang, got, c.date)
		}
		if got := Duration(ctx, span); got != c.span {
			t.Errorf("%s: Duration = %q, want %q", c.lang, got, c.span)
		}
		// The minutes of a span of days are not written: the text kept
		// for the span serves them.
		if got := Duration(ctx, span+30*time.Minute); got != c.span {
			t.Errorf("%s: Duration(30 minutes more) = %q, want %q", c.lang, got, c.span)
		}
		if got, want := Duration(ctx, 72*time.Hour), TN(ctx, "%d days", 3, 3); got != want {
			t.Errorf("%s: Duration(3 days) = %q, want %q (no zero hours)", c.lang, got, want)
		}
		if got := Duration(ctx, 30*time.Second); got != c.one {
			t.Errorf("%s: Duration(30 s) = %q, want %q", c.lang, got, c.one)
		}
		if got := Number(ctx, 12345); got != c.number {
			t.Errorf("%s: Number = %q, want %q", c.lang, got, c.number)
		}
	}
}

// TestMatchLanguage: the browser's preferences pick the language.
func TestMatchLanguage(t *testing.T) {
	for header, want := range map[string]string{
		"":                        "en",
		"fr-CA,fr;q=0.9,en;q=0.5": "fr",
		"pt-BR":                   "pt",
		"de-AT, en;q=0.3":         "de",
		"es-419":                  "es",
		"ja, zh;q=0.8":            "en",
		"nl, de;q=0.5":            "de",
		"garbage;;;q=":            "en",
	} {
		if got := MatchLanguage(header); got != want {
			t.Errorf("MatchLanguage(%q) = %q, want %q", header, got, want)
		}
	}
}

// TestTimeLeftAgreesWithItsCount: the verb before a span of time agrees
// with the span's first number where the language wants it.
func TestTimeLeftAgreesWithItsCount(t *testing.T) {
	for _, c := range []struct {
		lang string
		d    time.Duration
		want string
	}{
		{"pt", 24 * time.Hour, "resta 1 dia"},
		{"pt", 3*24*time.Hour + 2*time.Hour, "restam 3 dias 2 horas"},
		{"es", time.Hour + 5*time.Minute, "queda 1 hora 5 minutos"},
		{"es", 2 * time.Hour, "quedan 2 horas"},
		{"en", 24 * time.Hour, "1 day left"},
		{"en", 90 * time.Second, "1 minute left"},
	} {
		ctx := WithLang(context.Background(), c.lang)
		if got := TN(ctx, "%s left", LeadingCount(c.d), Duration(ctx, c.d)); got != c.want {
			t.Errorf("%s, %v: %q, want %q", c.lang, c.d, got, c.want)
		}
	}
}
