package views

// SettingsPage is the account page: how moves are sent, the language
// and colour theme, notifications by e-mail, the personal feed, the
// password and the signed-in browsers. Each form has its own message.
type SettingsPage struct {
	Page
	// Playing: whether a completed move waits for "Send move", and
	// whether that choice was just saved.
	ConfirmMoves bool
	MovesDone    bool
	// Appearance: the language of the pages (Value "" follows the
	// browser, else a code of Languages; labels are each language's own
	// name) and the colour theme (Value "system", "light" or "dark"), the
	// player's choice selected in each; and whether one was just saved.
	Languages    []Option
	Themes       []Option
	LanguageDone bool
	ThemeDone    bool
	// Notifications.
	Email       string   // the address stored, or the one just submitted
	Modes       []Option // the notification choices, one selected
	MailOff     bool     // this server sends no e-mail
	NotifyError string
	NotifyDone  bool
	// Verification of the address: SavedEmail is the address stored
	// (the form may show another one, just refused).
	SavedEmail    string
	EmailVerified bool
	VerifySent    bool // a link was just mailed
	VerifyError   string
	// MailFailure says when and why the last mail to the stored address
	// was refused; "" when none was.
	MailFailure string
	// The feed.
	FeedURL string // absolute, only just after it was made ("" otherwise); the token in it is the credential
	FeedNew bool   // just regenerated
	// Push notifications: the server's VAPID public key (base64url, the
	// browsers' applicationServerKey), the devices that get them, the
	// refusal of the last subscription ("" for none), and "1" when a
	// device was just added or "removed" when one was just removed.
	PushKey     string
	PushDevices []PushDeviceRow
	PushError   string
	PushDone    string
	// The password.
	PasswordError string
	PasswordDone  bool
	// Deleting the account.
	DeleteError string
	// The sessions: every browser signed in to the account.
	Sessions []SessionRow
}

// PushDeviceRow is one device that gets push notifications, on the
// settings page.
type PushDeviceRow struct {
	ID          int64
	Device      string // e.g. "Firefox 128 on Android"
	Since       string // when it was added, e.g. "2 March 2026 14:05 UTC"
	LastSuccess string // when it last accepted a notice; "" for never
	// Wants are the kinds of notice the device may be sent, each with
	// whether it is.
	Wants []PushWantBox
}

// PushWantBox is one kind of notice a device may be sent, as a check box.
type PushWantBox struct {
	Kind  string // "move", "end", "challenge", "message" or "round"
	Label string // "Your move", in the reader's language
	On    bool
}

// SessionRow is one signed-in browser on the settings page.
type SessionRow struct {
	Device   string // e.g. "Firefox 128 on Linux"
	IP       string // the address it was last seen from
	Since    string // when it signed in, e.g. "2 March 2026 14:05 UTC"
	LastSeen string // when it was last seen, same format
	Current  bool   // the browser showing the page
}
