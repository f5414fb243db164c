package views

import (
	"context"
	"embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/trench-games/trench/rules"
)

// The catalogues: one TOML file per language in locales/, keyed by the
// English text of each message (its ID). A plain message is
//
//	"Back to the game" = "Retour à la partie"
//
// and a message with plural forms is a table of the CLDR forms the
// language has:
//
//	["%d days"]
//	one = "%d jour"
//	other = "%d jours"
//
// An ID may end in "|" and a word of context ("Back|review") to tell
// apart two uses of one English text, or to avoid a text go-i18n keeps
// for plural forms ("Other", "One", "Description", …); its English text
// is then the one in the English catalogue. Messages with values use
// fmt verbs; a translation may reorder them with
// explicit indexes ("%[2]s … %[1]d"). The English catalogue holds every
// ID; the test in i18n_test.go fails when a text shown to a user is not
// in it, or when another catalogue lacks one of its IDs.
//
//go:embed locales/*.toml
var localeFS embed.FS

// Language is one language the pages are written in.
type Language struct {
	Code string // BCP 47 code: "en", "fr", "pt", "es", "de"
	Name string // the language's own name for itself: "Français"
}

// Languages are the languages of the site, English (the fallback) first.
var Languages = []Language{
	{"en", "English"},
	{"fr", "Français"},
	{"pt", "Português"},
	{"es", "Español"},
	{"de", "Deutsch"},
}

// catalogue is one language's messages, ready for lookups.
type catalogue struct {
	tag     language.Tag
	plain   map[string]string        // ID → text, for messages without plural forms
	plural  map[string]bool          // IDs with plural forms
	loc     *i18n.Localizer          // for the plural forms
	printer *message.Printer         // numbers
	seen    map[string]*i18n.Message // every message of the file, by ID
	forms   sync.Map                 // pluralKey → its text (see pluralForm)
}

var (
	loadOnce   sync.Once
	catalogues map[string]*catalogue
	loadErr    error
	matcher    language.Matcher
)

// load reads the embedded catalogues once.
func load() {
	bundle := i18n.NewBundle(language.English)
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	catalogues = map[string]*catalogue{}
	var tags []language.Tag
	for _, l := range Languages {
		tag := language.MustParse(l.Code)
		tags = append(tags, tag)
		c := &catalogue{tag: tag, plain: map[string]string{}, plural: map[string]bool{},
			printer: message.NewPrinter(tag), seen: map[string]*i18n.Message{}}
		path := "locales/" + l.Code + ".toml"
		b, err := localeFS.ReadFile(path)
		if err != nil {
			loadErr = err
			continue
		}
		f, err := bundle.ParseMessageFileBytes(b, path)
		if err != nil {
			loadErr = fmt.Errorf("%s: %w", path, err)
			continue
		}
		for _, m := range f.Messages {
			c.seen[m.ID] = m
			if m.Zero == "" && m.One == "" && m.Two == "" && m.Few == "" && m.Many == "" {
				c.plain[m.ID] = m.Other
			} else {
				c.plural[m.ID] = true
			}
		}
		catalogues[l.Code] = c
	}
	for _, l := range Languages {
		if c := catalogues[l.Code]; c != nil {
			c.loc = i18n.NewLocalizer(bundle, l.Code)
		}
	}
	matcher = language.NewMatcher(tags)
}

// CatalogueError is the error met while reading the catalogues, nil when
// all were read.
func CatalogueError() error {
	loadOnce.Do(load)
	return loadErr
}

type langKey struct{}

// WithLang returns ctx carrying the language code lang ("fr"), which T
// and the other functions here use; an unknown code means English.
func WithLang(ctx context.Context, lang string) context.Context {
	return context.WithValue(ctx, langKey{}, lang)
}

// Lang returns the language code carried by ctx, "en" when none.
func Lang(ctx context.Context) string {
	if ctx != nil {
		if l, ok := ctx.Value(langKey{}).(string); ok && l != "" {
			return l
		}
	}
	return "en"
}

