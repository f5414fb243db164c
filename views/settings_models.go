package views

// SettingsPage is the account page: notifications by e-mail, the
// personal feed and the password. Each form has its own message.
type SettingsPage struct {
	Page
	// Notifications.
	Email       string   // the address stored, or the one just submitted
	Modes       []Option // the notification choices, one selected
	MailOff     bool     // this server sends no e-mail
	NotifyError string
	NotifyDone  bool
	// Verification of the address.
	EmailVerified bool
	VerifySent    bool // a link was just mailed
	VerifyError   string
	// MailFailure says when and why the last mail to the stored address
	// was refused; "" when none was.
	MailFailure string
	// The feed.
	FeedURL string // absolute; the token in it is the credential
	FeedNew bool   // just regenerated
	// The password.
	PasswordError string
	PasswordDone  bool
	// Deleting the account.
	DeleteError string
}
