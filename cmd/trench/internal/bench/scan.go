package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Reading the game answers cheaply. The load reads three or four answers
// per move (the live update, the selection clicks, the move's own
// answer), each 10 to 30 KB; a tokenizer that copies every name and value
// and a tree of all the elements cost the load about as much CPU as the
// server spent answering. tagScanner below splits tags exactly as
// golang.org/x/net/html's Tokenizer does, without copying anything, and
// parseGame reads what a player's tab needs in one pass over it.

// tagKind is what tagScanner.next found.
type tagKind uint8

const (
	tagEOF         tagKind = iota // the end of the document
	tagStart                      // <name …>
	tagSelfClosing                // <name …/>
	tagEnd                        // </name …>
)

// rawAttr is one attribute of the current tag as it is written: the
// offsets of its key and value in the document (the value neither
// unescaped nor with its line ends converted; see attrValue). Offsets,
// not slices: the scanner writes no pointers, so the garbage collector's
// write barrier costs nothing.
type rawAttr struct{ ks, ke, vs, ve int }

// tagScanner walks the start and end tags of an HTML document the way
// x/net/html's Tokenizer does (the same tag, attribute and self-closing
// rules, the first of two attributes of the same name kept; text,
// comments, doctypes and the content of raw-text elements such as
// <script>, <textarea> and <noscript> skipped), without copying: the
// current tag's name and attributes are offsets into the document, valid
// until the next call.
// Names and keys keep their case (compare with eqLower). The content of
// <script> ends at the first </script>, without the script-escaping
// rules of HTML (the server sends no inline script).
type tagScanner struct {
	b       []byte
	pos     int
	ns, ne  int // the current tag's name, b[ns:ne]
	attrs   []rawAttr
	lastVal int             // end of the last kept attribute's value, -1 for none
	known   [numKnown]int16 // where each known attribute is in attrs, plus one (0: absent)
	rawTag  string          // the raw-text element whose content comes next
}

func isSpaceByte(c byte) bool { return byteClass[c]&classSpace != 0 }

// byteClass sorts the bytes that end a tag's name, an attribute's key or
// an unquoted value.
var byteClass = func() (t [256]uint8) {
	for _, c := range []byte(" \n\r\t\f") {
		t[c] |= classSpace | classEndName | classEndKey | classEndValue
	}
	t['/'] |= classEndName | classEndKey
	t['>'] |= classEndName | classEndKey | classEndValue
	t['='] |= classEndKey
	return t
}()

const (
	classSpace    = 1 << iota // HTML's whitespace
	classEndName              // whitespace, '/', '>'
	classEndKey               // whitespace, '/', '>', '='
	classEndValue             // whitespace, '>'
)

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// eqLower reports whether b equals s ignoring ASCII case (s in lower case).
func eqLower(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// eqFold reports whether a and b are equal ignoring ASCII case.
func eqFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		c, d := a[i], b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}

// rawTextElements are the elements whose content the tokenizer reads as
// text up to their end tag, by the length of their name.
var rawTextElements = [10][]string{3: {"xmp"}, 5: {"style", "title"}, 6: {"iframe", "script"}, 7: {"noembed"},
	8: {"noframes", "noscript", "textarea"}, 9: {"plaintext"}}

// rawTextElement returns the raw-text element named name, "" if it is
// none.
func rawTextElement(name []byte) string {
	if len(name) >= len(rawTextElements) {
		return ""
	}
	for _, r := range rawTextElements[len(name)] {
		if eqLower(name, r) {
			return r
		}
	}
	return ""
}

func (z *tagScanner) skipSpace() {
	for z.pos < len(z.b) && isSpaceByte(z.b[z.pos]) {
		z.pos++
	}
}

