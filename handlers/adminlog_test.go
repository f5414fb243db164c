package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
)

// adminLogRows returns the admin page's log, newest first, each row its
// cells joined by " | ".
func adminLogRows(t *testing.T, admin *client) []string {
	t.Helper()
	admin.Get("/admin")
	admin.wantStatus(http.StatusOK)
	var rows []string
	admin.Last.Find("#admin-log tbody tr").Each(func(_ int, tr *goquery.Selection) {
		var cells []string
		tr.Find("td").Each(func(_ int, td *goquery.Selection) { cells = append(cells, strings.TrimSpace(td.Text())) })
		rows = append(rows, strings.Join(cells, " | "))
	})
	return rows
}

// TestAdminLogOnTheAdminPage: each action of the admin page is listed on
// it with who did it, what, on whom and from which address; an action
// from the command line shows as such.
func TestAdminLogOnTheAdminPage(t *testing.T) {
	s := startServer(t, "", nil)
	admin, bob := signedUpPair(t, s)
	admin.ForwardedFor = "203.0.113.9"
	bob.Get("/challenges/new?game=trench")
	bob.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "days": {"3"}})
	bob.wantStatus(http.StatusOK)

	if rows := adminLogRows(t, admin); len(rows) != 0 {
		t.Fatalf("a new server's admin log: %q", rows)
	}
	adminAct(t, admin, "#challenges tr[data-challenge]", "remove")
	admin.Get("/admin")
	adminAct(t, admin, `#users tr[data-user="bob"]`, "suspend")
	adminAct(t, admin, `#users tr[data-user="bob"]`, "unsuspend")
	admin.Submit(admin.Last.Find(`form[action="/admin/announcement"]`), url.Values{"text": {"Back at ten"}})
	admin.wantStatus(http.StatusOK)
	adminAct(t, admin, `#users tr[data-user="bob"]`, "delete")
	// A refused action is not an action: nothing is recorded.
	admin.Post("/admin/challenges/999/remove", nil)
	admin.wantStatus(http.StatusNotFound)
	// An action from the command line, as `trench admin` records it.
	if err := s.DB.RecordAdminAction(context.Background(), db.AdminAction{At: s.Clock.Now(), AdminName: "root", Via: db.ViaCLI,
		Action: db.ActionGrant, TargetKind: db.TargetUser, TargetID: mustUser(t, s, "alice"), TargetName: "alice"}); err != nil {
		t.Fatal(err)
	}

	rows := adminLogRows(t, admin)
	want := []string{
		"cli (root) | Admin right given | alice | command line",
		"alice | Account deleted | bob | 203.0.113.9",
		"alice | Announcement set | Back at ten | 203.0.113.9",
		"alice | Suspension lifted | bob | 203.0.113.9",
		"alice | Suspended | bob | 203.0.113.9",
		"alice | Challenge removed | challenge #1 by bob | 203.0.113.9",
	}
	if len(rows) != len(want) {
		t.Fatalf("the admin log lists %d actions, want %d:\n%s", len(rows), len(want), strings.Join(rows, "\n"))
	}
	for i, w := range want {
		// The first cell is the time.
		if _, after, _ := strings.Cut(rows[i], " | "); after != w {
			t.Errorf("admin log row %d: %q, want %q", i, after, w)
		}
	}
	// In another language, the words are translated.
	admin.AcceptLanguage = "fr"
	if rows := adminLogRows(t, admin); !strings.Contains(rows[0], "ligne de commande") || !strings.Contains(rows[1], "Compte supprimé") {
		t.Errorf("the admin log in French: %q", rows[:2])
	}
}
