package views

import (
	"context"
	"sync"
	"sync/atomic"
)

// keptTexts bounds how many texts Kept holds: past it, it drops them all
// and writes each again the next time it is asked for. A text is a few
// dozen bytes, so the bound is about a megabyte.
const keptTexts = 16384

// keptKey is a text's key in the language of a catalogue.
type keptKey struct {
	c   *catalogue
	key any
}

var (
	// kept holds the texts Kept wrote, by keptKey.
	kept sync.Map
	// keptCount is about how many texts kept holds.
	keptCount atomic.Int64
)

// Kept returns the text write writes in the language of ctx, written
// once for key and then kept. key is a comparable value that names every
// input of the text but the language (a struct type of the caller's own,
// so that two callers' keys never meet); write must depend on nothing
// else. For the texts a long list writes on every row and which only a
// few values take (a game's title, a clock's span): written with
// fmt.Sprintf and a catalogue lookup, they were most of such a row's
// cost.
func Kept(ctx context.Context, key any, write func() string) string {
	k := keptKey{catalogueOf(ctx), key}
	if s, ok := kept.Load(k); ok {
		return s.(string)
	}
	s := write()
	if _, loaded := kept.LoadOrStore(k, s); !loaded && keptCount.Add(1) > keptTexts {
		kept.Clear()
		keptCount.Store(0)
	}
	return s
}