// IsLanguage reports whether code is one of Languages.
func IsLanguage(code string) bool {
	for _, l := range Languages {
		if l.Code == code {
			return true
		}
	}
	return false
}

// MatchLanguage returns the code of the language of the site that best
// suits an Accept-Language header ("fr-CA,fr;q=0.9,en;q=0.5" → "fr"),
// "en" when none does.
func MatchLanguage(acceptLanguage string) string {
	loadOnce.Do(load)
	prefs, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(prefs) == 0 {
		return "en"
	}
	_, i, conf := matcher.Match(prefs...)
	if conf == language.No {
		return "en"
	}
	return Languages[i].Code
}

func catalogueOf(ctx context.Context) *catalogue {
	loadOnce.Do(load)
	if c := catalogues[Lang(ctx)]; c != nil {
		return c
	}
	return catalogues["en"]
}

// T returns the message msg (its English text, which is its ID) in the
// language of ctx, formatted with args as by fmt.Sprintf when there are
// any. A message missing from the catalogue is shown in English.
func T(ctx context.Context, msg string, args ...any) string {
	text := msg
	if Lang(ctx) != "en" || strings.IndexByte(msg, '|') >= 0 {
		if c := catalogueOf(ctx); c != nil {
			if s, ok := c.plain[msg]; ok && s != "" {
				text = s
			} else if i := strings.IndexByte(msg, '|'); i >= 0 {
				text = msg[:i]
			}
		}
	}
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}

// TN returns the message msg in the plural form that count calls for in
// the language of ctx, formatted with args as by fmt.Sprintf (count is
// not passed on by itself: give it among args where the text shows it).
// msg is the English "other" form: TN(ctx, "%d days", n, n).
func TN(ctx context.Context, msg string, count int, args ...any) string {
	text := msg
	if c := catalogueOf(ctx); c != nil && c.plural[msg] {
		text = c.pluralForm(msg, count)
	}
	if len(args) == 0 {
		return text
	}
	return fmt.Sprintf(text, args...)
}

// maxCachedCount bounds the counts whose plural form a catalogue keeps
// once looked up (scores, days, hours, minutes, moves): past it, each
// lookup asks go-i18n again.
const maxCachedCount = 1024

// pluralKey is a message with plural forms and a count.
type pluralKey struct {
	msg   string
	count int
}

// pluralForm is the text of the plural message msg (an ID of c.plural) for
// count, msg itself when the catalogue has none. Lookups of counts up to
// maxCachedCount are kept: go-i18n's costs more than the rest of a page's
// text.
func (c *catalogue) pluralForm(msg string, count int) string {
	cache := 0 <= count && count <= maxCachedCount
	if cache {
		if s, ok := c.forms.Load(pluralKey{msg, count}); ok {
			return s.(string)
		}
	}
	text := msg
	if s, err := c.loc.Localize(&i18n.LocalizeConfig{MessageID: msg, PluralCount: count}); err == nil && s != "" {
		text = s
	}
	if cache {
		c.forms.Store(pluralKey{msg, count}, text)
	}
	return text
}

// Number writes n with the digit grouping of the language of ctx:
// 12,345 in English, 12 345 in French.
func Number(ctx context.Context, n int) string {
	if c := catalogueOf(ctx); c != nil {
		return c.printer.Sprintf("%d", n)
	}
	return fmt.Sprint(n)
}

// months are the month names, in English, the IDs of their translations.
var months = [...]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

// DateTime writes a moment in UTC the way the language of ctx writes it:
// "21 March 2026 13:00 UTC", "21 mars 2026 à 13:00 UTC".
func DateTime(ctx context.Context, t time.Time) string {
	t = t.UTC()
	return T(ctx, "%[1]s %[2]s %[3]d %[4]s UTC", DayOfMonth(ctx, t.Day()), T(ctx, months[t.Month()-1]), t.Year(), t.Format("15:04"))
}

