package views

import (
	"io"
	"time"

	"github.com/gorilla/feeds"
)

// Feed is a player's Atom feed: the games waiting for their move and
// their recently finished games.
type Feed struct {
	ID      string // a stable URI naming the feed (a tag: URI)
	Title   string
	Lang    string // the language of its text ("fr"), its xml:lang
	Link    string // the page the feed belongs to (absolute)
	Author  string
	Updated time.Time
	Entries []FeedEntry
}

// FeedEntry is one entry of a Feed.
type FeedEntry struct {
	ID      string // stable for the same news: game and ply, or game and end
	Title   string
	Link    string // the game's page (absolute)
	Summary string // plain text
	Updated time.Time
}

// WriteAtom writes f as an Atom 1.0 document (RFC 4287), its language
// in the feed's xml:lang. Every text is XML-escaped; summaries are marked
// as plain text.
func WriteAtom(w io.Writer, f Feed) error {
	src := &feeds.Feed{
		Title:   f.Title,
		Link:    &feeds.Link{Href: f.Link, Rel: "alternate"},
		Author:  &feeds.Author{Name: f.Author},
		Updated: f.Updated,
	}
	for _, e := range f.Entries {
		src.Add(&feeds.Item{Id: e.ID, Title: e.Title, Link: &feeds.Link{Href: e.Link}, Updated: e.Updated})
	}
	atom := (&feeds.Atom{Feed: src}).AtomFeed()
	atom.Id = f.ID
	for i, e := range f.Entries {
		if e.Summary != "" {
			atom.Entries[i].Summary = &feeds.AtomSummary{Content: e.Summary, Type: "text"}
		}
	}
	return feeds.WriteXML(langAtom{atom, f.Lang}, w)
}

// langAtom is an Atom feed with the language of its text.
type langAtom struct {
	*feeds.AtomFeed
	Lang string `xml:"xml:lang,attr,omitempty"`
}

// FeedXml returns the feed to marshal, with its xml:lang.
func (a langAtom) FeedXml() any { return a }