// next moves to the next tag and returns its kind (tagEOF at the end).
func (z *tagScanner) next() tagKind {
	b := z.b
	if z.rawTag != "" {
		z.skipRawText()
	}
	for {
		i := bytes.IndexByte(b[z.pos:], '<')
		if i < 0 || z.pos+i+1 >= len(b) {
			z.pos = len(b)
			return tagEOF
		}
		p := z.pos + i
		c := b[p+1]
		switch {
		case isLetter(c):
			z.pos = p + 1
			if !z.readTag() {
				return tagEOF
			}
			z.rawTag = rawTextElement(z.name())
			// Self-closing: a solidus just before the '>' that is not the
			// last character of an unquoted value (<p a=/>).
			if end := z.pos - 2; b[end] == '/' && (z.lastVal < 0 || end != z.lastVal-1) {
				return tagSelfClosing
			}
			return tagStart
		case c == '/':
			if p+2 >= len(b) {
				z.pos = len(b)
				return tagEOF
			}
			switch c2 := b[p+2]; {
			case c2 == '>': // "</>": nothing at all
				z.pos = p + 3
			case isLetter(c2):
				z.pos = p + 2
				if !z.readTag() {
					return tagEOF
				}
				return tagEnd
			default: // a bogus comment, up to '>'
				z.pos = p + 2
				z.skipPast('>')
			}
		case c == '!':
			z.pos = p + 2
			if z.pos+1 < len(b) && b[z.pos] == '-' && b[z.pos+1] == '-' {
				z.pos += 2
				z.skipComment()
			} else {
				z.skipPast('>') // a doctype or a bogus comment
			}
		case c == '?':
			z.pos = p + 2
			z.skipPast('>')
		default: // a '<' in the text
			z.pos = p + 1
		}
	}
}

// skipPast moves past the next c, or to the end.
func (z *tagScanner) skipPast(c byte) {
	if i := bytes.IndexByte(z.b[z.pos:], c); i >= 0 {
		z.pos += i + 1
	} else {
		z.pos = len(z.b)
	}
}

