package views

import (
	"context"
	"sync"
)

// keptTexts bounds how many texts a Kept holds: past it, it drops them
// all and writes each again the next time it is asked for. A text is a
// few dozen bytes, so the bound is about a megabyte.
const keptTexts = 16384

// Kept holds texts written once and then kept, by a key of type K in
// the language of a catalogue: for the texts a long list writes on every
// row and which only a few values take (a game's title, a clock's span).
// Written with fmt.Sprintf and a catalogue lookup, they were most of such
// a row's cost. The zero Kept is ready to use; it is safe for use by
// several goroutines at once.
type Kept[K comparable] struct {
	mu    sync.RWMutex
	texts map[keptKey[K]]string
}

// keptKey is a text's key in the language of a catalogue.
type keptKey[K comparable] struct {
	c   *catalogue
	key K
}

// Text returns the text write writes in the language of ctx, written
// once for key and then kept. key names every input of the text but the
// language: write must depend on nothing else.
func (k *Kept[K]) Text(ctx context.Context, key K, write func() string) string {
	kk := keptKey[K]{catalogueOf(ctx), key}
	k.mu.RLock()
	s, ok := k.texts[kk]
	k.mu.RUnlock()
	if ok {
		return s
	}
	s = write()
	k.mu.Lock()
	if k.texts == nil || len(k.texts) >= keptTexts {
		k.texts = make(map[keptKey[K]]string)
	}
	k.texts[kk] = s
	k.mu.Unlock()
	return s
}