// Date writes a day the way the language of ctx writes it: "21 March
// 2026", "21 mars 2026".
// Written once a day and language, then kept (keptDates): the lists
// write one on each of their rows.
func Date(ctx context.Context, t time.Time) string {
	y, m, d := t.UTC().Date()
	return keptDates.Text(ctx, day{y, m, d}, func() string {
		return T(ctx, "%[1]s %[2]s %[3]d", DayOfMonth(ctx, d), T(ctx, months[m-1]), y)
	})
}

// keptDates keeps Date's texts by day.
var keptDates Kept[day]

// day is a day of the calendar, in UTC.
type day struct {
	year  int
	month time.Month
	day   int
}

// DayOfMonth writes day d of a month as the dates of the language of ctx
// write it: "1er" in French for the first, the number otherwise.
func DayOfMonth(ctx context.Context, d int) string {
	if d == 1 {
		return T(ctx, "1|day of the month")
	}
	return strconv.Itoa(d)
}

// LeadingCount is the number of Duration's first unit for d (3 for "3
// days 2 hours", 1 for "1 hour"): the count that agrees with a verb
// before the span in some languages ("resta 1 dia", "restam 3 dias").
func LeadingCount(d time.Duration) int {
	switch {
	case d >= 24*time.Hour:
		return int(d / (24 * time.Hour))
	case d >= time.Hour:
		return int(d / time.Hour)
	}
	return max(int(d/time.Minute), 1)
}

// Duration writes a positive span of time on a clock in the language of
// ctx, to its two largest units, the second left out when zero: "2 days
// 3 hours", "3 days", "5 hours 10 minutes", "1 minute" (never less than a
// minute).
func Duration(ctx context.Context, d time.Duration) string {
	s := SpanOf(d)
	if !s.Kept() {
		return duration(ctx, s)
	}
	return keptDurations.Text(ctx, s, func() string { return duration(ctx, s) })
}

// Span is a positive span of time as Duration writes it: at least a
// minute, in days, hours and minutes, the minutes left out from a day on.
// Two spans that Duration writes alike have the same Span, so that a
// text written from one serves both (a key for Kept).
type Span struct{ Days, Hours, Mins int }

// SpanOf returns d as Duration writes it.
func SpanOf(d time.Duration) Span {
	d = max(d, time.Minute)
	s := Span{int(d / (24 * time.Hour)), int((d % (24 * time.Hour)) / time.Hour), int((d % time.Hour) / time.Minute)}
	if s.Days > 0 {
		s.Mins = 0 // not written
	}
	return s
}

// Kept says whether the texts written from s are worth keeping: spans of
// up to 60 days, a few thousand a language. Longer ones are rare.
func (s Span) Kept() bool { return s.Days <= 60 }

// keptDurations keeps the texts Duration wrote: a list of games writes
// one a game, each costing more than the rest of its row.
var keptDurations Kept[Span]

// duration is Duration's text for s.
func duration(ctx context.Context, s Span) string {
	days, hours, mins := s.Days, s.Hours, s.Mins
	switch {
	case days > 0 && hours == 0:
		return TN(ctx, "%d days", days, days)
	case days > 0:
		return T(ctx, "%[1]s %[2]s", TN(ctx, "%d days", days, days), TN(ctx, "%d hours", hours, hours))
	case hours > 0 && mins == 0:
		return TN(ctx, "%d hours", hours, hours)
	case hours > 0:
		return T(ctx, "%[1]s %[2]s", TN(ctx, "%d hours", hours, hours), TN(ctx, "%d minutes", mins, mins))
	}
	return TN(ctx, "%d minutes", mins, mins)
}

// Refusal returns a game's refusal of a move as a whole sentence in the
// language of ctx: the sentence of its code with its values, each
// rules.Term among them translated too.
func Refusal(ctx context.Context, e *rules.MoveError) string {
	args := make([]any, len(e.Args))
	for i, a := range e.Args {
		if t, ok := a.(rules.Term); ok {
			args[i] = T(ctx, string(t))
		} else {
			args[i] = a
		}
	}
	return T(ctx, rules.RefusalText(e.Code), args...)
}
