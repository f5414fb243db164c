package db

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trench-games/trench/rules"
)

// Kind classifies an error by what the caller did wrong (or what went
// wrong here), so that the web layer can map it to a status code.
type Kind int

// The kinds of error. KindInternal is anything unexpected.
const (
	KindInternal     Kind = iota
	KindInvalid           // bad input: a malformed form, move or name (400)
	KindUnauthorized      // not signed in, or a wrong password (401)
	KindForbidden         // signed in, but not allowed: not your game, not your turn (403)
	KindNotFound          // no such user, challenge, game or match (404)
	KindConflict          // the state changed: a stale ply, a taken name, a finished game (409)
	KindIllegal           // a well-formed move the rules do not allow now (422)
	KindTooMany           // rate limited (429)
)

// Error is an error with a Kind and a message meant for the user.
type Error struct {
	Kind Kind
	Msg  string // the message in English
	// Format and Args are what Msg was made of (fmt.Sprintf), for the web
	// layer to write the message in the reader's language: Format is the
	// ID of its translation in the catalogues of views.
	Format string
	Args   []any
	// RetryAfter is, for KindTooMany, how long until the action is
	// allowed again (0 when unknown).
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Msg }

// Term is a value of an error message that is itself English text to be
// translated for the reader, not a name or notation a player wrote: a
// game's title, a challenge's status. It is the ID of its translation in
// the catalogues of views; an ID with a word of context after "|"
// ("accepted|challenge") prints without it ("accepted").
type Term string

// String returns the English text of t, without its context.
func (t Term) String() string {
	s, _, _ := strings.Cut(string(t), "|")
	return s
}

// Refusal is a value of an *Error's Args: a game's refusal of a move,
// written as its English sentence (without the rules' "illegal move: ");
// the handlers translate it as they translate the refusal itself.
type Refusal struct{ Err *rules.MoveError }

// String returns the English sentence of the refusal.
func (r Refusal) String() string { return r.Err.Reason() }

// Errorf returns an *Error of kind with a formatted message for the user.
func Errorf(kind Kind, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// TooMany returns a KindTooMany *Error: the action is refused for now and
// allowed again after wait; the message should say when.
func TooMany(wait time.Duration, format string, args ...any) error {
	return &Error{Kind: KindTooMany, Msg: fmt.Sprintf(format, args...), Format: format, Args: args, RetryAfter: wait}
}

// CapRetryAfter is the Retry-After of a refusal by a cap on open things
// (challenges, tournaments): the count falls when the player or others
// act, at no time known in advance, so it is a hint to clients that
// retry by themselves.
const CapRetryAfter = time.Hour

// RetryAfter returns how long until the action refused with err is allowed
// again: the RetryAfter of a KindTooMany *Error, 0 otherwise.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) && e.Kind == KindTooMany {
		return e.RetryAfter
	}
	return 0
}

// KindOf returns the Kind of err: the Kind of the first *Error in its
// chain; KindIllegal or KindInvalid for the rules' ErrIllegal and
// ErrNotation; KindInternal otherwise (and for nil).
func KindOf(err error) Kind {
	var e *Error
	switch {
	case err == nil:
		return KindInternal
	case errors.As(err, &e):
		return e.Kind
	case errors.Is(err, rules.ErrIllegal):
		return KindIllegal
	case errors.Is(err, rules.ErrNotation):
		return KindInvalid
	}
	return KindInternal
}

// Message returns the user-facing message of err: the message of an *Error
// or a rules error; a generic text for an internal error (whose details are
// logged, never shown).
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	if errors.Is(err, rules.ErrIllegal) || errors.Is(err, rules.ErrNotation) {
		return err.Error()
	}
	return InternalMessage
}

// InternalMessage is what a user is told of an internal error.
const InternalMessage = "Something went wrong on the server. Nothing was changed; please try again."
