package views

import "strings"

// ResetRequestPage asks for the e-mail address to send a password reset
// link to. Sent: the request was taken (the same answer whether the
// address is known or not).
type ResetRequestPage struct {
	Page
	MailOff bool // this server sends no e-mail: ask the admin instead
	Sent    bool
	Email   string
	Error   string
}

// ResetPasswordPage is the form behind a reset link: a new password for
// Name.
type ResetPasswordPage struct {
	Page
	Action string // "/reset/TOKEN"
	Name   string
	Error  string
}

// NoticePage is a page with one message and a way on.
type NoticePage struct {
	Page
	Heading  string
	Message  string
	OK       bool // a success, not a failure
	LinkHref string
	LinkText string
}

// AdminPage is the admin's page: the server's figures, the announcement,
// the accounts, the open challenges and the reported messages.
type AdminPage struct {
	Page
	Done        string // what the last action did
	Error       string // why the last action failed
	Figures     []Figure
	Replication string // one line about the replica
	Query       string // the account search
	Users       []AdminUser
	MoreUsers   bool // the list is cut short: search to narrow it
	Challenges  []AdminChallenge
	Reports     []AdminReport
	// ResetLink, after a forced password reset, is the link to pass on to
	// ResetFor (also mailed to a verified address when ResetMailed).
	ResetLink   string
	ResetFor    string
	ResetMailed bool
	// Log is the latest admin actions, newest first.
	Log []AdminLogEntry
}

// AdminLogEntry is one admin action in the admin log, each field written
// for the reader: when, who ("ann", "cli (root)"), what ("Account
// deleted"), on whom or what ("bob", "challenge #4 by ann"), and from
// where (an address, "command line").
type AdminLogEntry struct {
	When   string
	Who    string
	Action string
	Target string
	From   string
}

// Figure is one of the server's figures.
type Figure struct {
	Label string
	Value string
}

// AdminUser is one account in the admin's list.
type AdminUser struct {
	ID        int64
	Name      string
	Href      string // the profile
	Since     string
	Admin     bool
	Suspended bool
	Deleted   bool
	Self      bool // the admin's own account: no actions on it here
}

// AdminChallenge is one open challenge in the admin's list.
type AdminChallenge struct {
	ID      int64
	By      string
	To      string // "" when open to anyone
	What    string // "TRENCH, official match, 3 days per move"
	Created string
}

// AdminReport is one reported message.
type AdminReport struct {
	ID        int64
	MessageID int64
	From      string
	Reporter  string
	Body      string
	Reason    string
	When      string
	GameHref  string
}

// formatBefore is the text of a translated format before its "%s" (strongIn).
func formatBefore(format string) string {
	b, _, _ := strings.Cut(format, "%s")
	return b
}

// formatAfter is the text of a translated format after its "%s" ("" when it
// has none).
func formatAfter(format string) string {
	_, a, _ := strings.Cut(format, "%s")
	return a
}