// skipComment moves past the end of a comment whose "<!--" is read, by
// the tokenizer's rules ("-->", "--!>", or at once "<!-->", "<!--->").
func (z *tagScanner) skipComment() {
	dashes, beginning := 0, true
	for z.pos < len(z.b) {
		c := z.b[z.pos]
		z.pos++
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return
			}
		case '!':
			if dashes >= 2 {
				if z.pos >= len(z.b) {
					return
				}
				c = z.b[z.pos]
				z.pos++
				if c == '>' {
					return
				}
				if c == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
}

// skipRawText moves to the end tag of the raw-text element just opened.
func (z *tagScanner) skipRawText() {
	tag := z.rawTag
	z.rawTag = ""
	b := z.b
	if tag == "plaintext" {
		z.pos = len(b)
		return
	}
	for {
		i := bytes.Index(b[z.pos:], []byte("</"))
		if i < 0 {
			z.pos = len(b)
			return
		}
		p := z.pos + i
		e := p + 2 + len(tag)
		if e < len(b) && eqLower(b[p+2:e], tag) && (isSpaceByte(b[e]) || b[e] == '/' || b[e] == '>') {
			z.pos = p
			return
		}
		z.pos = p + 2
	}
}

// readTag reads a tag's name and attributes from z.pos (its first letter)
// past its '>'; false if the document ends first.
func (z *tagScanner) readTag() bool {
	b := z.b
	z.attrs = z.attrs[:0]
	z.lastVal = -1
	z.known = [numKnown]int16{}
	start := z.pos
	for z.pos < len(b) && byteClass[b[z.pos]]&classEndName == 0 {
		z.pos++
	}
	z.ns, z.ne = start, z.pos
	z.skipSpace()
	for {
		if z.pos >= len(b) {
			return false
		}
		if b[z.pos] == '>' {
			z.pos++
			return true
		}
		// The key (an '=' as its first character belongs to it), then
		// the value; a solidus after the key is taken.
		ks := z.pos
		if b[z.pos] == '=' {
			z.pos++
		}
		for z.pos < len(b) && byteClass[b[z.pos]]&classEndKey == 0 {
			z.pos++
		}
		key := b[ks:z.pos]
		vs, ve := z.pos, z.pos
		z.skipSpace()
		switch {
		case z.pos >= len(b):
			return false
		case b[z.pos] == '/':
			z.pos++
		case b[z.pos] == '=':
			z.pos++
			z.skipSpace()
			if z.pos >= len(b) {
				return false
			}
			switch q := b[z.pos]; q {
			case '>':
			case '"', '\'':
				z.pos++
				vs = z.pos
				i := bytes.IndexByte(b[z.pos:], q)
				if i < 0 {
					return false
				}
				ve = z.pos + i
				z.pos = ve + 1
			default:
				vs = z.pos
				for z.pos < len(b) && byteClass[b[z.pos]]&classEndValue == 0 {
					z.pos++
				}
				ve = z.pos
			}
		}
		if len(key) > 0 && !z.has(key) {
			z.attrs = append(z.attrs, rawAttr{ks, ks + len(key), vs, ve})
			if k := classifyKey(key); k >= 0 && len(z.attrs) < 1<<15 {
				z.known[k] = int16(len(z.attrs))
			}
			z.lastVal = ve
		}
		z.skipSpace()
	}
}

// name returns the current tag's name.
func (z *tagScanner) name() []byte { return z.b[z.ns:z.ne] }

// has reports whether the current tag already has an attribute key.
func (z *tagScanner) has(key []byte) bool {
	for _, a := range z.attrs {
		if eqFold(z.b[a.ks:a.ke], key) {
			return true
		}
	}
	return false
}

// knownAttr is an attribute the reading looks at.
type knownAttr int

const (
	kID knownAttr = iota
	kClass
	kHref
	kName
	kType
	kValue
	kAction
	kHxGet
	kHxPost
	kHxBoost
	kHxTarget
	kHxHeaders
	kDataClick
	kDataPly
	kSSEConnect
	numKnown
)

// classifyKey returns which known attribute key names, -1 for none.
func classifyKey(key []byte) knownAttr {
	switch len(key) {
	case 2:
		if eqLower(key, "id") {
			return kID
		}
	case 4:
		switch {
		case eqLower(key, "href"):
			return kHref
		case eqLower(key, "name"):
			return kName
		case eqLower(key, "type"):
			return kType
		}
	case 5:
		switch {
		case eqLower(key, "class"):
			return kClass
		case eqLower(key, "value"):
			return kValue
		}
	case 6:
		switch {
		case eqLower(key, "action"):
			return kAction
		case eqLower(key, "hx-get"):
			return kHxGet
		}
	case 7:
		if eqLower(key, "hx-post") {
			return kHxPost
		}
	case 8:
		switch {
		case eqLower(key, "hx-boost"):
			return kHxBoost
		case eqLower(key, "data-ply"):
			return kDataPly
		}
	case 9:
		if eqLower(key, "hx-target") {
			return kHxTarget
		}
	case 10:
		switch {
		case eqLower(key, "hx-headers"):
			return kHxHeaders
		case eqLower(key, "data-click"):
			return kDataClick
		}
	case 11:
		if eqLower(key, "sse-connect") {
			return kSSEConnect
		}
	}
	return -1
}

// get returns the raw value of the current tag's attribute k, and
// whether it has it.
func (z *tagScanner) get(k knownAttr) ([]byte, bool) {
	i := z.known[k]
	if i == 0 {
		return nil, false
	}
	a := z.attrs[i-1]
	return z.b[a.vs:a.ve], true
}

// attrValue is an attribute's value as the tokenizer gives it: NUL
// replaced, line ends converted, character references unescaped.
func attrValue(raw []byte) string {
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 && bytes.IndexByte(raw, 0) < 0 {
		return string(raw)
	}
	if bareNamedReference(raw) {
		return tokenizerValue(raw)
	}
	s := strings.ReplaceAll(string(raw), "\x00", "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return html.UnescapeString(s)
}

// bareNamedReference reports whether raw has a named character reference
// without its ';' (&copy=1): the tokenizer reads those in attributes
// otherwise than html.UnescapeString does in text. Numeric references
// and those ending in ';' read alike.
func bareNamedReference(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '&' {
			continue
		}
		j := i + 1
		for j < len(raw) && (isLetter(raw[j]) || '0' <= raw[j] && raw[j] <= '9') {
			j++
		}
		if j > i+1 && (j == len(raw) || raw[j] != ';') {
			return true
		}
	}
	return false
}

// tokenizerValue reads raw as the value of an attribute with the
// tokenizer itself (raw holds no quote of the kind around it, or, read
// unquoted, neither).
func tokenizerValue(raw []byte) string {
	quote := "\""
	switch {
	case bytes.IndexByte(raw, '"') < 0:
	case bytes.IndexByte(raw, '\'') < 0:
		quote = "'"
	default:
		quote = ""
	}
	z := html.NewTokenizer(strings.NewReader("<a v=" + quote + string(raw) + quote + ">"))
	z.Next()
	_, v, _ := z.TagAttr()
	return string(v)
}

// valueIs reports whether the raw value means s.
func valueIs(raw []byte, s string) bool {
	if bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 && bytes.IndexByte(raw, 0) < 0 {
		return string(raw) == s
	}
	return attrValue(raw) == s
}

// hasClassToken reports whether the class list (a raw value) holds class,
// separated as strings.Fields separates.
func hasClassToken(raw []byte, class string) bool {
	v := raw
	if bytes.IndexByte(raw, '&') >= 0 || bytes.IndexByte(raw, '\r') >= 0 || bytes.IndexByte(raw, 0) >= 0 {
		v = []byte(attrValue(raw))
	}
	for len(v) > 0 {
		r, n := rune(v[0]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(v)
		}
		if unicode.IsSpace(r) {
			v = v[n:]
			continue
		}
		end := 0
		for end < len(v) {
			r, n := rune(v[end]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRune(v[end:])
			}
			if unicode.IsSpace(r) {
				break
			}
			end += n
		}
		if string(v[:end]) == class {
			return true
		}
		v = v[end:]
	}
	return false
}

// voidElement reports whether the element has no end tag.
func voidElement(name []byte) bool {
	switch len(name) {
	case 2:
		return eqLower(name, "br") || eqLower(name, "hr")
	case 3:
		return eqLower(name, "col") || eqLower(name, "img") || eqLower(name, "wbr")
	case 4:
		return eqLower(name, "area") || eqLower(name, "base") || eqLower(name, "link") || eqLower(name, "meta")
	case 5:
		return eqLower(name, "embed") || eqLower(name, "input") || eqLower(name, "track")
	case 6:
		return eqLower(name, "source")
	}
	return false
}

// inherited is what an element inherits from its ancestors (and itself)
// for htmx: the nearest hx-boost and hx-target, the merged hx-headers.
type inherited struct {
	boost, boostSet bool // boost: the nearest hx-boost is "true"
	target          string
	targetSet       bool
	headers         map[string]string // shared with the descendants: read only
}

// htmxAttrs are the raw values of the current tag's attributes that
// descendants inherit (nil: absent).
type htmxAttrs struct{ boost, target, headers []byte }

// inheritable returns the current tag's hx-boost, hx-target and
// hx-headers.
func (z *tagScanner) inheritable() htmxAttrs {
	var h htmxAttrs
	if v, ok := z.get(kHxBoost); ok {
		h.boost = nonNil(v)
	}
	if v, ok := z.get(kHxTarget); ok {
		h.target = nonNil(v)
	}
	if v, ok := z.get(kHxHeaders); ok {
		h.headers = nonNil(v)
	}
	return h
}

// frameKey is what made an inheritance frame: its parent frame and the
// attributes of the element.
type frameKey struct {
	parent int
	attrs  htmxAttrs
}

// same reports whether the frame was made of the attributes h.
func (k frameKey) same(h htmxAttrs) bool {
	eq := func(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }
	return eq(k.attrs.boost, h.boost) && eq(k.attrs.target, h.target) && eq(k.attrs.headers, h.headers)
}

// nonNil returns b, empty but not nil when it is nil.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// with returns the inheritance of an element with attributes h under p.
func (p inherited) with(h htmxAttrs) inherited {
	in := p
	if h.boost != nil {
		in.boostSet, in.boost = true, valueIs(h.boost, "true")
	}
	if h.target != nil {
		in.targetSet, in.target = true, strings.TrimPrefix(attrValue(h.target), "#")
	}
	if h.headers != nil {
		if m, ok := parseHeaders(attrValue(h.headers)); ok {
			if len(p.headers) > 0 {
				for k, v := range p.headers {
					if _, own := m[k]; !own {
						m[k] = v
					}
				}
			}
			in.headers = m
		}
	}
	return in
}

// parseHeaders reads an hx-headers value, a JSON object, as htmx does
// (values as fmt.Sprint prints them); false if it is not JSON. The
// server's {"Name":"value"} is read without the JSON decoder.
func parseHeaders(v string) (map[string]string, bool) {
	if len(v) >= 7 && strings.HasPrefix(v, `{"`) && strings.HasSuffix(v, `"}`) && !strings.ContainsAny(v, `\`) {
		inner := v[2 : len(v)-2]
		if k, val, ok := strings.Cut(inner, `":"`); ok && !strings.Contains(k, `"`) && !strings.Contains(val, `"`) && utf8.ValidString(inner) && !hasControl(inner) {
			return map[string]string{k: val}, true
		}
	}
	var m map[string]any
	if json.Unmarshal([]byte(v), &m) != nil {
		return nil, false
	}
	out := make(map[string]string, len(m))
	for name, val := range m {
		out[name] = fmt.Sprint(val)
	}
	return out, true
}

// hasControl reports whether s has a byte JSON strings may not hold raw.
func hasControl(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 {
			return true
		}
	}
	return false
}

// action is what clicking the scanner's current element does with
// JavaScript on (see doc.action), in is its inheritance.
func (z *tagScanner) action(in *inherited, hxAttr, plainAttr knownAttr) action {
	var a action
	if v, ok := z.get(hxAttr); ok {
		a.url, a.htmx = attrValue(v), true
	} else {
		if v, ok := z.get(plainAttr); ok {
			a.url = attrValue(v)
		}
		if in.boostSet && in.boost {
			a.htmx, a.boosted = true, true
		}
	}
	if a.htmx {
		a.headers = in.headers
		if in.targetSet {
			a.target = in.target
		}
		if v, ok := z.get(kID); ok {
			a.trigger = attrValue(v)
		}
	}
	return a
}

// formField is one hidden field of a form.
type formField struct{ name, value string }

// setField sets name to value in fs (as url.Values.Set: one value).
func setField(fs []formField, name, value string) []formField {
	for i := range fs {
		if fs[i].name == name {
			fs[i].value = value
			return fs
		}
	}
	return append(fs, formField{name, value})
}

// encodeForm encodes fields with move set to move, byte for byte as
// url.Values.Encode does (keys sorted).
func encodeForm(fields []formField, move string) string {
	fs := make([]formField, 0, len(fields)+1)
	fs = append(fs, fields...)
	fs = setField(fs, "move", move)
	slices.SortFunc(fs, func(a, b formField) int { return strings.Compare(a.name, b.name) })
	var sb strings.Builder
	for i, f := range fs {
		if i > 0 {
			sb.WriteByte('&')
		}
		sb.WriteString(url.QueryEscape(f.name))
		sb.WriteByte('=')
		sb.WriteString(url.QueryEscape(f.value))
	}
	return sb.String()
}

// field returns the value of the field named name ("" for none).
func field(fs []formField, name string) string {
	for _, f := range fs {
		if f.name == name {
			return f.value
		}
	}
	return ""
}

// parseGame reads a game page or fragment: the first element of each id
// it needs, and of the first #board its clickable cells, move buttons
// and (a form) hidden fields, as a DOM would show them.
func parseGame(body []byte) *gamePage {
	pg := &gamePage{}
	z := tagScanner{b: body, attrs: make([]rawAttr, 0, 16)}
	// The open elements, each with its inheritance: an index in frames,
	// which grows only at an element with htmx attributes of its own.
	type open struct{ ns, ne, frame int } // name body[ns:ne]
	stack := make([]open, 0, 32)
	frames := make([]inherited, 1, 16)
	frameOf := make([]frameKey, 1, 16) // what made each frame
	var seenStatus, seenNext, seenPoll, seenBoard bool
	boardDepth := -1 // the board's place on the stack while it is open
	boardForm := false
	for {
		kind := z.next()
		if kind == tagEOF {
			if !pg.found {
				return &gamePage{}
			}
			pg.finished = pg.poll == nil
			return pg
		}
		if kind == tagEnd {
			for i := len(stack) - 1; i >= 0; i-- {
				if eqFold(body[stack[i].ns:stack[i].ne], z.name()) {
					stack = stack[:i]
					break
				}
			}
			if boardDepth >= 0 && len(stack) <= boardDepth {
				boardDepth = -1
			}
			continue
		}
		frame := 0
		if len(stack) > 0 {
			frame = stack[len(stack)-1].frame
		}
		if z.known[kHxBoost]|z.known[kHxTarget]|z.known[kHxHeaders] != 0 {
			// The same attributes under the same frame (#game and #side
			// carry the same hx-headers) share the frame.
			h := z.inheritable()
			found := -1
			for i := 1; i < len(frameOf) && found < 0; i++ {
				if frameOf[i].parent == frame && frameOf[i].same(h) {
					found = i
				}
			}
			if found < 0 {
				frames = append(frames, frames[frame].with(h))
				frameOf = append(frameOf, frameKey{frame, h})
				found = len(frames) - 1
			}
			frame = found
		}
		in := &frames[frame]
		if v, ok := z.get(kSSEConnect); ok && pg.live == "" {
			pg.live = attrValue(v)
		}
		inBoard := boardDepth >= 0
		opens := kind == tagStart && !voidElement(z.name())
		if id, ok := z.get(kID); ok {
			switch {
			case !pg.found && valueIs(id, "game"):
				pg.found = true
				if v, ok := z.get(kDataPly); ok {
					pg.ply, _ = strconv.Atoi(attrValue(v))
				}
			case !seenStatus && valueIs(id, "status"):
				seenStatus = true
				v, _ := z.get(kClass)
				pg.yourTurn = hasClassToken(v, "your-turn")
			case !seenNext && valueIs(id, "next-game"):
				seenNext = true
				if v, ok := z.get(kHref); ok {
					pg.nextGame = attrValue(v)
				}
			case !seenPoll && valueIs(id, "poll"):
				seenPoll = true
				a := z.action(in, kHxGet, kHref)
				pg.poll = &a
			case !seenBoard && valueIs(id, "board"):
				seenBoard = true
				if eqLower(z.name(), "form") {
					boardForm = true
					a := z.action(in, kHxPost, kAction)
					pg.form = &a
					pg.fields = []formField{}
				}
				if opens {
					boardDepth = len(stack)
				}
			}
		}
		if inBoard {
			z.boardElement(pg, in, boardForm)
		}
		if opens {
			stack = append(stack, open{z.ns, z.ne, frame})
		}
	}
}

// boardElement reads the scanner's current element, inside the board.
func (z *tagScanner) boardElement(pg *gamePage, in *inherited, form bool) {
	if form && eqLower(z.name(), "input") {
		if t, ok := z.get(kType); ok && valueIs(t, "hidden") {
			var name, value string
			if v, ok := z.get(kName); ok {
				name = attrValue(v)
			}
			if v, ok := z.get(kValue); ok {
				value = attrValue(v)
			}
			pg.fields = setField(pg.fields, name, value)
		}
		return
	}
	if _, ok := z.get(kDataClick); !ok {
		return
	}
	switch {
	case eqLower(z.name(), "a"):
		a := z.action(in, kHxGet, kHref)
		pg.units = append(pg.units, a)
		if v, ok := z.get(kClass); ok && hasClassToken(v, "target") {
			pg.targets = append(pg.targets, a)
		}
	case eqLower(z.name(), "button"):
		if v, ok := z.get(kName); ok && valueIs(v, "move") {
			var val string
			if v, ok := z.get(kValue); ok {
				val = attrValue(v)
			}
			pg.moves = append(pg.moves, val)
		}
	}
}
